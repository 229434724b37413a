import type { IndexJob, Repository } from '@sextant/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { errorText } from '../api/client';
import { useCancelJob, useJobs, useRegisterRepository, useRemoveRepository, useRepositories, useRepositoryDetail, useSetWatch, useStartIndex, type Me } from '../api/queries';
import { isFinished, ProgressBar } from '../components/progress-bar';

type Role = Me['role'];
/** What each role may do here (the API enforces the same: reader reads, member indexes, admin manages). */
const can = (role: Role) => ({ index: role !== 'reader', manage: role === 'admin' });

export function RepositoriesPage({ role }: { role: Role }) {
  const allowed = can(role);
  const repos = useRepositories();
  const jobs = useJobs();
  const latestJob = (repoId: string): IndexJob | undefined =>
    (jobs.data ?? []).filter((j) => j.repository_id === repoId).sort((a, b) => b.created_at.localeCompare(a.created_at))[0];

  return (
    <section className="page" aria-labelledby="repos-title">
      <h1 id="repos-title">Repositories</h1>
      {allowed.manage ? <AddRepositoryForm /> : <p className="muted small role-note">You are signed in as {role}: {allowed.index ? 'you can re-index repositories; adding, removing and watching them is for admins.' : 'you can browse repositories and their progress; changing them is for members and admins.'}</p>}
      {repos.isPending && <p className="muted">Loading repositories…</p>}
      {repos.error && <p className="text-error">{errorText(repos.error)}</p>}
      {repos.data?.length === 0 && <p className="empty">{allowed.manage ? "No repository yet. Add a local path (under the server's allowed roots) or a git URL above." : 'No repository yet. An admin can add one.'}</p>}
      <ul className="repo-list">
        {repos.data?.map((r) => (
          <li key={r.id}>
            <RepositoryCard repo={r} job={latestJob(r.id)} role={role} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function AddRepositoryForm() {
  const register = useRegisterRepository();
  const [kind, setKind] = useState<'path' | 'git_url'>('path');
  const [location, setLocation] = useState('');
  const [name, setName] = useState('');
  const [watch, setWatch] = useState(false);
  // A clone happens inside the request: count the seconds so a big repository does not look stuck.
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (!register.isPending) return;
    setElapsed(0);
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Math.round((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [register.isPending]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!location.trim()) return;
    register.mutate(
      { [kind]: location.trim(), ...(name.trim() ? { name: name.trim() } : {}), ...(watch ? { watch } : {}) },
      {
        onSuccess: () => {
          setLocation('');
          setName('');
        },
      },
    );
  };
  return (
    <form className="card add-repo" onSubmit={submit} aria-labelledby="add-repo-title">
      <h2 id="add-repo-title">Add a repository</h2>
      <div className="form-row">
        <fieldset className="segmented">
          <legend className="visually-hidden">Location kind</legend>
          <label className="check">
            <input type="radio" name="repo-kind" checked={kind === 'path'} onChange={() => setKind('path')} /> Local path
          </label>
          <label className="check">
            <input type="radio" name="repo-kind" checked={kind === 'git_url'} onChange={() => setKind('git_url')} /> Git URL
          </label>
        </fieldset>
        <label className="grow">
          <span className="visually-hidden">{kind === 'path' ? 'Local path' : 'Git URL'}</span>
          <input id="repo-location" value={location} onChange={(e) => setLocation(e.target.value)} placeholder={kind === 'path' ? '/srv/code/my-service' : 'https://github.com/org/repo.git'} required />
        </label>
        <label>
          <span className="visually-hidden">Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="name (optional)" />
        </label>
        <label className="check">
          <input type="checkbox" checked={watch} onChange={(e) => setWatch(e.target.checked)} /> watch
        </label>
        <button type="submit" className="primary" disabled={register.isPending}>
          {register.isPending ? (kind === 'git_url' ? `Cloning… ${elapsed} s` : 'Adding…') : 'Add and index'}
        </button>
      </div>
      {register.error && (
        <p className="text-error" role="alert">
          {errorText(register.error)}
        </p>
      )}
    </form>
  );
}

function RepositoryCard({ repo, job, role }: { repo: Repository; job: IndexJob | undefined; role: Role }) {
  const allowed = can(role);
  const start = useStartIndex();
  const cancel = useCancelJob();
  const setWatch = useSetWatch();
  // The box follows the click at once (the mutation's pending state renders a tick later, and a
  // controlled checkbox would snap back in between); the server's answer takes over when it settles.
  const [watchChoice, setWatchChoice] = useState<boolean | null>(null);
  const remove = useRemoveRepository();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [open, setOpen] = useState(false);
  const running = job && !isFinished(job);
  return (
    <article className="card repo" aria-labelledby={`repo-${repo.id}`} data-repo-name={repo.name}>
      <header className="repo-head">
        <div className="repo-title">
          <h2 id={`repo-${repo.id}`}>{repo.name}</h2>
          <span className="muted mono" title={repo.git_url ?? repo.root_path}>
            {repo.git_url ?? repo.root_path}
          </span>
        </div>
        <div className="repo-actions">
          {allowed.manage ? (
            <label className="check watch-toggle" title="Re-index changed files as they are saved">
              <input
                type="checkbox"
                checked={watchChoice ?? repo.watch}
                disabled={setWatch.isPending}
                onChange={(e) => {
                  setWatchChoice(e.target.checked);
                  setWatch.mutate({ repoId: repo.id, watch: e.target.checked }, { onSettled: () => setWatchChoice(null) });
                }}
              />{' '}
              watch
            </label>
          ) : (
            repo.watch && <span className="pill">watching</span>
          )}
          {allowed.index && (
            <>
              <button type="button" onClick={() => start.mutate({ repoId: repo.id, kind: 'incremental' })} disabled={Boolean(running) || start.isPending}>
                Re-index
              </button>
              <button type="button" onClick={() => start.mutate({ repoId: repo.id, kind: 'full' })} disabled={Boolean(running) || start.isPending}>
                Full re-index
              </button>
              {running && (
                <button type="button" onClick={() => cancel.mutate(job.id)} disabled={cancel.isPending}>
                  Cancel
                </button>
              )}
            </>
          )}
          {allowed.manage &&
            (confirmRemove ? (
              <span className="confirm" role="group" aria-label={`remove ${repo.name}?`}>
                <button type="button" className="danger" onClick={() => remove.mutate(repo.id)} disabled={remove.isPending}>
                  {remove.isPending ? 'Removing…' : `Remove ${repo.name}`}
                </button>
                <button type="button" onClick={() => setConfirmRemove(false)} disabled={remove.isPending}>
                  Keep
                </button>
              </span>
            ) : (
              <button type="button" className="ghost danger-text" onClick={() => setConfirmRemove(true)}>
                Remove…
              </button>
            ))}
        </div>
      </header>
      <p className="muted small">
        {repo.last_indexed_at ? `Last indexed ${new Date(repo.last_indexed_at).toLocaleString()}` : 'Not indexed yet'}
        {repo.last_indexed_commit ? ` at ${repo.last_indexed_commit.slice(0, 10)}` : ''}
      </p>
      {confirmRemove && !remove.isPending && <p className="muted small">Removing deletes its files, chunks and jobs from the index{repo.git_url ? ' and its clone' : ''}; the directory itself is not touched.</p>}
      {(start.error || cancel.error || setWatch.error || remove.error) && (
        <p className="text-error" role="alert">
          {errorText(start.error ?? cancel.error ?? setWatch.error ?? remove.error)}
        </p>
      )}
      {job ? <ProgressBar job={job} label={`Indexing ${repo.name}`} /> : <div className="progress progress-placeholder muted">No index job yet.</div>}
      {job && job.errors.length > 0 && (
        <details className="job-errors">
          <summary className="text-error">
            {job.errors.length} file{job.errors.length === 1 ? '' : 's'} failed
          </summary>
          <ul>
            {job.errors.map((e, i) => (
              <li key={i}>
                <span className="mono">{e.path}</span>: {e.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      <details className="repo-details" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary>Files and chunks by language</summary>
        {open && <RepositoryCounts id={repo.id} />}
      </details>
    </article>
  );
}

function RepositoryCounts({ id }: { id: string }) {
  const detail = useRepositoryDetail(id);
  if (detail.isPending) return <p className="muted">Loading…</p>;
  if (detail.error) return <p className="text-error">{errorText(detail.error)}</p>;
  const d = detail.data;
  const langs = [...new Set([...Object.keys(d.files.by_language), ...Object.keys(d.chunks.by_language)])].sort((a, b) => (d.files.by_language[b] ?? 0) - (d.files.by_language[a] ?? 0));
  const max = Math.max(1, ...langs.map((l) => d.chunks.by_language[l] ?? 0));
  return (
    <div className="counts">
      <table>
        <caption className="visually-hidden">Files and chunks by language</caption>
        <thead>
          <tr>
            <th scope="col">language</th>
            <th scope="col" className="num">
              files
            </th>
            <th scope="col" className="num">
              chunks
            </th>
            <th scope="col" aria-hidden="true" />
          </tr>
        </thead>
        <tbody>
          {langs.map((l) => (
            <tr key={l}>
              <th scope="row">{l}</th>
              <td className="num">{d.files.by_language[l] ?? 0}</td>
              <td className="num">{d.chunks.by_language[l] ?? 0}</td>
              <td className="bar-cell" aria-hidden="true">
                <span className="mini-bar" style={{ width: `${((d.chunks.by_language[l] ?? 0) / max) * 100}%` }} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">total</th>
            <td className="num">{d.files.total}</td>
            <td className="num">{d.chunks.total}</td>
            <td />
          </tr>
        </tfoot>
      </table>
      <p className="muted small">
        Chunk types: {Object.entries(d.chunks.by_type).map(([t, n]) => `${t} ${n}`).join(' · ') || '—'} · File states: {Object.entries(d.files.by_state).map(([t, n]) => `${t} ${n}`).join(' · ') || '—'}
      </p>
    </div>
  );
}
