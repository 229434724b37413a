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

/** The renames of a list of commits in chronological order (input in git's newest-first order unless `oldestFirst`). */
export function renamesOf(commits: readonly GitCommit[], { oldestFirst = false }: { oldestFirst?: boolean } = {}): PathRename[] {
  const ordered = oldestFirst ? commits : [...commits].reverse();
  const renames: PathRename[] = [];
  for (const commit of ordered) {
    for (const f of commit.files) if (f.status === 'R' && f.oldPath) renames.push({ from: f.oldPath, to: f.path });
  }
  return renames;
}
