import { stat } from 'node:fs/promises';
import type { GitFileChange } from './git-commit';
import { parseNameStatus } from './commit-history';
import { runGit } from './git-command';

/**
 * True when `path` is inside a git work tree (or is a bare repository). Never throws.
 *
 * @example
 * if (await isGitRepo(root)) tasks = await readCommitHistory(root);
 */
export async function isGitRepo(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isDirectory()) return false;
    const out = await runGit(path, ['rev-parse', '--is-inside-work-tree', '--is-bare-repository']);
    return out.split('\n').some((l) => l.trim() === 'true');
  } catch {
    return false;
  }
}

/**
 * The sha HEAD points at, or null for a repository without commits.
 *
 * @example
 * const sha = await headCommit('/repo'); // '3f2a9c1...' (40 hex)
 */
export async function headCommit(repoPath: string): Promise<string | null> {
  try {
    return (await runGit(repoPath, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).trim() || null;
  } catch {
    if (!(await isGitRepo(repoPath))) throw new Error(`Not a git repository: ${repoPath}`);
    return null;
  }
}

/**
 * Everything that differs between commit `sha` and the working tree now: commits since
 * `sha`, staged and unstaged edits, and untracked files that are not ignored. One entry
 * per path, with status relative to `sha` (a file added after `sha` and edited since is
 * 'A'; one added and deleted again does not appear). Renames are detected (`-M`).
 * When `repoPath` is a sub-directory of the work tree, only changes under it are listed,
 * with paths relative to it.
 * This is what an incremental re-index needs: re-read 'A'/'M'/'R' paths, drop 'D' paths
 * and the `oldPath` of renames.
 *
 * @example
 * const changes = await changedFilesSince('/repo', lastIndexedSha);
 * const toDelete = changes.flatMap((c) => (c.status === 'D' ? [c.path] : c.oldPath ? [c.oldPath] : []));
 */
export async function changedFilesSince(repoPath: string, sha: string): Promise<GitFileChange[]> {
  // Diffing a commit against the work tree covers later commits and uncommitted edits at once.
  // --relative: paths relative to repoPath (which may be a sub-directory of the work tree), like ls-files below.
  const diff = await runGit(repoPath, ['diff', '--relative', '--name-status', '-M', '-z', '--no-ext-diff', sha, '--']);
  const untracked = await runGit(repoPath, ['ls-files', '--others', '--exclude-standard', '-z']);
  const byPath = new Map<string, GitFileChange>();
  for (const change of parseNameStatus(diff)) byPath.set(change.path, change);
  for (const path of untracked.split('\0')) {
    if (path && !byPath.has(path)) byPath.set(path, { status: 'A', path });
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Files git tracks although an ignore rule matches them (committed before the rule, or added
 * with `--force`), relative to `repoPath`. Git applies `.gitignore` to untracked files only, so
 * these are part of the repository like any other: discovery must not skip them
 * (`DiscoveryOptions.trackedIgnored`). Empty when `repoPath` is not a work tree.
 *
 * @example
 * await trackedIgnoredFiles('/repo') // ['src/types/store.ts'] when .gitignore says `types`
 */
export async function trackedIgnoredFiles(repoPath: string): Promise<string[]> {
  try {
    const out = await runGit(repoPath, ['ls-files', '--cached', '--ignored', '--exclude-standard', '-z']);
    return out.split('\0').filter(Boolean);
  } catch {
    return [];
  }
}
