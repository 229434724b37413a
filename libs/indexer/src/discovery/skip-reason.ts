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

export function emptySkipCounts(): Record<SkipReason, number> {
  return Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as Record<SkipReason, number>;
}
