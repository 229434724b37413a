import { tokenize } from '../tokenizer';

/** BM25 parameters of the per-file history profiles. */
const PROFILE_K1 = 1.2;
const PROFILE_B = 0.75;
/** A term's profile evidence reads at most its newest this-many tasks (common words stay cheap). */
const MAX_POSTINGS_PER_TERM = 1000;
/** Characters of a task's text that go into the profiles. */
const PROFILE_TEXT_CHARS = 4000;

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

  private readonly taskFiles: string[][] = [];
  /** Task positions per term of the tasks' texts (when texts were given). */
  private readonly postings = new Map<string, number[]>();
  private readonly meanChanges: number;
  /** Query-term count of each task's text, and their mean (BM25 length normalisation). */
  private readonly textLengths: number[] = [];
  private readonly meanTextLength: number;
  /** Term frequency per posting, parallel to `postings`. */
  private readonly termCounts = new Map<string, number[]>();

  constructor(tasks: ReadonlyArray<{ files: readonly string[]; text?: string }>) {
    let touches = 0;
    let textTotal = 0;
    tasks.forEach((t, position) => {
      const files = [...new Set(t.files)];
      this.taskFiles.push(files);
      touches += files.length;
      for (const path of files) {
        const list = this.positions.get(path);
        if (list) list.push(position);
        else this.positions.set(path, [position]);
      }
      const tokens = t.text ? tokenize(t.text.slice(0, PROFILE_TEXT_CHARS), { removeStopWords: true }) : [];
      this.textLengths.push(tokens.length);
      textTotal += tokens.length;
      const tf = new Map<string, number>();
      for (const term of tokens) tf.set(term, (tf.get(term) ?? 0) + 1);
      for (const [term, count] of tf) {
        const list = this.postings.get(term);
        if (list) {
          list.push(position);
          this.termCounts.get(term)!.push(count);
        } else {
          this.postings.set(term, [position]);
          this.termCounts.set(term, [count]);
        }
      }
    });
    this.size = tasks.length;
    this.meanChanges = this.positions.size ? touches / this.positions.size : 1;
    this.meanTextLength = tasks.length ? Math.max(1, textTotal / tasks.length) : 1;
  }

  /**
   * BM25 of the query terms against each file's *history profile* — the texts of the tasks
   * that touched it before `before` — so a file whose past changes were described with the
   * query's words scores even when no single past task is similar to the query. Returns
   * scores of the files with any evidence.
   *
   * @example
   * new ChangeHistory([{ files: ['a.py'], text: 'fix cookie parsing' }]).profileScores(['cookie'], 1) // Map { 'a.py' => 0.28… }
   */
  profileScores(terms: Iterable<string>, before: number = this.size): Map<string, number> {
    const scores = new Map<string, number>();
    const n = Math.max(1, Math.min(before, this.size));
    for (const term of new Set(terms)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const end = lowerBound(list, before);
      const start = Math.max(0, end - MAX_POSTINGS_PER_TERM);
      const df = end;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const tf = new Map<string, number>();
      for (let i = start; i < end; i++) for (const f of this.taskFiles[list[i]]) tf.set(f, (tf.get(f) ?? 0) + 1);
      for (const [f, count] of tf) {
        const len = this.changeCount(f, before) || 1;
        const norm = count * (PROFILE_K1 + 1) / (count + PROFILE_K1 * (1 - PROFILE_B + (PROFILE_B * len) / this.meanChanges));
        scores.set(f, (scores.get(f) ?? 0) + idf * norm);
      }
    }
    return scores;
  }

  /**
   * Plain BM25 over the texts of the tasks before `before`, OR of the terms: the files of the
   * best `depth` tasks in order of first appearance (the task leg of the BM25 baseline,
   * asked at a point in the history).
   */
  taskBm25Files(terms: Iterable<string>, before: number = this.size, depth = 100): string[] {
    const n = Math.max(1, Math.min(before, this.size));
    const scores = new Map<number, number>();
    for (const term of new Set(terms)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const counts = this.termCounts.get(term)!;
      const end = lowerBound(list, before);
      if (end === 0) continue;
      const idf = Math.log(1 + (n - end + 0.5) / (end + 0.5));
      for (let i = Math.max(0, end - 5 * MAX_POSTINGS_PER_TERM); i < end; i++) {
        const tf = counts[i];
        const len = this.textLengths[list[i]];
        scores.set(list[i], (scores.get(list[i]) ?? 0) + (idf * tf * (PROFILE_K1 + 1)) / (tf + PROFILE_K1 * (1 - PROFILE_B + (PROFILE_B * len) / this.meanTextLength)));
      }
    }
    const top = [...scores.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, depth);
    const files = new Set<string>();
    for (const [position] of top) for (const f of this.taskFiles[position]) files.add(f);
    return [...files];
  }

  /** Share of `partner`'s changes before `before` that also changed `path` (0 when the partner never changed). */
  coChange(path: string, partner: string, before: number = this.size): number {
    const a = this.positions.get(path);
    const b = this.positions.get(partner);
    if (!a || !b || path === partner) return 0;
    const endA = lowerBound(a, before);
    const endB = lowerBound(b, before);
    if (endB === 0) return 0;
    let i = 0;
    let j = 0;
    let both = 0;
    while (i < endA && j < endB) {
      if (a[i] === b[j]) {
        both++;
        i++;
        j++;
      } else if (a[i] < b[j]) i++;
      else j++;
    }
    return both / endB;
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
