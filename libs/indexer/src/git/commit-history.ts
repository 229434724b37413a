import { fileKind } from '@sextant/retrieval';
import type { GitChangeStatus, GitCommit, GitFileChange } from './git-commit';
import { GitCommandError, runGit } from './git-command';

/** Options for {@link readCommitHistory}. */
export interface ReadCommitHistoryOptions {
  /** Only commits after this date (any `git log --since` value). */
  since?: string;
  /** Only commits up to this date (any `git log --until` value). */
  until?: string;
  /** Revision or range to walk, e.g. `HEAD`, `v1.0..main`, a sha (default `HEAD`). */
  rev?: string;
  /** Walk only first parents (mainline history). Default false. */
  firstParent?: boolean;
  /** Oldest first instead of git's newest first (topological order either way). Default false. */
  reverse?: boolean;
  /** Told when the history could be read only in part (e.g. renames found by exact content only). */
  onWarning?: (message: string) => void;
}

const RECORD = '\x1e';
const FIELD = '\x1f';
// Author time as Unix seconds: the stored zone offset is whatever the committer's tool
// wrote (`+51800` exists in the wild) and `%aI` would pass it on as an invalid date.
const FORMAT = `${RECORD}%H${FIELD}%P${FIELD}%an${FIELD}%ae${FIELD}%at${FIELD}%B${FIELD}`;

/**
 * Reads commits with their changed files (renames and copies detected with `-C`), newest first in
 * topological order. Records are split on ASCII control separators and paths come NUL
 * separated (`-z`), so odd messages and file names cannot break parsing.
 *
 * @example
 * const commits = await readCommitHistory('/repo', { since: '2024-01-01' });
 * commits[0].files // [{ status: 'R', oldPath: 'src/a.ts', path: 'src/b.ts' }, ...]
 */
export async function readCommitHistory(repoPath: string, options: ReadCommitHistoryOptions = {}): Promise<GitCommit[]> {
  const { since, until, rev = 'HEAD', firstParent = false, reverse = false, onWarning } = options;
  const logArgs = (renames: string) => {
    const args = ['log', '--encoding=UTF-8', `--format=${FORMAT}`, '--name-status', renames, '-z', '--topo-order'];
    if (firstParent) args.push('--first-parent');
    if (reverse) args.push('--reverse');
    if (since) args.push(`--since=${since}`);
    if (until) args.push(`--until=${until}`);
    args.push(rev, '--');
    return args;
  };
  // -C finds renames (as -M does) and files copied out of a file the same commit changed:
  // a module split in two keeps the history of the module it came from.
  let out: string;
  try {
    out = await runGit(repoPath, logArgs('-C'));
  } catch (err) {
    if (!isMissingObject(err)) throw err;
    // Comparing contents needs every old file's blob; a partial clone or a damaged mirror lacks
    // some. Renames whose content did not change are found from object ids alone, and the rest
    // of the history is still worth having.
    out = await runGit(repoPath, logArgs('-M100%'));
    onWarning?.(`${(err as GitCommandError).stderr.trim().split('\n')[0]}: some file contents of the history are missing (a partial clone or a damaged repository), so only renames that kept a file's content unchanged were followed, and no splits`);
    return parseGitLog(out);
  }
  const commits = parseGitLog(out);
  await keepOnlySplits(repoPath, commits);
  return commits;
}

/** Whether git failed because an object it needed is not in the repository. */
function isMissingObject(err: unknown): boolean {
  return err instanceof GitCommandError && /unable to read|could not read|missing (blob|object)|bad object|promisor/i.test(err.stderr);
}

/** Commits with copies checked by {@link keepOnlySplits}; a history with more keeps its other copies as plain additions. */
const MAX_COPY_COMMITS_CHECKED = 500;

/**
 * Git reports a copy whenever a new file resembles one the commit also changed. That is a
 * split when the source gave the code up (index.js lost 2,498 lines to lib/command.js's
 * 1,810), and a duplicate when it kept it (a mirrored `deno/lib/` tree, a copied test, a
 * locale made from another). Only a split should inherit the source's history, so a copy
 * keeps `copiedFrom` only when its source lost at least half as many lines as the copy has.
 * Text moved out of a document is left out too: old entries archived from `CHANGES` to
 * `CHANGES.old`, or a README section moved into `docs/`, end their history there.
 */
async function keepOnlySplits(repoPath: string, commits: GitCommit[]): Promise<void> {
  const withCopies = commits.filter((c) => c.files.some((f) => f.copiedFrom));
  for (const [i, commit] of withCopies.entries()) {
    const lines = i < MAX_COPY_COMMITS_CHECKED && commit.parents.length === 1 ? await linesChanged(repoPath, commit.parents[0], commit.sha).catch(() => new Map<string, LineCounts>()) : new Map<string, LineCounts>();
    commit.files = commit.files.map((f) => {
      if (!f.copiedFrom) return f;
      const given = lines.get(f.copiedFrom)?.deleted ?? 0;
      const size = lines.get(f.path)?.added ?? Infinity;
      const split = given > 0 && given >= size / 2 && fileKind(f.copiedFrom) !== 'doc';
      return split ? f : { status: f.status, path: f.path };
    });
  }
}

interface LineCounts {
  added: number;
  deleted: number;
}

/** Lines added and deleted per path between two commits, renames and copies not paired (binary files count 0). */
async function linesChanged(repoPath: string, from: string, to: string): Promise<Map<string, LineCounts>> {
  const out = await runGit(repoPath, ['diff', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', from, to, '--']);
  const counts = new Map<string, LineCounts>();
  for (const entry of out.split('\0')) {
    const match = /^(\d+|-)\t(\d+|-)\t([\s\S]+)$/.exec(entry.replace(/^\n+/, ''));
    if (match) counts.set(match[3], { added: Number(match[1]) || 0, deleted: Number(match[2]) || 0 });
  }
  return counts;
}

/** Parses the output of `git log --format=<FORMAT> --name-status -C -z`. Exported for tests. */
export function parseGitLog(out: string): GitCommit[] {
  const commits: GitCommit[] = [];
  for (const record of out.split(RECORD)) {
    if (!record.trim()) continue;
    const fields = record.split(FIELD);
    if (fields.length < 7) throw new Error(`Unparseable git log record: ${JSON.stringify(record.slice(0, 120))}`);
    const [sha, parents, authorName, authorEmail, authorTime] = fields;
    // The message sits between the 5th separator and the last one; paths follow the last.
    // Leading blank lines are dropped as `git log --format=%s` does: tools that write raw commit objects leave them.
    const message = fields.slice(5, -1).join(FIELD).replace(/^\s+/, '');
    const nameStatus = fields[fields.length - 1];
    const newline = message.indexOf('\n');
    const subject = (newline === -1 ? message : message.slice(0, newline)).trim();
    const body = newline === -1 ? '' : message.slice(newline + 1).trim();
    commits.push({
      sha,
      parents: parents.split(' ').filter(Boolean),
      authorName,
      authorEmail,
      date: unixToIso(authorTime),
      subject,
      body,
      files: parseNameStatus(nameStatus),
    });
  }
  return commits;
}

/** Unix seconds as an ISO-8601 UTC date; the epoch when git printed nothing usable. */
function unixToIso(seconds: string): string {
  const ms = Number(seconds) * 1000;
  return new Date(Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : 0).toISOString();
}

/** Parses NUL-separated `--name-status -z` output: `M\0path\0R100\0old\0new\0C075\0src\0copy\0...`. */
export function parseNameStatus(text: string): GitFileChange[] {
  const tokens = text.split('\0');
  const files: GitFileChange[] = [];
  let i = 0;
  while (i < tokens.length) {
    // git puts a newline between the message block and the first status code.
    const code = tokens[i].replace(/^\n+/, '');
    if (!code) {
      i += 1;
      continue;
    }
    const kind = code[0];
    if (kind === 'R' || kind === 'C') {
      const oldPath = tokens[i + 1];
      const path = tokens[i + 2];
      if (oldPath !== undefined && path !== undefined) {
        files.push(kind === 'R' ? { status: 'R', path, oldPath } : { status: 'A', path, copiedFrom: oldPath });
      }
      i += 3;
      continue;
    }
    const path = tokens[i + 1];
    if (path !== undefined && path !== '') files.push({ status: normaliseStatus(kind), path });
    i += 2;
  }
  return files;
}

function normaliseStatus(kind: string): GitChangeStatus {
  if (kind === 'A' || kind === 'D') return kind;
  return 'M'; // M, T (type change), U (unmerged), X
}
