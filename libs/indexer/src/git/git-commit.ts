/** How a commit changed one path (copies and type changes are folded into A and M). */
export type GitChangeStatus = 'A' | 'M' | 'D' | 'R';

/** One changed path of a commit. `oldPath` is set for renames, `copiedFrom` for a file git found copied out of another one. */
export interface GitFileChange {
  status: GitChangeStatus;
  path: string;
  oldPath?: string;
  /** Set on an added file (`A`) that git reports as a copy (`C`) of a file this commit also changed, when that file gave up the code: a split. */
  copiedFrom?: string;
}

/** A commit as read by {@link readCommitHistory}. */
export interface GitCommit {
  sha: string;
  /** Parent shas; more than one means a merge commit. */
  parents: string[];
  authorName: string;
  authorEmail: string;
  /** Author date as ISO 8601 in UTC (`2023-04-01T10:00:00.000Z`), whatever zone the commit recorded. */
  date: string;
  /** First line of the message. */
  subject: string;
  /** The rest of the message, trimmed (trailers included; see `stripTrailers`). */
  body: string;
  /** Paths changed against the first parent (empty for merge commits, whose changes live in the merged commits). */
  files: GitFileChange[];
}
