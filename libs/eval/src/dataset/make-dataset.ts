import type { EvalDatasetMeta, EvalIssue, EvalQuery, EvalTask } from '@sextant/contracts';
import { fileKind } from '@sextant/retrieval';
import { isGitRepo, noiseReason, pathsAtHead, readCommitHistory, runGit, runGitBuffer, stripTrailers, type GitCommit } from '@sextant/indexer';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { codeMentions, findIdentifiersInCorpus } from './code-mentions';
import { DATASET_FILES, NO_MESSAGE_TITLE, writeDataset } from './dataset-io';

/** Options for {@link makeDataset}. */
export interface MakeDatasetOptions {
  /** The git repository to mine. */
  repoPath: string;
  /** Dataset folder to write (corpus/, tasks.jsonl, queries.jsonl, meta.json). */
  outDir: string;
  /** Cutoff commit: a sha/ref, or an ISO date (last mainline commit at or before it). Default: the mainline commit at 70 % of history. */
  cutoff?: string;
  /** Later commits changing more files than this are not queries (default 15). */
  maxFilesPerQuery?: number;
  /** Later commits whose message (subject + trailer-free body) is shorter are not queries (default 0: keep all). Long messages stand in for issue reports. */
  minQueryChars?: number;
  /** Replace an existing non-empty `corpus/` folder (default false: refuse). */
  overwrite?: boolean;
  /**
   * Issue reports to ask instead of later commits: each issue is a query whose answers are the
   * files its fixing commits modified. Without `cutoff`, the cutoff is the first parent of the
   * oldest fixing commit, so every issue is asked.
   */
  issues?: readonly EvalIssue[];
  /** Keep only code files as answers (no tests, docs or changelogs): the "gold file" of issue evaluations. */
  codeOnly?: boolean;
}

/** What {@link makeDataset} wrote. */
export interface MadeDataset {
  dir: string;
  meta: EvalDatasetMeta;
  tasks: EvalTask[];
  queries: EvalQuery[];
}

interface TreeEntry {
  sha: string;
  size: number;
  path: string;
}

/**
 * Builds an evaluation dataset from a git history (shared/eval/FORMAT.md):
 *
 * - **cutoff**: the given sha/ref, the last first-parent commit at or before the given
 *   ISO date, or by default the first-parent commit 70 % of the way through history.
 * - **corpus/**: every regular file of the cutoff tree, written from git objects
 *   (`ls-tree` + `cat-file --batch`; unlike `git archive` this ignores `export-ignore`).
 *   Symlinks and submodules are skipped.
 * - **tasks.jsonl**: every non-merge commit reachable from the cutoff that changed files:
 *   title = subject, body = message without trailers, files = changed paths (renames
 *   under their new name), `files_at_cutoff` = those paths renamed forward through later
 *   renames up to the cutoff, plus files later copied (split) out of them, keeping only
 *   files present in the corpus.
 * - **queries.jsonl**: commits after the cutoff (`cutoff..HEAD`) that are not noise
 *   (`noiseReason`: merges, bots, version/dependency bumps, typo/formatting-only,
 *   lockfile/changelog-only, more than `maxFilesPerQuery` files). `relevant` = the files
 *   the commit *modified* (status M), mapped back through renames made after the cutoff
 *   to their cutoff path, and kept only when they exist in the corpus; commits left with
 *   none are skipped. query = subject + blank line + trailer-free body.
 * - **issues** (when given): the queries are issue reports instead (title + blank line +
 *   body, id = the issue's id); `relevant` = the files its `fixed_by` commits after the cutoff
 *   modified, mapped as above. Issues whose fixes are not in the repository or all before the
 *   cutoff are skipped (`fix-not-found`, `fixed-before-cutoff`). With `codeOnly`, tests, docs
 *   and changelogs are dropped from `relevant` (issues or commits left with none are skipped).
 * - **type**: `specific` when the query text mentions a code name found in the corpus:
 *   an identifier-like word, a word in backticks, before `(` or in `a.b`, occurring as a
 *   whole word in some corpus file, or a file name/path of a corpus file; else
 *   `conceptual`. This is a lexical approximation (no parsing).
 * - **meta.json**: repo (origin URL, else absolute path), cutoff sha and committer date,
 *   counts (tasks, queries, corpus files, skipped queries by reason, query types), options.
 *
 * Ids are full commit shas.
 *
 * @example
 * const { meta } = await makeDataset({ repoPath: '~/src/flask', outDir: 'datasets/flask' });
 * meta.counts // { tasks: 3120, queries: 412, corpus_files: 230, ... }
 */
export async function makeDataset(options: MakeDatasetOptions): Promise<MadeDataset> {
  const { repoPath, outDir, maxFilesPerQuery = 15, minQueryChars = 0, overwrite = false, issues, codeOnly = false } = options;
  if (!(await isGitRepo(repoPath))) throw new Error(`makeDataset: ${repoPath} is not a git repository`);
  const fixes = issues ? await resolveFixes(repoPath, issues) : null;
  const cutoffSha = options.cutoff || !fixes ? await resolveCutoff(repoPath, options.cutoff) : await cutoffBeforeFixes(repoPath, fixes);
  const cutoffDate = toUtcIso((await runGit(repoPath, ['show', '-s', '--format=%cI', cutoffSha])).trim());

  const tree = await listTree(repoPath, cutoffSha);
  const atCutoff = new Set(tree.map((e) => e.path));
  // The history is read before anything is written, so a history git cannot read leaves no half-made dataset behind.
  const warnings = new Set<string>();
  const onWarning = (message: string) => warnings.add(message);
  const before = await readCommitHistory(repoPath, { rev: cutoffSha, onWarning });
  const after = await readCommitHistory(repoPath, { rev: `${cutoffSha}..HEAD`, reverse: true, onWarning });
  const corpusDir = join(outDir, DATASET_FILES.corpus);
  await prepareCorpusDir(corpusDir, overwrite);
  await writeTree(repoPath, tree, corpusDir);

  const tasks = buildTasks(before, atCutoff);
  const skipped: Record<string, number> = {};
  const count = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const modified = modifiedAtCutoff(after, atCutoff);
  const answers = (files: readonly string[]) => (codeOnly ? files.filter((f) => fileKind(f) === 'source') : [...files]);
  const drafts = (fixes ? issueDrafts(issues!, fixes, modified, count) : commitDrafts(after, modified, maxFilesPerQuery, count))
    .map((d) => ({ ...d, relevant: answers(d.relevant) }))
    .filter((d) => {
      const reason = d.relevant.length === 0 ? (codeOnly ? 'no-modified-code-files' : 'no-modified-cutoff-files') : d.query.length < minQueryChars ? 'short-message' : null;
      if (reason) count(reason);
      return !reason;
    });

  const candidates = new Set<string>();
  const mentions = drafts.map((d) => codeMentions(d.query));
  for (const m of mentions) for (const w of m.identifiers) candidates.add(w);
  const foundIdentifiers = await findIdentifiersInCorpus(corpusDir, tree.map((e) => e.path), candidates);
  const basenames = new Set(tree.map((e) => basename(e.path)));
  const queries: EvalQuery[] = drafts.map((d, i) => {
    const m = mentions[i];
    const specific = m.identifiers.some((w) => foundIdentifiers.has(w)) || m.files.some((f) => atCutoff.has(f) || basenames.has(f));
    return { id: d.id, query: d.query, relevant: d.relevant, type: specific ? 'specific' : 'conceptual' };
  });

  const types: Record<string, number> = {};
  for (const q of queries) types[q.type] = (types[q.type] ?? 0) + 1;
  const meta: EvalDatasetMeta = {
    repo: await describeRepo(repoPath),
    cutoff_sha: cutoffSha,
    cutoff_date: cutoffDate,
    counts: {
      tasks: tasks.length,
      queries: queries.length,
      corpus_files: tree.length,
      commits_before_cutoff: before.length,
      commits_after_cutoff: after.length,
      skipped_queries: skipped,
      query_types: types,
    },
    options: {
      cutoff: options.cutoff ?? null,
      max_files_per_query: maxFilesPerQuery,
      ...(minQueryChars > 0 ? { min_query_chars: minQueryChars } : {}),
      ...(issues ? { issues: issues.length } : {}),
      ...(codeOnly ? { code_only: true } : {}),
    },
    ...(warnings.size ? { warnings: [...warnings] } : {}),
  };
  await writeDataset(outDir, { tasks, queries, meta });
  return { dir: outDir, meta, tasks, queries };
}

/** Title of a past commit written with an empty message (the task still says which files changed together). */

/** Tasks from commits given newest first; renames and splits are followed forward to the cutoff. */
function buildTasks(commitsNewestFirst: readonly GitCommit[], atCutoff: ReadonlySet<string>): EvalTask[] {
  const atHead = pathsAtHead(commitsNewestFirst);
  const tasks: EvalTask[] = [];
  for (const c of commitsNewestFirst) {
    if (c.parents.length <= 1 && c.files.length > 0) {
      const files = [...new Set(c.files.map((f) => f.path))];
      const filesAtCutoff = atHead.get(c.sha)!.filter((p) => atCutoff.has(p));
      tasks.push({ id: c.sha, title: c.subject || NO_MESSAGE_TITLE, body: stripTrailers(c.body), files, files_at_cutoff: filesAtCutoff, created_at: toUtcIso(c.date) });
    }
  }
  return tasks.reverse();
}

interface QueryDraft {
  id: string;
  query: string;
  relevant: string[];
}

/**
 * For each commit given oldest first, the files it *modified* (status M) that exist at the
 * cutoff, under their cutoff paths: later paths are mapped back through renames made after
 * the cutoff, and files born after it are dropped.
 */
function modifiedAtCutoff(commitsOldestFirst: readonly GitCommit[], atCutoff: ReadonlySet<string>): Map<string, string[]> {
  const backward = new Map<string, string | null>(); // current path -> its path at cutoff (null: born after the cutoff)
  const atCutoffPath = (p: string) => (backward.has(p) ? backward.get(p)! : p);
  const out = new Map<string, string[]>();
  for (const c of commitsOldestFirst) {
    const files = c.files
      .filter((f) => f.status === 'M')
      .map((f) => atCutoffPath(f.path))
      .filter((p): p is string => p !== null && atCutoff.has(p));
    out.set(c.sha, [...new Set(files)].sort());
    for (const f of c.files) {
      if (f.status === 'R' && f.oldPath) {
        backward.set(f.path, atCutoffPath(f.oldPath));
        backward.set(f.oldPath, null);
      } else if (f.status === 'A' || f.status === 'D') {
        backward.set(f.path, null);
      }
    }
  }
  return out;
}

/** Query candidates from the later commits that are not noise: their message, and the files they modified. */
function commitDrafts(commitsOldestFirst: readonly GitCommit[], modified: ReadonlyMap<string, string[]>, maxFiles: number, count: (reason: string) => void): QueryDraft[] {
  const drafts: QueryDraft[] = [];
  for (const c of commitsOldestFirst) {
    const reason = c.subject ? noiseReason(c, { maxFiles }) : 'no-message';
    if (reason) count(reason);
    else {
      const body = stripTrailers(c.body);
      drafts.push({ id: c.sha, query: body ? `${c.subject}\n\n${body}` : c.subject, relevant: modified.get(c.sha) ?? [] });
    }
  }
  return drafts;
}

/** Query candidates from issue reports: title and body, and the files their fixing commits after the cutoff modified. */
function issueDrafts(issues: readonly EvalIssue[], fixes: ReadonlyMap<string, string[]>, modified: ReadonlyMap<string, string[]>, count: (reason: string) => void): QueryDraft[] {
  const drafts: QueryDraft[] = [];
  for (const issue of issues) {
    const shas = fixes.get(issue.id) ?? [];
    const after = shas.filter((sha) => modified.has(sha));
    if (!shas.length) count('fix-not-found');
    else if (!after.length) count('fixed-before-cutoff');
    else {
      const body = issue.body.trim();
      drafts.push({ id: issue.id, query: body ? `${issue.title}\n\n${body}` : issue.title, relevant: [...new Set(after.flatMap((sha) => modified.get(sha)!))].sort() });
    }
  }
  return drafts;
}

/** Each issue's fixing commits as full shas; refs that name no commit of the repository are dropped. */
async function resolveFixes(repoPath: string, issues: readonly EvalIssue[]): Promise<Map<string, string[]>> {
  const refs = [...new Set(issues.flatMap((i) => i.fixed_by))];
  const resolved = new Map<string, string>();
  for (const ref of refs) {
    // A leading "-" would be read as an option.
    if (ref.startsWith('-')) continue;
    try {
      const sha = (await runGit(repoPath, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim();
      if (sha) resolved.set(ref, sha);
    } catch {
      // Not a commit here: the issue counts as fix-not-found.
    }
  }
  return new Map(issues.map((i) => [i.id, [...new Set(i.fixed_by.flatMap((r) => (resolved.has(r) ? [resolved.get(r)!] : [])))]]));
}

/** The first parent of the oldest fixing commit (by commit date): the last state no fix had touched. */
async function cutoffBeforeFixes(repoPath: string, fixes: ReadonlyMap<string, string[]>): Promise<string> {
  const shas = [...new Set([...fixes.values()].flat())];
  if (!shas.length) throw new Error('makeDataset: none of the issues\' fixed_by commits is in this repository');
  const dated = await Promise.all(shas.map(async (sha) => ({ sha, time: Number((await runGit(repoPath, ['show', '-s', '--format=%ct', sha])).trim()) })));
  const oldest = dated.sort((a, b) => a.time - b.time || (a.sha < b.sha ? -1 : 1))[0].sha;
  try {
    return (await runGit(repoPath, ['rev-parse', '--verify', '--quiet', `${oldest}^1`])).trim();
  } catch {
    throw new Error(`makeDataset: the oldest fixing commit ${oldest.slice(0, 12)} is the repository's first commit; give --cutoff`);
  }
}

async function resolveCutoff(repoPath: string, cutoff: string | undefined): Promise<string> {
  if (cutoff && /^\d{4}-\d{2}-\d{2}/.test(cutoff)) {
    const sha = (await runGit(repoPath, ['rev-list', '-1', '--first-parent', `--before=${cutoff}`, 'HEAD'])).trim();
    if (!sha) throw new Error(`makeDataset: no commit at or before ${cutoff} in ${repoPath}`);
    return sha;
  }
  if (cutoff) {
    try {
      return (await runGit(repoPath, ['rev-parse', '--verify', '--quiet', `${cutoff}^{commit}`])).trim();
    } catch {
      throw new Error(`makeDataset: cutoff "${cutoff}" is neither a commit in ${repoPath} nor an ISO date (YYYY-MM-DD...)`);
    }
  }
  const mainline = (await runGit(repoPath, ['rev-list', '--first-parent', '--reverse', 'HEAD'])).split('\n').filter(Boolean);
  if (mainline.length === 0) throw new Error(`makeDataset: ${repoPath} has no commits`);
  return mainline[Math.round(0.7 * (mainline.length - 1))];
}

async function listTree(repoPath: string, sha: string): Promise<TreeEntry[]> {
  const out = await runGit(repoPath, ['ls-tree', '-r', '-l', '-z', '--full-tree', sha]);
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, objectSha, size] = record.slice(0, tab).split(/\s+/);
    // Regular and executable files only: symlinks (120000) could point outside the corpus, submodules have no content here.
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755')) continue;
    entries.push({ sha: objectSha, size: Number(size), path: record.slice(tab + 1) });
  }
  return entries;
}

async function prepareCorpusDir(corpusDir: string, overwrite: boolean): Promise<void> {
  if (existsSync(corpusDir) && (await readdir(corpusDir)).length > 0) {
    if (!overwrite) throw new Error(`makeDataset: ${corpusDir} already exists and is not empty (pass overwrite to replace it)`);
    await rm(corpusDir, { recursive: true, force: true });
  }
  await mkdir(corpusDir, { recursive: true });
}

/** Writes blobs via `git cat-file --batch`, in batches of bounded total size. */
async function writeTree(repoPath: string, entries: readonly TreeEntry[], corpusDir: string): Promise<void> {
  const root = resolve(corpusDir);
  const maxBatchBytes = 64 * 1024 * 1024;
  for (let start = 0; start < entries.length; ) {
    let end = start;
    let bytes = 0;
    while (end < entries.length && (end === start || bytes + entries[end].size <= maxBatchBytes)) bytes += entries[end++].size;
    const batch = entries.slice(start, end);
    const out = await runGitBuffer(repoPath, ['cat-file', '--batch'], { input: batch.map((e) => e.sha).join('\n') + '\n', maxBuffer: bytes + batch.length * 128 + 1024 * 1024 });
    let offset = 0;
    for (const entry of batch) {
      const newline = out.indexOf(0x0a, offset);
      const header = out.subarray(offset, newline).toString('utf8').split(' ');
      if (header[1] !== 'blob') throw new Error(`makeDataset: git cat-file could not read ${entry.path} (${header.join(' ')})`);
      const size = Number(header[2]);
      const content = out.subarray(newline + 1, newline + 1 + size);
      offset = newline + 1 + size + 1;
      const target = resolve(root, entry.path);
      if (!target.startsWith(root + '/')) continue; // never write outside the corpus
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    start = end;
  }
}

async function describeRepo(repoPath: string): Promise<string> {
  try {
    const url = (await runGit(repoPath, ['remote', 'get-url', 'origin'])).trim();
    if (url) return url.replace(/\/\/[^@/]+@/, '//'); // drop credentials embedded in https URLs
  } catch {
    // no origin remote
  }
  return resolve(repoPath);
}

function toUtcIso(date: string): string {
  const time = Date.parse(date);
  return Number.isNaN(time) ? date : new Date(time).toISOString().replace(/\.000Z$/, 'Z');
}
