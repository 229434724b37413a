import type { GitCommit, GitFileChange } from './git-commit';

/** A unit of work from history: one merged pull request, or one commit made outside a PR. */
export interface HistoryTask {
  /** The merge commit sha for a PR, else the commit's sha. */
  id: string;
  /** PR number parsed from "Merge pull request #N", when there is one. */
  pullRequest?: number;
  title: string;
  body: string;
  /** When the work landed (merge date for a PR). */
  date: string;
  authorName: string;
  authorEmail: string;
  /** Shas of the commits in this task (for a PR, the branch commits, without the merge). */
  commits: string[];
  /** Changed paths of all commits, last change per path wins. */
  files: GitFileChange[];
}

const MERGE_PR = /^Merge pull request #(\d+)\b/;

/**
 * Groups the commits of merged pull requests into one task each, using merge commits
 * whose message reads "Merge pull request #N from ...": the PR's commits are those
 * reachable from the merge's second parent that are neither on the first-parent mainline
 * nor already claimed by an older PR. The PR title is the merge message's body (GitHub
 * puts it there), else the first branch commit's subject. Every other non-merge commit
 * becomes a task of its own; other merge commits are dropped (their changes live in
 * their commits). Squash-merged PRs are ordinary commits already.
 * Input is `readCommitHistory` output (any order); output is newest first.
 *
 * @example
 * const tasks = mergePullRequests(await readCommitHistory(repo));
 * tasks[0] // { id: '<merge sha>', pullRequest: 42, title: 'Add OAuth login', files: [...], commits: [...] }
 */
export function mergePullRequests(commits: readonly GitCommit[]): HistoryTask[] {
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  const order = new Map(commits.map((c, i) => [c.sha, i]));
  const children = new Set(commits.flatMap((c) => c.parents));
  const mainline = new Set<string>();
  for (const tip of commits.filter((c) => !children.has(c.sha))) {
    for (let c: GitCommit | undefined = tip; c && !mainline.has(c.sha); c = bySha.get(c.parents[0] ?? '')) mainline.add(c.sha);
  }

  const claimed = new Map<string, string>(); // commit sha -> merge sha
  const groups = new Map<string, GitCommit[]>();
  // Oldest merges first, so a later merge never claims an earlier PR's commits.
  const merges = commits.filter((c) => c.parents.length > 1 && MERGE_PR.test(c.subject)).sort(byAge(order));
  for (const merge of merges) {
    const members: GitCommit[] = [];
    const stack = [merge.parents[1]];
    const seen = new Set<string>();
    while (stack.length) {
      const sha = stack.pop()!;
      if (seen.has(sha) || mainline.has(sha) || claimed.has(sha)) continue;
      seen.add(sha);
      const c = bySha.get(sha);
      if (!c) continue;
      if (c.parents.length <= 1) members.push(c);
      stack.push(...c.parents);
    }
    for (const m of members) claimed.set(m.sha, merge.sha);
    groups.set(merge.sha, members);
  }

  const tasks: HistoryTask[] = [];
  for (const c of commits) {
    if (groups.has(c.sha)) {
      const members = groups.get(c.sha)!.sort(byAge(order));
      if (members.length === 0) continue;
      const prTitle = c.body.split('\n')[0]?.trim();
      tasks.push({
        id: c.sha,
        pullRequest: Number(MERGE_PR.exec(c.subject)![1]),
        title: prTitle || members[0].subject,
        body: [c.body.split('\n').slice(1).join('\n').trim(), ...members.map((m) => `${m.subject}\n${m.body}`.trim())].filter(Boolean).join('\n\n'),
        date: c.date,
        authorName: members[0].authorName,
        authorEmail: members[0].authorEmail,
        commits: members.map((m) => m.sha),
        files: unionChanges(members),
      });
    } else if (c.parents.length <= 1 && !claimed.has(c.sha)) {
      tasks.push({ id: c.sha, title: c.subject, body: c.body, date: c.date, authorName: c.authorName, authorEmail: c.authorEmail, commits: [c.sha], files: c.files });
    }
  }
  return tasks;
}

/** Sorts oldest first given git's newest-first positions. */
function byAge(order: Map<string, number>) {
  return (a: GitCommit, b: GitCommit) => (order.get(b.sha) ?? 0) - (order.get(a.sha) ?? 0);
}

/** Changes of several commits (oldest first) with the last status per path winning and renames chained. */
function unionChanges(members: readonly GitCommit[]): GitFileChange[] {
  const byPath = new Map<string, GitFileChange>();
  for (const m of members) {
    for (const f of m.files) {
      if (f.status === 'R' && f.oldPath && byPath.has(f.oldPath)) {
        const prev = byPath.get(f.oldPath)!;
        byPath.delete(f.oldPath);
        byPath.set(f.path, prev.status === 'A' ? { status: 'A', path: f.path } : { status: 'R', path: f.path, oldPath: prev.oldPath ?? f.oldPath });
      } else {
        byPath.set(f.path, f);
      }
    }
  }
  return [...byPath.values()];
}
