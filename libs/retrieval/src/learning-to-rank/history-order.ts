/**
 * How much larger the share of indexed files must be in the first quarter of an undated history's
 * tasks than in its last quarter before the history is read as listed newest first. On six
 * commit histories listed oldest first the first quarter's share was 0.01 above the last's at
 * most (starlette) and up to 0.50 below it (jinja); listed newest first, four of the six were
 * 0.06 to 0.50 above (docs/evaluation.md, stop 57).
 */
export const NEWEST_FIRST_MARGIN = 0.05;

/** What {@link checkUndatedOrder} found. */
export interface UndatedOrderCheck {
  /** Share of the files named by the first (supposedly oldest) quarter of the tasks that are indexed today. */
  firstQuarterIndexed: number;
  /** The same for the last (supposedly newest) quarter. */
  lastQuarterIndexed: number;
  /** The first quarter holds clearly more of today's files: the list runs newest first. */
  newestFirst: boolean;
}

/**
 * Whether a task history without dates looks listed newest first (as `git log` prints commits)
 * rather than oldest first. Files are deleted and renamed as a project ages, so its oldest tasks
 * name fewer files that exist today than its newest do. A history that holds no such asymmetry
 * (few files ever deleted) is taken as listed.
 *
 * @example
 * checkUndatedOrder([['new.py'], ['new.py'], ['old.py'], ['gone.py']], new Set(['new.py'])).newestFirst // true
 */
export function checkUndatedOrder(taskFiles: ReadonlyArray<readonly string[]>, indexed: ReadonlySet<string>): UndatedOrderCheck {
  const quarter = Math.max(1, Math.floor(taskFiles.length / 4));
  const share = (tasks: ReadonlyArray<readonly string[]>) => {
    let named = 0;
    let present = 0;
    for (const files of tasks) {
      named += files.length;
      for (const f of files) if (indexed.has(f)) present += 1;
    }
    return named ? present / named : 0;
  };
  const firstQuarterIndexed = share(taskFiles.slice(0, quarter));
  const lastQuarterIndexed = share(taskFiles.slice(-quarter));
  return { firstQuarterIndexed, lastQuarterIndexed, newestFirst: firstQuarterIndexed - lastQuarterIndexed >= NEWEST_FIRST_MARGIN };
}
