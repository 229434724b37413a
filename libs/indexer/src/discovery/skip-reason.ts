/** Why a path was not indexed. Every skip is counted under exactly one reason. */
export type SkipReason =
  | 'gitignore'
  | 'sextantignore'
  | 'extra-glob'
  | 'excluded-dir'
  | 'lockfile'
  | 'generated'
  | 'minified'
  | 'binary'
  | 'too-large'
  | 'secret-file'
  | 'symlink-outside-root'
  | 'symlink-loop'
  | 'symlink-not-followed'
  | 'unreadable';

export const SKIP_REASONS: readonly SkipReason[] = [
  'gitignore',
  'sextantignore',
  'extra-glob',
  'excluded-dir',
  'lockfile',
  'generated',
  'minified',
  'binary',
  'too-large',
  'secret-file',
  'symlink-outside-root',
  'symlink-loop',
  'symlink-not-followed',
  'unreadable',
];

/**
 * Skips whose files still belong to the code's history: a lockfile, build output or a file too
 * large to read changes together with the code (a new dependency touches `package.json` and
 * `package-lock.json`), so task search may name them although their content is not indexed.
 * Secrets, binaries and ignored paths are never listed.
 */
export const HISTORY_ONLY_REASONS: readonly SkipReason[] = ['lockfile', 'generated', 'minified', 'too-large'];

export function emptySkipCounts(): Record<SkipReason, number> {
  return Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as Record<SkipReason, number>;
}
