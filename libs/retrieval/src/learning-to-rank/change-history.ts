/**
 * When each file changed, as positions in a workspace's task history (0 = oldest task), so
 * "how often and how lately did this file change before position p" is two binary searches.
 * Training asks it at the position of each held-out task; live searches at the end.
 *
 * @example
 * const h = new ChangeHistory([{ files: ['a.py'] }, { files: ['a.py', 'b.py'] }]);
 * h.changeCount('a.py', 2) // 2
 * h.lastChange('b.py', 1) // null (b.py first changed at position 1)
 */
export class ChangeHistory {
  private readonly positions = new Map<string, number[]>();

  constructor(tasks: ReadonlyArray<{ files: readonly string[] }>) {
    tasks.forEach((t, position) => {
      for (const path of new Set(t.files)) {
        const list = this.positions.get(path);
        if (list) list.push(position);
        else this.positions.set(path, [position]);
      }
    });
    this.size = tasks.length;
  }

  /** How many tasks the history holds. */
  readonly size: number;

  /** Tasks before `before` that touched `path`. */
  changeCount(path: string, before: number = this.size): number {
    const list = this.positions.get(path);
    return list ? lowerBound(list, before) : 0;
  }

  /** Position of the last task before `before` that touched `path`, or null. */
  lastChange(path: string, before: number = this.size): number | null {
    const list = this.positions.get(path);
    if (!list) return null;
    const i = lowerBound(list, before);
    return i > 0 ? list[i - 1] : null;
  }
}

/** First index whose value is >= x in an ascending list. */
function lowerBound(list: readonly number[], x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
