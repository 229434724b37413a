import type { CodeHostFileLink, RepositoryFile, Task } from '@sextant/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, errorText } from '../api/client';
import { CodeBlock } from '../components/code-block';
import { FileSymbols } from '../components/file-symbols';
import { hashFor } from '../lib/hash-route';

/** 1-based, inclusive line ranges as people read them. */
export interface LineRange {
  start: number;
  end: number;
}

/** `12-20,31` -> [{12,20},{31,31}]; malformed parts are dropped. */
export function parseLineRanges(text: string | null): LineRange[] {
  if (!text) return [];
  return text
    .split(',')
    .map((part) => /^(\d+)(?:-(\d+))?$/.exec(part.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ start: Number(m[1]), end: Math.max(Number(m[1]), Number(m[2] ?? m[1])) }))
    .filter((r) => r.start >= 1)
    .slice(0, 50);
}

export const formatLineRanges = (ranges: LineRange[]) => ranges.map((r) => (r.end > r.start ? `${r.start}-${r.end}` : `${r.start}`)).join(',');

/** The dashboard address of a file with its hit ranges marked: what result cards link to and what people share. */
export function fileViewHash(repoId: string, path: string, ranges: LineRange[] = [], query?: string): string {
  return hashFor('file', { repo: repoId, path, lines: formatLineRanges(ranges), q: query });
}

/** The line anchor each code host understands (GitHub `#L1-L2`, GitLab `#L1-2`, Bitbucket `#lines-1:2`). */
function codeHostLineUrl(host: CodeHostFileLink, range: LineRange | undefined): string {
  if (!range) return host.url;
  const { start, end } = range;
  if (host.kind === 'bitbucket') return `${host.url}#lines-${start}${end > start ? `:${end}` : ''}`;
  if (host.kind === 'gitlab') return `${host.url}#L${start}${end > start ? `-${end}` : ''}`;
  return `${host.url}#L${start}${end > start ? `-L${end}` : ''}`;
}

const HOST_LABEL = { github: 'GitHub', gitlab: 'GitLab', bitbucket: 'Bitbucket' } as const;
const RECENT_TASKS = 10;

/**
 * One indexed file, whole: syntax colours, the search's hit ranges marked and scrolled to,
 * the tasks that touched it, a permalink and a link to the code host at the indexed commit.
 */
export function FilePage({ params }: { params: URLSearchParams }) {
  const repoId = params.get('repo') ?? '';
  const path = params.get('path') ?? '';
  const query = params.get('q') ?? '';
  const linesParam = params.get('lines');
  const ranges = useMemo(() => parseLineRanges(linesParam), [linesParam]);
  const marked = useMemo(() => {
    const set = new Set<number>();
    for (const r of ranges) for (let n = r.start; n <= Math.min(r.end, r.start + 5000); n++) set.add(n);
    return set;
  }, [ranges]);

  const file = useQuery({
    queryKey: ['file', repoId, path],
    enabled: Boolean(repoId && path),
    queryFn: () => api<RepositoryFile>(`/v1/repos/${encodeURIComponent(repoId)}/file?${new URLSearchParams({ path })}`),
  });
  const tasks = useQuery({
    queryKey: ['file-tasks', repoId, path],
    enabled: Boolean(repoId && path),
    queryFn: () => api<{ tasks: Task[]; total: number }>(`/v1/tasks?${new URLSearchParams({ path, repository_id: repoId, limit: String(RECENT_TASKS) })}`),
  });

  const [current, setCurrent] = useState(0);
  const scrollTo = (i: number) => {
    const r = ranges[i];
    if (!r) return;
    setCurrent(i);
    document.getElementById(`L${r.start}`)?.scrollIntoView({ block: 'center' });
  };
  // Once the text is on screen, bring the first hit into view.
  useEffect(() => {
    if (file.data && ranges.length) requestAnimationFrame(() => document.getElementById(`L${ranges[0].start}`)?.scrollIntoView({ block: 'center' }));
  }, [file.data, ranges]);

  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setCopied('copied');
    } catch {
      setCopied('failed'); // http origins have no clipboard API: the address bar holds the same link
    }
  };

  if (!repoId || !path) {
    return (
      <section className="page">
        <h1>File</h1>
        <p className="text-error">This link names no file (it needs repo and path).</p>
      </section>
    );
  }
  const f = file.data;
  return (
    <section className="page file-page" aria-labelledby="file-title">
      <header className="file-head card">
        <h1 id="file-title" className="file-path">
          <span className="result-repo">{f?.repository_name ?? ''}/</span>
          {path}
        </h1>
        <div className="file-meta muted small">
          {f?.lang && <span className="result-lang">{f.lang}</span>}
          {f && <span>{f.content.replace(/\n$/, '').split('\n').length} lines</span>}
          {f?.indexed_commit && (
            <span title={f.indexed_commit}>
              indexed at <span className="mono">{f.indexed_commit.slice(0, 10)}</span>
            </span>
          )}
          {query && <span>from the search “{query}”</span>}
        </div>
        <div className="file-actions">
          {query && (
            <a
              className="button"
              href={hashFor('search', { q: query })}
              onClick={(e) => {
                // Came from the results in this tab: go back to them as they were (filters included).
                if (window.history.length > 1) {
                  e.preventDefault();
                  window.history.back();
                }
              }}
            >
              ← Back to results
            </a>
          )}
          <button type="button" onClick={() => void copyLink()} title={window.location.href}>
            {copied === 'copied' ? 'Link copied' : 'Copy link'}
          </button>
          <a className="button permalink" href={fileViewHash(repoId, path, ranges)}>
            Permalink
          </a>
          {f?.code_host && (
            <a className="button code-host-link" href={codeHostLineUrl(f.code_host, ranges[current])} target="_blank" rel="noreferrer noopener">
              Open on {HOST_LABEL[f.code_host.kind]}
            </a>
          )}
        </div>
        {copied === 'failed' && <p className="muted small">The browser refused the clipboard; copy the address bar instead.</p>}
        {f?.changed_since_index && (
          <p className="weak-match" role="status">
            This file changed on disk since it was indexed: marked lines may be off until the next index run.
          </p>
        )}
        {ranges.length > 0 && (
          <nav className="hit-nav" aria-label="hits in this file">
            <span className="muted small">{ranges.length === 1 ? '1 hit' : `${ranges.length} hits`}:</span>
            {ranges.map((r, i) => (
              <button key={`${r.start}-${r.end}`} type="button" className={i === current ? 'hit-btn current' : 'hit-btn'} aria-current={i === current ? 'true' : undefined} onClick={() => scrollTo(i)}>
                L{r.start}
                {r.end > r.start ? `–${r.end}` : ''}
              </button>
            ))}
          </nav>
        )}
      </header>

      <div className="file-body">
        <div className="file-code card">
          {file.isPending && <p className="muted">Loading {path}…</p>}
          {file.error && (
            <p className="text-error" role="alert">
              {errorText(file.error)}
            </p>
          )}
          {f && <CodeBlock code={f.content} lang={f.lang} path={f.path} label={`${f.path} (whole file)`} marked={marked} lineIds />}
        </div>
        <div className="file-side">
        <aside className="file-tasks card" aria-labelledby="file-tasks-title">
          <h2 id="file-tasks-title">Recent tasks that touched it</h2>
          {tasks.isPending && <p className="muted small">Loading…</p>}
          {tasks.error && <p className="text-error small">{errorText(tasks.error)}</p>}
          {tasks.data && tasks.data.tasks.length === 0 && <p className="muted small">No past task lists this file.</p>}
          {tasks.data && tasks.data.tasks.length > 0 && (
            <ul className="file-task-list">
              {tasks.data.tasks.map((t) => (
                <li key={t.id}>
                  <a href={hashFor('tasks', { id: t.id })}>{t.title}</a>
                  <span className="muted small">
                    {' '}
                    · {t.external_id}
                    {t.created_at ? ` · ${t.created_at.slice(0, 10)}` : ''}
                  </span>
                </li>
              ))}
              {tasks.data.total > tasks.data.tasks.length && <li className="muted small">+{tasks.data.total - tasks.data.tasks.length} older</li>}
            </ul>
          )}
        </aside>
        <FileSymbols repoId={repoId} path={path} />
        </div>
      </div>
    </section>
  );
}
