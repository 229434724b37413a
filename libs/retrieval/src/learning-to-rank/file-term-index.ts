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
  private readonly paths: string[] = [];
  private readonly termIds = new Map<string, number>();
  /** Term `i` occurs in the files `postingDocs[termStart[i] .. termStart[i + 1])`, scoring `postingScores` there. */
  private readonly termStart: Int32Array;
  private readonly postingDocs: Int32Array;
  private readonly postingScores: Float64Array;
  /** A search's per-file sums, reset after each one (searches are synchronous). */
  private readonly scratch: Float64Array;
  /** Each file's place in path order (equal scores rank the smaller path first). */
  private readonly pathOrder: Int32Array;

  constructor(files: Iterable<{ path: string; text: string }>) {
    const termDocs: number[][] = [];
    const termTfs: number[][] = [];
    const lengths: number[] = [];
    let total = 0;
    let counts = new Int32Array(1024);
    const seen: number[] = [];
    for (const file of files) {
      const doc = this.paths.length;
      let length = 0;
      visitTokens(`${file.path}\n${file.text}`, (token) => {
        length += 1;
        let id = this.termIds.get(token);
        if (id === undefined) {
          id = termDocs.length;
          this.termIds.set(token, id);
          termDocs.push([]);
          termTfs.push([]);
          if (id >= counts.length) {
            const grown = new Int32Array(counts.length * 2);
            grown.set(counts);
            counts = grown;
          }
        }
        if (counts[id]++ === 0) seen.push(id);
      });
      for (const id of seen) {
        termDocs[id].push(doc);
        termTfs[id].push(counts[id]);
        counts[id] = 0;
      }
      seen.length = 0;
      this.paths.push(file.path);
      lengths.push(length);
      total += length;
    }
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
}
