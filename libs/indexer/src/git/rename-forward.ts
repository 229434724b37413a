import type { GitCommit } from './git-commit';

/** One rename, `from` -> `to`. */
export interface PathRename {
  from: string;
  to: string;
}

/**
 * Builds the old-path -> newest-path map for renames listed oldest first, following
 * chains (`a -> b`, later `b -> c` gives `a -> c`). A name that is renamed away and later
 * reused keeps the meaning it had at the start of the list.
 */
export function buildRenameMap(renames: readonly PathRename[]): Map<string, string> {
  const forward = new Map<string, string>();
  // Walking newest -> oldest, each rename inherits whatever its target later became.
  for (let i = renames.length - 1; i >= 0; i--) {
    const { from, to } = renames[i];
    if (from === to) continue;
    forward.set(from, forward.get(to) ?? to);
  }
  return forward;
}

/**
 * Maps paths recorded by old commits to the paths they have after the given renames
 * (oldest first), following rename chains. Paths never renamed come back unchanged;
 * whether they still exist is for the caller to check.
 *
 * @example
 * renameForward(['flask/app.py'], [{ from: 'flask/app.py', to: 'src/flask/app.py' }]) // ['src/flask/app.py']
 */
export function renameForward(paths: readonly string[], renames: readonly PathRename[] | ReadonlyMap<string, string>): string[] {
  const forward = renames instanceof Map ? renames : buildRenameMap(renames as readonly PathRename[]);
  return paths.map((p) => forward.get(p) ?? p);
}

/**
 * For each commit, the paths it touched under the names they have at the newest
 * commit: renames are followed forward through chains, and a file later copied out of one
 * of them (git's `C`, usually code split into a new module) counts as a descendant of it,
 * for changes made before the copy only. Input in git's newest-first order (as
 * `readCommitHistory` returns it); the result is keyed by sha.
 *
 * @example
 * // index.js changed, later split: lib/command.js copied out of it
 * pathsAtHead(commits).get(oldSha) // ['index.js', 'lib/command.js']
 */
export function pathsAtHead(newestFirst: readonly GitCommit[]): Map<string, string[]> {
  const lineage = new Map<string, string[]>(); // path as named at this point of the walk -> its names at the newest commit
  const at = (path: string) => lineage.get(path) ?? [path];
  const out = new Map<string, string[]>();
  for (const commit of newestFirst) {
    out.set(commit.sha, [...new Set(commit.files.flatMap((f) => at(f.path)))]);
    // What this commit renamed or copied applies to every older commit.
    for (const f of commit.files) {
      if (f.status === 'R' && f.oldPath) lineage.set(f.oldPath, at(f.path));
      else if (f.copiedFrom) lineage.set(f.copiedFrom, [...new Set([...at(f.copiedFrom), ...at(f.path)])]);
    }
  }
  return out;
}
