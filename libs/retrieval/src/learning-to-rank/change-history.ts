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
  /** The same files as dense ids (scoring loops add into typed arrays instead of maps). */
  private readonly taskFileIds: Int32Array[] = [];
  private readonly fileIds = new Map<string, number>();
  private readonly filePaths: string[] = [];
  /** Change positions per file id (the lists of `positions`, shared). */
  private readonly positionsById: number[][] = [];
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
        else {
          const created = [position];
          this.positions.set(path, created);
          this.fileIds.set(path, this.filePaths.length);
          this.filePaths.push(path);
          this.positionsById.push(created);
        }
      }
      this.taskFileIds.push(Int32Array.from(files, (f) => this.fileIds.get(f)!));
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
    const n = Math.max(1, Math.min(before, this.size));
    const total = new Float64Array(this.filePaths.length);
    const seen = new Uint8Array(this.filePaths.length);
    const touched: number[] = [];
    const tf = new Int32Array(this.filePaths.length);
    const termFiles: number[] = [];
    for (const term of new Set(terms)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const end = lowerBound(list, before);
      const start = Math.max(0, end - MAX_POSTINGS_PER_TERM);
      const df = end;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      termFiles.length = 0;
      for (let i = start; i < end; i++) {
        for (const f of this.taskFileIds[list[i]]) if (tf[f]++ === 0) termFiles.push(f);
      }
      // Files in order of first appearance, as the per-term map this replaces iterated them.
      for (const f of termFiles) {
        const count = tf[f];
        tf[f] = 0;
        const len = lowerBound(this.positionsById[f], before) || 1;
        const norm = (count * (PROFILE_K1 + 1)) / (count + PROFILE_K1 * (1 - PROFILE_B + (PROFILE_B * len) / this.meanChanges));
        total[f] += idf * norm;
        if (!seen[f]) {
          seen[f] = 1;
          touched.push(f);
        }
      }
    }
    const scores = new Map<string, number>();
    for (const f of touched) scores.set(this.filePaths[f], total[f]);
    return scores;
  }

  /**
   * Plain BM25 over the texts of the tasks before `before`, OR of the terms: the files of the
   * best `depth` tasks in order of first appearance (the task leg of the BM25 baseline,
   * asked at a point in the history).
   */
  taskBm25Files(terms: Iterable<string>, before: number = this.size, depth = 100): string[] {
    const n = Math.max(1, Math.min(before, this.size));
    const scores = new Float64Array(this.size);
    const touched: number[] = [];
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
        const position = list[i];
        if (scores[position] === 0) touched.push(position);
        scores[position] += (idf * tf * (PROFILE_K1 + 1)) / (tf + PROFILE_K1 * (1 - PROFILE_B + (PROFILE_B * len) / this.meanTextLength));
      }
    }
    const files = new Set<string>();
    for (const position of topPositions(touched, scores, depth)) for (const f of this.taskFiles[position]) files.add(f);
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
    // Walk the shorter list and look each position up in the longer one: frequently changed
    // files have thousands of positions, and most candidates share few.
    const [short, endShort, long, endLong] = endA <= endB ? [a, endA, b, endB] : [b, endB, a, endA];
    let both = 0;
    let from = 0;
    for (let i = 0; i < endShort; i++) {
      from = lowerBoundFrom(long, short[i], from, endLong);
      if (from < endLong && long[from] === short[i]) both++;
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

/**
 * The `depth` best positions by score (ties: the later position first), best first, without
 * sorting every touched position: a bounded min-heap of the current best.
 */
function topPositions(touched: readonly number[], scores: Float64Array, depth: number): number[] {
  const better = (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && a > b);
  const heap: number[] = [];
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && better(heap[worst], heap[l])) worst = l;
      if (r < heap.length && better(heap[worst], heap[r])) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst], heap[i]];
      i = worst;
    }
  };
  for (const p of touched) {
    if (heap.length < depth) {
      heap.push(p);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!better(heap[parent], heap[i])) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    } else if (depth > 0 && better(p, heap[0])) {
      heap[0] = p;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}

/** First index in [from, end) whose value is >= x in an ascending list. */
function lowerBoundFrom(list: readonly number[], x: number, from: number, end: number): number {
  let lo = from;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
