import type { SimilarTask, Task, TaskImportResult } from '@sextant/contracts';
import { csvColumns } from '@sextant/contracts/task-import-pieces';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../api/client';
import { useImportGit, useImportTasksFile, useRepositories, useTasks } from '../api/queries';
import { fileViewHash } from './file-page';

const PAGE = 25;

export function TasksPage({ focusTaskId, canImport = true }: { focusTaskId: string | null; canImport?: boolean }) {
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [source, setSource] = useState('');
  const [offset, setOffset] = useState(0);
  const tasks = useTasks({ query: query || undefined, source: source || undefined, limit: PAGE, offset });
  const total = tasks.data?.total ?? 0;
  const repos = useRepositories();
  const repoName = (id: string | null) => (id ? (repos.data?.find((r) => r.id === id)?.name ?? null) : null);
  const filtered = Boolean(query || source);
  // How many tasks the workspace has at all, so an empty filtered list does not read as "no history".
  const everything = useTasks({ limit: 1, offset: 0 });
  const clearFilters = () => {
    setDraft('');
    setQuery('');
    setSource('');
    setOffset(0);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQuery(draft.trim());
    setOffset(0);
  };
  return (
    <section className="page" aria-labelledby="tasks-title">
      <h1 id="tasks-title">Task history</h1>
      {focusTaskId && <FocusedTask id={focusTaskId} repoName={repoName} />}
      {canImport && (
        <div className="two-col">
          <ImportFileCard />
          <ImportGitCard />
        </div>
      )}
      <form className="search-row card" role="search" onSubmit={submit}>
        <label htmlFor="task-query" className="visually-hidden">
          Find similar tasks
        </label>
        <input id="task-query" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="Find similar past tasks (empty: newest first)" />
        <label>
          <span className="visually-hidden">Source</span>
          <input value={source} onChange={(e) => (setSource(e.target.value), setOffset(0))} placeholder="source (git, jira…)" className="narrow-text" />
        </label>
        <button type="submit" className="primary">
          Search tasks
        </button>
      </form>
      {tasks.error && <p className="text-error">{errorText(tasks.error)}</p>}
      <div className="task-meta muted small" aria-live="polite">
        {tasks.isFetching ? 'Loading…' : query ? `${total} similar tasks for “${query}”${source ? ` from ${source}` : ''}` : source ? `${total} tasks from ${source}` : `${total} tasks`}
      </div>
      <ul className="task-list">
        {tasks.data?.tasks.map((t) => (
          <li key={t.id}>
            <TaskRow task={t} repoName={repoName(t.repository_id)} />
          </li>
        ))}
      </ul>
      {tasks.data && !tasks.isFetching && tasks.data.tasks.length === 0 &&
        (filtered && (everything.data?.total ?? 0) > 0 ? (
          <p className="empty">
            No task matches {query ? `“${query}”` : ''}
            {query && source ? ' with ' : ''}
            {source ? `source “${source}”` : ''} — the workspace has {everything.data!.total} tasks.{' '}
            <button type="button" className="linklike" onClick={clearFilters}>
              Show all tasks
            </button>
          </p>
        ) : (
          <p className="empty">No tasks yet. Import a JSONL/CSV file or your git history above.</p>
        ))}
      {!query && (total > PAGE || offset > 0) && (
        <nav className="pager" aria-label="pages">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            ← Newer
          </button>
          <span className="muted">
            {offset + 1}–{Math.min(total, offset + PAGE)} of {total}
          </span>
          <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            Older →
          </button>
        </nav>
      )}
    </section>
  );
}

function TaskRow({ task, repoName, open = false }: { task: Task | SimilarTask; repoName: string | null; open?: boolean }) {
  const score = 'score' in task ? task.score : null;
  return (
    <details className="task card" open={open} data-task-id={task.id}>
      <summary>
        <span className="task-id mono">{task.external_id}</span>
        <span className="task-title">{task.title}</span>
        <span className="pill">{task.source}</span>
        {repoName && (
          <span className="pill task-repo" title="repository">
            {repoName}
          </span>
        )}
        {task.status && <span className="pill">{task.status}</span>}
        <span className="muted small">{task.files.length} files</span>
        {task.created_at && <span className="muted small">{task.created_at.slice(0, 10)}</span>}
        {score !== null && <span className="muted small">score {score.toFixed(3)}</span>}
      </summary>
      {task.body && <p className="task-body">{task.body}</p>}
      {task.outcome && <p className="task-body">Outcome: {task.outcome}</p>}
      <ul className="task-files">
        {task.files.map((f) => (
          <li key={f} className="mono">
            {task.repository_id ? <a href={fileViewHash(task.repository_id, f)}>{f}</a> : f}
          </li>
        ))}
      </ul>
    </details>
  );
}

function FocusedTask({ id, repoName }: { id: string; repoName: (id: string | null) => string | null }) {
  const task = useQuery({ queryKey: ['task', id], queryFn: () => api<Task>(`/v1/tasks/${encodeURIComponent(id)}`) });
  if (task.error) return <p className="text-error">{errorText(task.error)}</p>;
  if (!task.data) return null;
  return (
    <div className="focused-task">
      <h2>Task {task.data.external_id}</h2>
      <TaskRow key={task.data.id} task={task.data} repoName={repoName(task.data.repository_id)} open />
    </div>
  );
}

function ImportSummary({ result }: { result: TaskImportResult & { noise?: number } }) {
  return (
    <div className="import-result" role="status">
      <p>
        Imported {result.imported}, updated {result.updated}, skipped {result.skipped}
        {result.noise !== undefined ? ` (${result.noise} noise commits skipped)` : ''}.
      </p>
      {result.errors.length > 0 && (
        <ul className="text-error small">
          {result.errors.slice(0, 20).map((e, i) => (
            <li key={i}>
              {e.line !== undefined ? `line ${e.line}: ` : e.id ? `${e.id}: ` : ''}
              {e.message}
            </li>
          ))}
          {result.errors.length > 20 && <li>… {result.errors.length - 20} more</li>}
        </ul>
      )}
    </div>
  );
}

type CsvField = 'id' | 'title' | 'body' | 'files' | 'status' | 'created_at';
const CSV_FIELDS: Array<{ field: CsvField; label: string; required?: boolean; names: string[] }> = [
  { field: 'id', label: 'Id', required: true, names: ['id', 'key', 'issuekey', 'issueid', 'ticket', 'ticketid', 'number', '#'] },
  { field: 'title', label: 'Title', required: true, names: ['title', 'summary', 'subject', 'name'] },
  { field: 'body', label: 'Body', names: ['body', 'description', 'details', 'text'] },
  { field: 'files', label: 'Files', names: ['files', 'paths', 'changedfiles', 'file'] },
  { field: 'status', label: 'Status', names: ['status', 'state', 'resolution'] },
  { field: 'created_at', label: 'Created', names: ['createdat', 'created', 'createddate', 'creationdate', 'date', 'opened'] },
];
type CsvMapping = Partial<Record<CsvField, string>>;

/** The column a tracker export most likely uses for each field (Jira's "Issue key" / "Summary", GitHub's "number" / "title"). */
function guessCsvMapping(columns: string[]): CsvMapping {
  const key = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');
  const mapping: CsvMapping = {};
  for (const { field, names } of CSV_FIELDS) {
    const found = names.map((n) => columns.find((c) => key(c) === n)).find((c) => c !== undefined);
    if (found) mapping[field] = found;
  }
  return mapping;
}

function ImportFileCard() {
  const importFile = useImportTasksFile();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<'jsonl' | 'csv'>('jsonl');
  const [source, setSource] = useState('');
  const [header, setHeader] = useState<string[] | null>(null);
  const [mapping, setMapping] = useState<CsvMapping>({});
  useEffect(() => {
    if (file) setFormat(/\.csv$/i.test(file.name) ? 'csv' : 'jsonl');
  }, [file]);
  useEffect(() => {
    setHeader(null);
    if (!file || format !== 'csv') return;
    let current = true;
    // The header row is at the start; 64 KB holds any real one.
    void file
      .slice(0, 64 * 1024)
      .text()
      .then((start) => {
        if (!current) return;
        const columns = csvColumns(start);
        setHeader(columns);
        setMapping(columns ? guessCsvMapping(columns) : {});
      });
    return () => {
      current = false;
    };
  }, [file, format]);
  const unmapped = format === 'csv' && header ? CSV_FIELDS.filter((f) => f.required && !mapping[f.field]).map((f) => f.label.toLowerCase()) : [];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || unmapped.length) return;
    const content = await file.text();
    // An optional field set to "(none)" is sent as null, so the server does not fall back to a column of the field's own name.
    const columns = format === 'csv' && header ? Object.fromEntries(CSV_FIELDS.map(({ field, required }) => [field, mapping[field] ?? (required ? undefined : null)]).filter(([, column]) => column !== undefined)) : undefined;
    importFile.mutate({ format, content, ...(source.trim() ? { source: source.trim() } : {}), ...(columns ? { columns } : {}) });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="import-file-title">
      <h2 id="import-file-title">Import a file</h2>
      <p className="muted small">JSONL (one task per line: id, title, body, files, status, created_at) or CSV with those columns; large files are sent in parts.</p>
      <div className="form-row">
        <label className="grow">
          <span className="visually-hidden">Task file</span>
          <input
            type="file"
            accept=".jsonl,.json,.ndjson,.csv,text/csv,application/json"
            onChange={(e) => {
              // The previous file's summary or error must not read as this file's.
              importFile.reset();
              setFile(e.target.files?.[0] ?? null);
            }}
          />
        </label>
        <label>
          Format{' '}
          <select value={format} onChange={(e) => setFormat(e.target.value as 'jsonl' | 'csv')}>
            <option value="jsonl">JSONL</option>
            <option value="csv">CSV</option>
          </select>
        </label>
        <label>
          <span className="visually-hidden">Source name</span>
          <input value={source} onChange={(e) => setSource(e.target.value)} placeholder="source (optional)" className="narrow-text" />
        </label>
        <button type="submit" className="primary" disabled={!file || unmapped.length > 0 || importFile.isPending}>
          {importFile.isPending ? (importFile.progress && importFile.progress.of > 1 ? `Importing… part ${importFile.progress.sent + 1} of ${importFile.progress.of}` : 'Importing…') : 'Import'}
        </button>
      </div>
      {format === 'csv' && header && (
        <fieldset className="csv-columns">
          <legend className="small">Columns of {file?.name}</legend>
          {CSV_FIELDS.map(({ field, label, required }) => (
            <label key={field}>
              {label}
              {required ? ' *' : ''}{' '}
              <select aria-label={`Column for ${label.toLowerCase()}`} value={mapping[field] ?? ''} onChange={(e) => setMapping((m) => ({ ...m, [field]: e.target.value || undefined }))}>
                <option value="">{required ? 'choose…' : '(none)'}</option>
                {header.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
          ))}
          {unmapped.length > 0 && <p className="text-error small">Choose the column that holds each task’s {unmapped.join(' and ')}.</p>}
        </fieldset>
      )}
      {importFile.progress && importFile.progress.of > 1 && <progress className="import-progress" value={importFile.progress.sent} max={importFile.progress.of} aria-label="Task file import progress" />}
      {importFile.error && <p className="text-error">{errorText(importFile.error)}</p>}
      {importFile.data && <ImportSummary result={importFile.data} />}
    </form>
  );
}

function ImportGitCard() {
  const repos = useRepositories();
  const importGit = useImportGit();
  const [repoId, setRepoId] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const chosen = repoId || repos.data?.[0]?.id || '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return;
    importGit.mutate({ repository_id: chosen, ...(since ? { since } : {}), ...(until ? { until } : {}) });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="import-git-title">
      <h2 id="import-git-title">Import from git</h2>
      <p className="muted small">Each non-merge commit becomes a task with its message and changed files; merged pull requests become one task.</p>
      <div className="form-row">
        <label className="grow">
          Repository{' '}
          <select value={chosen} onChange={(e) => setRepoId(e.target.value)}>
            {repos.data?.length ? null : <option value="">no repository</option>}
            {repos.data?.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Since <input value={since} onChange={(e) => setSince(e.target.value)} placeholder="2024-01-01" className="narrow-text" />
        </label>
        <label>
          Until <input value={until} onChange={(e) => setUntil(e.target.value)} placeholder="HEAD" className="narrow-text" />
        </label>
        <button type="submit" className="primary" disabled={!chosen || importGit.isPending}>
          {importGit.isPending ? 'Importing…' : 'Import history'}
        </button>
      </div>
      {importGit.error && <p className="text-error">{errorText(importGit.error)}</p>}
      {importGit.data && <ImportSummary result={importGit.data} />}
    </form>
  );
}
