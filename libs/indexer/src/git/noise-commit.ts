import type { GitCommit } from './git-commit';

/** Why a commit says little about where code lives. */
export type NoiseReason =
  | 'merge'
  | 'bot'
  | 'empty'
  | 'version-bump'
  | 'dependency-bump'
  | 'lockfile-only'
  | 'changelog-only'
  | 'typo-or-formatting'
  | 'too-many-files';

/** Options for {@link noiseReason} / {@link isNoiseCommit}. */
export interface NoiseCommitOptions {
  /** Commits changing more files than this are noise (default: no limit; make-dataset uses 15). */
  maxFiles?: number;
}

type CommitLike = Pick<GitCommit, 'parents' | 'authorName' | 'authorEmail' | 'subject' | 'files'> & Partial<Pick<GitCommit, 'body'>>;

const BOT_AUTHOR = /\[bot\]|\bdependabot\b|\brenovate\b|github-actions|\bgreenkeeper\b|\bsnyk-bot\b|pre-commit-ci|\bmergify\b|allcontributors|\bimgbot\b|semantic-release-bot/i;

const VERSION_BUMP_SUBJECT = [
  /^v?\d+\.\d+(\.\d+)?([-+.][\w.]+)?$/i, // "1.2.3", "v2.0.0-rc.1"
  /^(chore|build)(\([^)]*\))?!?:\s*(release|bump version|prepare release|version)/i,
  /^(chore|build)\(release\)/i,
  /^(release|released|releasing|prepare|preparing)\b.*\bv?\d+\.\d+/i,
  /^(bump|update|set) (the )?(package |project )?version\b/i,
  /^version bump\b/i,
  /^bump(ed)? (to )?v?\d+\.\d+/i, // "Bumped v8.2.0", "Bump to 2.0"
  /^(back to )?(dev|development|snapshot)( version)?\b.*\d+\.\d+/i,
  /^\[(release|version)\]/i,
];

const DEPENDENCY_BUMP_SUBJECT = [
  /^(chore|build|fix)\(deps(-dev)?\)/i,
  /^bump [@\w./-]+ from \S+ to \S+/i,
  /^update (dependency|dependencies|deps)\b/i,
  /^(upgrade|update) [@\w./-]+ (from \S+ )?to v?\d+[\w.-]*$/i,
  /^lock file maintenance/i,
];

const TYPO_OR_FORMAT_SUBJECT = [
  /^(fix(ed|es)?|correct(ed)?)\s+(a\s+|some\s+)?(typo|typos|spelling|misspelling)s?\b/i,
  /^typos?\b/i,
  /^(docs|chore|style)(\([^)]*\))?:\s*(fix\s+)?typos?\b/i,
  /^style(\([^)]*\))?:/i,
  /^(run |apply |ran )?(prettier|black|gofmt|rustfmt|clang-format|eslint --fix|isort|ruff format)\b/i,
  /^(re)?format(ted|ting)?(\s+(all\s+)?(the\s+)?(code(base)?|source( code)?|files?|everything|with\s+[\w-]+))?\s*\.?$/i,
  /^(fix(ed)?\s+)?(whitespace|indentation|trailing spaces|lint(ing)?( errors| warnings)?)$/i,
  /^code (style|formatting)\b/i,
];

const LOCKFILES = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock',
  'composer.lock', 'gemfile.lock', 'cargo.lock', 'poetry.lock', 'pipfile.lock', 'uv.lock', 'pdm.lock',
  'go.sum', 'mix.lock', 'pubspec.lock', 'podfile.lock', 'packages.lock.json', 'gradle.lockfile', 'flake.lock',
]);
const CHANGELOG = /^(changelog|changes|history|news|releases?|release[-_ ]?notes|whatsnew)([-_.][\w.-]*)?(\.(md|rst|txt|adoc|markdown))?$/i;

function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/**
 * Classifies a commit as noise for learning "which files does this kind of work touch",
 * or returns null when it is a useful task. Checked in order: merge, bot author, no
 * files, too many files, lockfile-only, changelog-only (lockfiles and changelogs mixed
 * count too), dependency bump, version bump, typo/formatting-only.
 *
 * @example
 * noiseReason({ parents: ['a'], authorName: 'dependabot[bot]', authorEmail: '', subject: 'Bump x', files: [] }) // 'bot'
 */
export function noiseReason(commit: CommitLike, options: NoiseCommitOptions = {}): NoiseReason | null {
  const { maxFiles = Number.POSITIVE_INFINITY } = options;
  const subject = commit.subject.trim();
  if (commit.parents.length > 1 || /^Merge (pull request|branch|remote-tracking branch|tag) /.test(subject)) return 'merge';
  if (BOT_AUTHOR.test(commit.authorName) || BOT_AUTHOR.test(commit.authorEmail)) return 'bot';
  if (commit.files.length === 0) return 'empty';
  if (commit.files.length > maxFiles) return 'too-many-files';
  const names = commit.files.map((f) => basename(f.path).toLowerCase());
  if (names.every((n) => LOCKFILES.has(n))) return 'lockfile-only';
  if (names.every((n) => LOCKFILES.has(n) || CHANGELOG.test(n))) return 'changelog-only';
  if (DEPENDENCY_BUMP_SUBJECT.some((re) => re.test(subject))) return 'dependency-bump';
  if (VERSION_BUMP_SUBJECT.some((re) => re.test(subject))) return 'version-bump';
  if (TYPO_OR_FORMAT_SUBJECT.some((re) => re.test(subject))) return 'typo-or-formatting';
  return null;
}

/**
 * True when a commit should not become a task or an evaluation query: merges, bots
 * (dependabot, renovate, github-actions, ...), release/version and dependency bumps,
 * lockfile- or changelog-only changes, typo/formatting-only commits, and (optionally)
 * commits touching more than `maxFiles` files. See {@link noiseReason} for the reason.
 *
 * @example
 * const useful = commits.filter((c) => !isNoiseCommit(c, { maxFiles: 15 }));
 */
export function isNoiseCommit(commit: CommitLike, options: NoiseCommitOptions = {}): boolean {
  return noiseReason(commit, options) !== null;
}
