import { tokenize } from '../tokenizer';
import { ROUTINE_MIN_FAMILY, ROUTINE_WINDOW, changeTemplate, type RoutineChanges } from './routine-changes';
import { HistoryProfile } from './history-profile';
import { lowerBound, topByScore } from './sorted-arrays';

/** BM25 parameters of the per-file history profiles. */
const PROFILE_K1 = 1.2;
const PROFILE_B = 0.75;
/** A term's profile evidence reads at most its newest this-many tasks (common words stay cheap). */
const MAX_POSTINGS_PER_TERM = 1000;
/** Characters of a task's text that go into the profiles. */
const PROFILE_TEXT_CHARS = 4000;
/** Entries (8-12 bytes each) of the per-term scores kept for live searches, per kind (at most ~10 MB a workspace). */
const MAX_CACHED_TERM_ENTRIES = 1 << 19;

/** One term's files and its BM25 part of each one's profile score. */
interface TermProfile {
  files: Int32Array;
  scores: Float64Array;
}

/**
 * When each file changed, as positions in a workspace's task history (0 = oldest task), so
 * "how often and how lately did this file change before position p" is two binary searches.
 * Training asks it at the position of each held-out task; live searches at the end.
 *
 * Everything is held in flat typed arrays (per file: its change positions; per task: its
 * files; per term: its tasks and term counts), so a query's scoring loops read contiguous
 * memory and allocate little.
 *
 * @example
 * const h = new ChangeHistory([{ files: ['a.py'] }, { files: ['a.py', 'b.py'] }]);
 * h.changeCount('a.py', 2) // 2
 * h.lastChange('b.py', 1) // null (b.py first changed at position 1)
 */
export class ChangeHistory {
  /** How many tasks the history holds. */
  readonly size: number;

  private readonly fileIds = new Map<string, number>();
  private readonly filePaths: string[] = [];
  /** File `f` changed at positions `changePositions[changeStart[f] .. changeStart[f + 1])`, ascending. */
  private readonly changeStart: Int32Array;
  private readonly changePositions: Int32Array;
  /** Task `t` touched the file ids `taskFileIds[taskFileStart[t] .. taskFileStart[t + 1])`, in its own order, each once. */
  private readonly taskFileStart: Int32Array;
  private readonly taskFileIds: Int32Array;
  /** Term `i` (of `termIds`) occurs in the tasks `postingTasks[termStart[i] .. termStart[i + 1])` (ascending), `postingCounts` times each. */
  private readonly termIds = new Map<string, number>();
  private readonly termStart: Int32Array;
  private readonly postingTasks: Int32Array;
  private readonly postingCounts: Int32Array;
  private readonly meanChanges: number;
  /** Query-term count of each task's text, and their mean (BM25 length normalisation). */
  private readonly textLengths: Int32Array;
  private readonly meanTextLength: number;
  /** Per-query accumulators, reset after each use (the scoring methods are synchronous); a profile keeps its sums. */
  private fileScratch: Float64Array;
  private readonly fileCounts: Int32Array;
  private readonly taskScratch: Float64Array;
  private readonly taskMarks: Uint8Array;
  /** Per-term parts of the scores at the end of the history (what live searches ask), kept for the next query with the term. */
  private readonly liveProfiles = new TermCache<TermProfile>((p) => p.files.length);
  private readonly liveTaskScores = new TermCache<Float64Array>((s) => s.length);
  private pathOrderCache: Int32Array | undefined;
  /** Positions (ascending) of the tasks sharing each {@link changeTemplate} of their title. */
  private readonly templatePositions = new Map<string, number[]>();

  /** `title` (the subject, a commit's first line) groups routine changes; `text` (title and body) feeds the profiles and task BM25. */
  constructor(tasks: ReadonlyArray<{ files: readonly string[]; text?: string; title?: string }>) {
    const positions: number[][] = [];
    const taskFiles: number[] = [];
    const taskFileStart = new Int32Array(tasks.length + 1);
    const termTasks: number[][] = [];
    const termCounts: number[][] = [];
    this.textLengths = new Int32Array(tasks.length);
    let textTotal = 0;
    const tf = new Map<string, number>();
    tasks.forEach((t, position) => {
      for (const path of new Set(t.files)) {
        let id = this.fileIds.get(path);
        if (id === undefined) {
          id = this.filePaths.length;
          this.fileIds.set(path, id);
          this.filePaths.push(path);
          positions.push([]);
        }
        positions[id].push(position);
        taskFiles.push(id);
      }
      taskFileStart[position + 1] = taskFiles.length;
      const template = t.title ? changeTemplate(t.title) : '';
      if (template) {
        const family = this.templatePositions.get(template);
        if (family) family.push(position);
        else this.templatePositions.set(template, [position]);
      }
      const tokens = t.text ? tokenize(t.text.slice(0, PROFILE_TEXT_CHARS), { removeStopWords: true }) : [];
      this.textLengths[position] = tokens.length;
      textTotal += tokens.length;
      tf.clear();
      for (const term of tokens) tf.set(term, (tf.get(term) ?? 0) + 1);
      for (const [term, count] of tf) {
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = termTasks.length;
          this.termIds.set(term, id);
          termTasks.push([]);
          termCounts.push([]);
        }
        termTasks[id].push(position);
        termCounts[id].push(count);
      }
    });
    this.size = tasks.length;
    this.taskFileStart = taskFileStart;
    this.taskFileIds = Int32Array.from(taskFiles);
    [this.changeStart, this.changePositions] = flatten(positions);
    [this.termStart, this.postingTasks] = flatten(termTasks);
    this.postingCounts = flatten(termCounts)[1];
    this.meanChanges = positions.length ? taskFiles.length / positions.length : 1;
    this.meanTextLength = tasks.length ? Math.max(1, textTotal / tasks.length) : 1;
    this.fileScratch = new Float64Array(this.filePaths.length);
    this.fileCounts = new Int32Array(this.filePaths.length);
    this.taskScratch = new Float64Array(tasks.length);
    this.taskMarks = new Uint8Array(tasks.length);
  }

  /** Whether any past task's text (title and body) holds the term. */
  hasTerm(term: string): boolean {
    return this.termIds.has(term);
  }

  /**
   * BM25 of the query terms against each file's *history profile* — the texts of the tasks
   * that touched it before `before` — so a file whose past changes were described with the
   * query's words scores even when no single past task is similar to the query. Holds the
   * scores of the files with any evidence, their ranking and the best.
   *
   * @example
   * new ChangeHistory([{ files: ['a.py'], text: 'fix cookie parsing' }]).profile(['cookie'], 1).score('a.py') // 0.28…
   */
  profile(terms: Iterable<string>, before: number = this.size): HistoryProfile {
    const total = this.fileScratch;
    const touched: number[] = [];
    for (const term of new Set(terms)) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const { files, scores } = before >= this.size ? this.liveProfiles.get(id, () => this.termProfile(id, this.size)) : this.termProfile(id, before);
      for (let i = 0; i < files.length; i++) {
        const f = files[i];
        // A file's first evidence is never 0 (idf and norm are positive): 0 marks "not touched yet".
        if (total[f] === 0) touched.push(f);
        total[f] += scores[i];
      }
    }
    // The sums become the profile's: the next query starts from fresh zeros.
    this.fileScratch = new Float64Array(this.filePaths.length);
    return new HistoryProfile(touched, total, this.filePaths, this.fileIds, this.pathOrder());
  }

  /** The files whose profile contains the term before `before`, each with the term's BM25 part of its score. */
  private termProfile(term: number, before: number): TermProfile {
    const n = Math.max(1, Math.min(before, this.size));
    const from = this.termStart[term];
    const end = lowerBound(this.postingTasks, before, from, this.termStart[term + 1]);
    const df = end - from;
    if (df === 0) return { files: new Int32Array(0), scores: new Float64Array(0) };
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const tf = this.fileCounts;
    const termFiles: number[] = [];
    for (let i = Math.max(from, end - MAX_POSTINGS_PER_TERM); i < end; i++) {
      const task = this.postingTasks[i];
      for (let j = this.taskFileStart[task]; j < this.taskFileStart[task + 1]; j++) {
        const f = this.taskFileIds[j];
        if (tf[f]++ === 0) termFiles.push(f);
      }
    }
    const files = new Int32Array(termFiles);
    const scores = new Float64Array(files.length);
    for (let i = 0; i < files.length; i++) {
      const f = files[i];
      const count = tf[f];
      tf[f] = 0;
      const len = this.changesBefore(f, before) || 1;
      const norm = (count * (PROFILE_K1 + 1)) / (count + PROFILE_K1 * (1 - PROFILE_B + (PROFILE_B * len) / this.meanChanges));
      scores[i] = idf * norm;
    }
    return { files, scores };
  }

  /** Each file id's place in path order (ties between equal scores go to the smaller path). */
  private pathOrder(): Int32Array {
    if (!this.pathOrderCache) {
      const byPath = this.filePaths.map((_, i) => i).sort((a, b) => (this.filePaths[a] < this.filePaths[b] ? -1 : 1));
      this.pathOrderCache = new Int32Array(byPath.length);
      byPath.forEach((file, place) => (this.pathOrderCache![file] = place));
    }
    return this.pathOrderCache;
  }

  /**
   * Plain BM25 over the texts of the tasks before `before`, OR of the terms: the files of the
   * best `depth` tasks in order of first appearance (the task leg of the BM25 baseline,
   * asked at a point in the history).
   */
  taskBm25Files(terms: Iterable<string>, before: number = this.size, depth = 100): string[] {
    return this.taskBm25Evidence(terms, before, depth).files;
  }

  /**
   * {@link taskBm25Files} with each file's vote: the sum, over the best `depth` tasks that
   * touched it, of the task's score relative to the best task's, divided by the square root of
   * the task's file count (a focused similar change says more than a sweeping one), and its
   * best relative task score.
   */
  taskBm25Evidence(terms: Iterable<string>, before: number = this.size, depth = 100): { files: string[]; votes: Map<string, number>; best: Map<string, number> } {
    const scores = this.taskScratch;
    const touched: number[] = [];
    for (const term of new Set(terms)) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const end = lowerBound(this.postingTasks, before, this.termStart[id], this.termStart[id + 1]);
      const parts = before >= this.size ? this.liveTaskScores.get(id, () => this.termTaskScores(id, this.size)) : this.termTaskScores(id, before);
      for (let i = end - parts.length, k = 0; i < end; i++, k++) {
        const position = this.postingTasks[i];
        if (scores[position] === 0) touched.push(position);
        scores[position] += parts[k];
      }
    }
    // Ties: the later task first.
    const top = topByScore(touched, scores, depth, (position) => -position);
    const max = top.length ? scores[top[0]] : 0;
    const votes = new Map<string, number>();
    const best = new Map<string, number>();
    for (const position of top) {
      const share = scores[position] / max;
      const from = this.taskFileStart[position];
      const to = this.taskFileStart[position + 1];
      const vote = share / Math.sqrt(Math.max(1, to - from));
      for (let j = from; j < to; j++) {
        const path = this.filePaths[this.taskFileIds[j]];
        votes.set(path, (votes.get(path) ?? 0) + vote);
        // Tasks come best first: the first share a file sees is its best.
        if (!best.has(path)) best.set(path, share);
      }
    }
    for (const position of touched) scores[position] = 0;
    return { files: [...best.keys()], votes, best };
  }

  /** The term's BM25 score in each of its newest tasks before `before` (oldest first, ending at the last such task). */
  private termTaskScores(term: number, before: number): Float64Array {
    const n = Math.max(1, Math.min(before, this.size));
    const from = this.termStart[term];
    const end = lowerBound(this.postingTasks, before, from, this.termStart[term + 1]);
    const df = end - from;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const start = Math.max(from, end - 5 * MAX_POSTINGS_PER_TERM);
    const scores = new Float64Array(end - start);
    for (let i = start; i < end; i++) {
      const tf = this.postingCounts[i];
      const len = this.textLengths[this.postingTasks[i]];
      scores[i - start] = (idf * tf * (PROFILE_K1 + 1)) / (tf + PROFILE_K1 * (1 - PROFILE_B + (PROFILE_B * len) / this.meanTextLength));
    }
    return scores;
  }

  /**
   * What the newest changes with the query's template touched: for each file, how many of the
   * last {@link ROUTINE_WINDOW} same-template tasks before `before` changed it. Null unless at
   * least {@link ROUTINE_MIN_FAMILY} such tasks exist (a template seen once or twice is not a routine).
   *
   * @example
   * const h = new ChangeHistory(['0.1', '0.2', '0.3'].map((v) => ({ title: `Version ${v}`, files: ['CHANGES.md', 'pkg/__init__.py'] })));
   * h.routineChanges('version <n>')?.touched.get('CHANGES.md') // 3 (window 3)
   */
  routineChanges(template: string, before: number = this.size): RoutineChanges | null {
    const family = template ? this.templatePositions.get(template) : undefined;
    if (!family) return null;
    const end = lowerBound(family, before, 0, family.length);
    if (end < ROUTINE_MIN_FAMILY) return null;
    const from = Math.max(0, end - ROUTINE_WINDOW);
    const touched = new Map<string, number>();
    for (let k = from; k < end; k++) {
      const task = family[k];
      for (let j = this.taskFileStart[task]; j < this.taskFileStart[task + 1]; j++) {
        const path = this.filePaths[this.taskFileIds[j]];
        touched.set(path, (touched.get(path) ?? 0) + 1);
      }
    }
    return { template, window: end - from, touched };
  }

  /** Share of `partner`'s changes before `before` that also changed `path` (0 when the partner never changed). */
  coChange(path: string, partner: string, before: number = this.size): number {
    const a = this.fileIds.get(path);
    const b = this.fileIds.get(partner);
    if (a === undefined || b === undefined || a === b) return 0;
    const startA = this.changeStart[a];
    const startB = this.changeStart[b];
    const endA = lowerBound(this.changePositions, before, startA, this.changeStart[a + 1]);
    const endB = lowerBound(this.changePositions, before, startB, this.changeStart[b + 1]);
    if (endB === startB) return 0;
    // Walk the shorter list and look each position up in the longer one: frequently changed
    // files have thousands of positions, and most candidates share few.
    const aShorter = endA - startA <= endB - startB;
    const shortEnd = aShorter ? endA : endB;
    const longEnd = aShorter ? endB : endA;
    const list = this.changePositions;
    let both = 0;
    let from = aShorter ? startB : startA;
    for (let i = aShorter ? startA : startB; i < shortEnd; i++) {
      from = lowerBound(list, list[i], from, longEnd);
      if (from < longEnd && list[from] === list[i]) both++;
    }
    return both / (endB - startB);
  }

  /**
   * For each path, its largest {@link coChange} with any of the partners: each partner's changes
   * are marked once, then each path's changes are looked up in the marks.
   */
  coChangeTop(paths: readonly string[], partners: readonly string[], before: number = this.size): Float64Array {
    const top = new Float64Array(paths.length);
    const ids = paths.map((p) => this.fileIds.get(p));
    const marks = this.taskMarks;
    const list = this.changePositions;
    for (const partner of partners) {
      const b = this.fileIds.get(partner);
      if (b === undefined) continue;
      const startB = this.changeStart[b];
      const endB = lowerBound(list, before, startB, this.changeStart[b + 1]);
      if (endB === startB) continue;
      for (let i = startB; i < endB; i++) marks[list[i]] = 1;
      for (let k = 0; k < paths.length; k++) {
        const a = ids[k];
        if (a === undefined || a === b) continue;
        let share: number;
        // A file changed far more often than the partner: look the partner's changes up in its list instead.
        if (this.changeStart[a + 1] - this.changeStart[a] > 8 * (endB - startB)) share = this.coChange(paths[k], partner, before);
        else {
          let both = 0;
          for (let i = this.changeStart[a]; i < this.changeStart[a + 1] && list[i] < before; i++) both += marks[list[i]];
          share = both / (endB - startB);
        }
        if (share > top[k]) top[k] = share;
      }
      for (let i = startB; i < endB; i++) marks[list[i]] = 0;
    }
    return top;
  }

  /** Tasks before `before` that touched `path`. */
  changeCount(path: string, before: number = this.size): number {
    const id = this.fileIds.get(path);
    return id === undefined ? 0 : this.changesBefore(id, before);
  }

  /** Position of the last task before `before` that touched `path`, or null. */
  lastChange(path: string, before: number = this.size): number | null {
    const id = this.fileIds.get(path);
    if (id === undefined) return null;
    const start = this.changeStart[id];
    const end = lowerBound(this.changePositions, before, start, this.changeStart[id + 1]);
    return end > start ? this.changePositions[end - 1] : null;
  }

  private changesBefore(file: number, before: number): number {
    const start = this.changeStart[file];
    return lowerBound(this.changePositions, before, start, this.changeStart[file + 1]) - start;
  }
}

/** Per-term values, least recently used evicted first once they hold more than {@link MAX_CACHED_TERM_ENTRIES} entries. */
class TermCache<T> {
  private readonly values = new Map<number, T>();
  private entries = 0;

  constructor(private readonly sizeOf: (value: T) => number) {}

  get(term: number, compute: () => T): T {
    let value = this.values.get(term);
    if (value !== undefined) {
      // Most recently used last.
      this.values.delete(term);
    } else {
      value = compute();
      this.entries += this.sizeOf(value);
      for (const [old, evicted] of this.values) {
        if (this.entries <= MAX_CACHED_TERM_ENTRIES) break;
        this.values.delete(old);
        this.entries -= this.sizeOf(evicted);
      }
    }
    this.values.set(term, value);
    return value;
  }
}

/** Lists -> one array of their items and where each list starts (list `i` is `items[start[i] .. start[i + 1])`). */
function flatten(lists: readonly number[][]): [Int32Array, Int32Array] {
  const start = new Int32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) start[i + 1] = start[i] + lists[i].length;
  const items = new Int32Array(start[lists.length]);
  for (let i = 0; i < lists.length; i++) items.set(lists[i], start[i]);
  return [start, items];
}
