/**
 * How much larger the share of tasks naming a file that is indexed today must be in the first
 * quarter of an undated history than in its last before the history is read as listed newest
 * first. On six commit histories listed oldest first, the first quarter's share was below the
 * last's by 0.003 (starlette) to 0.448 (jinja); listed newest first, it was above by the same,
 * and the four above 0.05 were the ones a backwards ranker hurt (docs/evaluation.md, stop 57).
 */
export const NEWEST_FIRST_MARGIN = 0.05;

/** What {@link checkUndatedOrder} found. */
export interface UndatedOrderCheck {
  /** Share of the first (supposedly oldest) quarter's tasks that name a file indexed today. */
  firstQuarterLive: number;
  /** The same for the last (supposedly newest) quarter. */
  lastQuarterLive: number;
  /** The first quarter holds clearly more tasks about today's files: the list runs newest first. */
  newestFirst: boolean;
}

/**
 * Whether a task history without dates looks listed newest first (as `git log` prints commits)
 * rather than oldest first. Files are deleted and renamed as a project ages, so more of its
 * oldest tasks name only files that are gone (or, written with their paths at the cutoff, no
 * file at all). A history without that asymmetry (few files ever deleted) is taken as listed.
 *
 * @example
 * checkUndatedOrder([['new.py'], ['new.py'], ['old.py'], ['gone.py']], new Set(['new.py'])).newestFirst // true
 */
export function checkUndatedOrder(taskFiles: ReadonlyArray<readonly string[]>, indexed: ReadonlySet<string>): UndatedOrderCheck {
  const quarter = Math.max(1, Math.floor(taskFiles.length / 4));
  const live = (tasks: ReadonlyArray<readonly string[]>) => tasks.filter((files) => files.some((f) => indexed.has(f))).length / Math.max(1, tasks.length);
  const firstQuarterLive = live(taskFiles.slice(0, quarter));
  const lastQuarterLive = live(taskFiles.slice(-quarter));
  return { firstQuarterLive, lastQuarterLive, newestFirst: firstQuarterLive - lastQuarterLive >= NEWEST_FIRST_MARGIN };
}
