import { visitTokens } from '../tokenizer';
import { topByScore } from './sorted-arrays';

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 over whole files, in memory: one document per file (its path and text), so a file
 * that covers many of a query's terms across its functions scores as a whole — what chunk
 * search misses and plain whole-file BM25 gets right. The learned ranker reads it as a
 * feature and a candidate source.
 *
 * A posting holds its finished BM25 term score (idf and length normalisation do not depend on
 * the query), so a search only adds them up.
 *
 * @example
 * const index = new FileTermIndex([{ path: 'lib/cookie.js', text: 'function parseCookie() {}' }]);
 * index.search(['cookie'], 10) // [{ path: 'lib/cookie.js', score: 0.28… }]
 */
export class FileTermIndex {
  private readonly paths: string[];
  private readonly termIds: Map<string, number>;
  /** Term `i` occurs in the files `postingDocs[termStart[i] .. termStart[i + 1])`, scoring `postingScores` there. */
  private readonly termStart: Int32Array;
  private readonly postingDocs: Int32Array;
  private readonly postingScores: Float64Array;
  /** A search's per-file sums, reset after each one (searches are synchronous). */
  private readonly scratch: Float64Array;
  /** Each file's place in path order (equal scores rank the smaller path first). */
  private readonly pathOrder: Int32Array;
  /** Path -> doc id, built when first asked ({@link docIdsByPath}). */
  private docIds: Map<string, number> | undefined;
  /** Tokens per file (path and text). */
  private readonly lengths: Int32Array;

  /** From the files themselves, or from {@link FileTermCounts} a caller filled one file at a time (e.g. between reads). */
  constructor(files: Iterable<{ path: string; text: string }> | FileTermCounts) {
    let counts = files;
    if (!(counts instanceof FileTermCounts)) {
      counts = new FileTermCounts();
      for (const file of files as Iterable<{ path: string; text: string }>) counts.add(file.path, file.text);
    }
    const { termDocs, termTfs, lengths, total } = counts;
    this.paths = counts.paths;
    this.termIds = counts.termIds;
    const n = this.paths.length;
    const meanLength = n ? total / n : 1;
    this.termStart = new Int32Array(termDocs.length + 1);
    for (let t = 0; t < termDocs.length; t++) this.termStart[t + 1] = this.termStart[t] + termDocs[t].length;
    this.postingDocs = new Int32Array(this.termStart[termDocs.length]);
    this.postingScores = new Float64Array(this.postingDocs.length);
    for (let t = 0; t < termDocs.length; t++) {
      const docs = termDocs[t];
      const idf = Math.log(1 + (n - docs.length + 0.5) / (docs.length + 0.5));
      for (let i = 0, p = this.termStart[t]; i < docs.length; i++, p++) {
        const tf = termTfs[t][i];
        this.postingDocs[p] = docs[i];
        this.postingScores[p] = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[docs[i]]) / meanLength));
      }
    }
    this.lengths = Int32Array.from(lengths);
    this.scratch = new Float64Array(n);
    this.pathOrder = new Int32Array(n);
    this.paths
      .map((_, doc) => doc)
      .sort((a, b) => (this.paths[a] < this.paths[b] ? -1 : this.paths[a] > this.paths[b] ? 1 : 0))
      .forEach((doc, place) => (this.pathOrder[doc] = place));
  }

  /** How many files are indexed. */
  get size(): number {
    return this.paths.length;
  }

  /** Whether any file holds the term (in its path or text). */
  hasTerm(term: string): boolean {
    return this.termIds.has(term);
  }

  /** The `k` best files for the OR of the terms, best first (ties by path). */
  search(terms: Iterable<string>, k: number): Array<{ path: string; score: number }> {
    const scores = this.scratch;
    const touched: number[] = [];
    for (const term of new Set(terms)) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      for (let p = this.termStart[t]; p < this.termStart[t + 1]; p++) {
        const doc = this.postingDocs[p];
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] += this.postingScores[p];
      }
    }
    const best = topByScore(touched, scores, k, (doc) => this.pathOrder[doc]).map((doc) => ({ path: this.paths[doc], score: scores[doc] }));
    for (const doc of touched) scores[doc] = 0;
    return best;
  }

  /** Tokens in each file, path included (0 for unknown paths). */
  tokenCounts(paths: readonly string[]): Float64Array {
    const docIds = this.docIdsByPath();
    return Float64Array.from(paths, (path) => {
      const doc = docIds.get(path);
      return doc === undefined ? 0 : this.lengths[doc];
    });
  }

  /**
   * For each path, the share of the query terms' idf mass that occurs in the file (terms the
   * index has never seen do not count; 0 for unknown paths): how much of the query a file
   * covers at all, which a sum of BM25 parts dominated by one frequent term hides.
   */
  coverage(terms: Iterable<string>, paths: readonly string[]): Float64Array {
    const out = new Float64Array(paths.length);
    const docIds = this.docIdsByPath();
    const marks = this.scratch;
    const slots: number[] = [];
    paths.forEach((path, i) => {
      const doc = docIds.get(path);
      // Slot i + 1 in the (zeroed) scratch: 0 means "not a candidate".
      if (doc !== undefined && marks[doc] === 0) {
        marks[doc] = i + 1;
        slots.push(doc);
      }
    });
    const n = this.paths.length;
    let total = 0;
    for (const term of new Set(terms)) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      const df = this.termStart[t + 1] - this.termStart[t];
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      total += idf;
      for (let p = this.termStart[t]; p < this.termStart[t + 1]; p++) {
        const slot = marks[this.postingDocs[p]];
        if (slot > 0) out[slot - 1] += idf;
      }
    }
    for (const doc of slots) marks[doc] = 0;
    if (total > 0) for (let i = 0; i < out.length; i++) out[i] /= total;
    // A path listed twice: its later copies get the first one's value.
    paths.forEach((path, i) => {
      const doc = docIds.get(path);
      if (doc !== undefined && out[i] === 0) out[i] = out[paths.indexOf(path)];
    });
    return out;
  }

  private docIdsByPath(): Map<string, number> {
    this.docIds ??= new Map(this.paths.map((p, doc) => [p, doc]));
    return this.docIds;
  }
}

/**
 * Term counts of files added one at a time, for a {@link FileTermIndex}: a caller that reads
 * thousands of files tokenizes each as it arrives, so no single step holds the event loop.
 */
export class FileTermCounts {
  readonly paths: string[] = [];
  readonly termIds = new Map<string, number>();
  readonly termDocs: number[][] = [];
  readonly termTfs: number[][] = [];
  readonly lengths: number[] = [];
  total = 0;
  private counts = new Int32Array(1024);
  private readonly seen: number[] = [];

  add(path: string, text: string): void {
    const doc = this.paths.length;
    let length = 0;
    visitTokens(`${path}\n${text}`, (token) => {
      length += 1;
      let id = this.termIds.get(token);
      if (id === undefined) {
        id = this.termDocs.length;
        this.termIds.set(token, id);
        this.termDocs.push([]);
        this.termTfs.push([]);
        if (id >= this.counts.length) {
          const grown = new Int32Array(this.counts.length * 2);
          grown.set(this.counts);
          this.counts = grown;
        }
      }
      if (this.counts[id]++ === 0) this.seen.push(id);
    });
    for (const id of this.seen) {
      this.termDocs[id].push(doc);
      this.termTfs[id].push(this.counts[id]);
      this.counts[id] = 0;
    }
    this.seen.length = 0;
    this.paths.push(path);
    this.lengths.push(length);
    this.total += length;
  }
}
