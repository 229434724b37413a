import { tokenize } from '../tokenizer';

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 over whole files, in memory: one document per file (its path and text), so a file
 * that covers many of a query's terms across its functions scores as a whole — what chunk
 * search misses and plain whole-file BM25 gets right. The learned ranker reads it as a
 * feature and a candidate source.
 *
 * @example
 * const index = new FileTermIndex([{ path: 'lib/cookie.js', text: 'function parseCookie() {}' }]);
 * index.search(['cookie'], 10) // [{ path: 'lib/cookie.js', score: 0.28… }]
 */
export class FileTermIndex {
  private readonly paths: string[] = [];
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly meanLength: number;

  constructor(files: Iterable<{ path: string; text: string }>) {
    let total = 0;
    for (const file of files) {
      const doc = this.paths.length;
      const tokens = tokenize(`${file.path}\n${file.text}`);
      this.paths.push(file.path);
      this.lengths.push(tokens.length);
      total += tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, count] of tf) {
        let p = this.postings.get(term);
        if (!p) this.postings.set(term, (p = { docs: [], tfs: [] }));
        p.docs.push(doc);
        p.tfs.push(count);
      }
    }
    this.meanLength = this.paths.length ? total / this.paths.length : 1;
  }

  /** How many files are indexed. */
  get size(): number {
    return this.paths.length;
  }

  /** The `k` best files for the OR of the terms, best first (ties by path). */
  search(terms: Iterable<string>, k: number): Array<{ path: string; score: number }> {
    const n = this.paths.length;
    const scores = new Map<number, number>();
    for (const term of new Set(terms)) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.docs.length + 0.5) / (p.docs.length + 0.5));
      for (let i = 0; i < p.docs.length; i++) {
        const doc = p.docs[i];
        const tf = p.tfs[i];
        const part = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[doc]) / this.meanLength));
        scores.set(doc, (scores.get(doc) ?? 0) + part);
      }
    }
    return [...scores.entries()]
      .sort((a, b) => b[1] - a[1] || (this.paths[a[0]] < this.paths[b[0]] ? -1 : 1))
      .slice(0, k)
      .map(([doc, score]) => ({ path: this.paths[doc], score }));
  }
}
