import { tokenize, type KeywordMode } from '@sextant/retrieval';

/** A keyword hit: the document's slot and its BM25 score (higher = better). */
export interface KeywordHit {
  slot: number;
  score: number;
}

/** BM25 parameters; the defaults are FTS5's `bm25()` so scores match what the store returned before. */
export interface Bm25Params {
  k1?: number;
  b?: number;
}

/**
 * The query terms for a keyword mode, tokenized exactly like documents. AND/OR drop stop words and
 * repeats; PHRASE keeps every token in order (documents keep stop words, so "get the user" must
 * match in order). Returns [] when nothing searchable remains.
 *
 * @example
 * keywordQueryTerms('parse the HTTP response', 'and'); // ['parse', 'http', 'response']
 */
export function keywordQueryTerms(query: string, mode: KeywordMode): string[] {
  if (mode === 'phrase') return tokenize(query);
  return [...new Set(tokenize(query, { removeStopWords: true }))];
}

const EMPTY_TERMS = new Int32Array(0);
const EMPTY_LOCAL = new Uint16Array(0);

/**
 * In-memory inverted index with BM25 ranking, built for the embedded store (one per collection,
 * documents addressed by slot). It replaces FTS5 for querying because FTS5 materialises and
 * scores every matching row before `ORDER BY rank LIMIT` can cut, which made common terms cost
 * hundreds of milliseconds at 100k chunks.
 *
 * Layout (all typed arrays, so 100k chunks cost a few hundred bytes each):
 * - postings per term: one `Int32Array` of interleaved `(slot, tf)` pairs, unsorted;
 * - forward index per document: its distinct term ids (sorted) followed by each one's position in
 *   that term's postings, plus a second array with each distinct term's frequency followed by
 *   the token sequence as indices into the distinct terms (for phrase verification).
 *
 * Knowing where each posting sits makes removal O(distinct terms) with swap-remove — no
 * tombstones, no compaction, and a reused slot can never inherit stale postings.
 *
 * Scoring is FTS5's BM25 (k1 1.2, b 0.75, idf = ln((N − n + 0.5)/(n + 0.5)) floored at 1e-6,
 * statistics over the whole collection). OR accumulates term-at-a-time over the filter mask;
 * AND walks the rarest term's postings and probes the others in each candidate's forward index;
 * PHRASE does the same and then checks the token sequence, with the phrase's own document
 * frequency as its idf (as FTS5 does). Top-k uses a bounded heap, ties broken by lower slot.
 *
 * @example
 * const kw = new KeywordIndex();
 * kw.add(0, tokenize('function parseHttpResponse(raw) {}'));
 * const mask = new Uint8Array([1]);
 * kw.search(keywordQueryTerms('http response', 'phrase'), 'phrase', mask, 10); // [{ slot: 0, score: … }]
 */
export class KeywordIndex {
  private readonly k1: number;
  private readonly b: number;
  private readonly vocab = new TermDictionary();
  private postings: Int32Array[] = [];
  private postLen = new Int32Array(1024);
  private docTerms: (Int32Array | undefined)[] = [];
  private docLocal: (Uint16Array | Uint32Array | undefined)[] = [];
  private docLen = new Int32Array(1024);
  private totalLen = 0;
  private docCount = 0;
  private acc = new Float64Array(0);
  private touched = new Int32Array(0);
  // Scratch for add(): token ids, distinct ids, and per-term stamp / rank (indexed by term id).
  private ids = new Int32Array(256);
  private uniq = new Int32Array(256);
  private stamp = new Int32Array(1024);
  private rank = new Int32Array(1024);
  private stampCounter = 0;

  constructor({ k1 = 1.2, b = 0.75 }: Bm25Params = {}) {
    this.k1 = k1;
    this.b = b;
  }

  /** Documents indexed (including ones with no tokens: they count towards BM25's N like FTS5 rows). */
  get size(): number {
    return this.docCount;
  }

  /** Distinct terms ever seen (terms whose documents were all removed stay, with empty postings). */
  get vocabularySize(): number {
    return this.vocab.size;
  }

  has(slot: number): boolean {
    return this.docTerms[slot] !== undefined;
  }

  /** Indexes `tokens` (in document order) at `slot`, replacing whatever the slot held. */
  add(slot: number, tokens: readonly string[]): void {
    if (this.docTerms[slot] !== undefined) this.remove(slot);
    if (slot >= this.docLen.length) this.docLen = growInt32(this.docLen, slot + 1);
    const n = tokens.length;
    this.docCount++;
    this.docLen[slot] = n;
    this.totalLen += n;
    if (n === 0) {
      this.docTerms[slot] = EMPTY_TERMS;
      this.docLocal[slot] = EMPTY_LOCAL;
      return;
    }
    if (this.ids.length < n) {
      this.ids = new Int32Array(Math.max(n, this.ids.length * 2));
      this.uniq = new Int32Array(this.ids.length);
    }
    // Distinct terms via a per-term stamp (no sort of all n tokens, no per-token binary search).
    const ids = this.ids;
    const uniq = this.uniq;
    if (this.stampCounter === 0x7fffffff) {
      this.stamp.fill(0);
      this.stampCounter = 0;
    }
    const stamp = ++this.stampCounter;
    let u = 0;
    for (let i = 0; i < n; i++) {
      const id = this.termId(tokens[i]);
      ids[i] = id;
      if (this.stamp[id] !== stamp) {
        this.stamp[id] = stamp;
        uniq[u++] = id;
      }
    }
    const terms = new Int32Array(2 * u);
    terms.set(uniq.subarray(0, u));
    const sorted = terms.subarray(0, u).sort();
    for (let j = 0; j < u; j++) this.rank[sorted[j]] = j;
    const local = n > 0xffff ? new Uint32Array(u + n) : new Uint16Array(u + n);
    for (let i = 0; i < n; i++) {
      const li = this.rank[ids[i]];
      local[li]++;
      local[u + i] = li;
    }
    for (let j = 0; j < u; j++) terms[u + j] = this.appendPosting(terms[j], slot, local[j]);
    this.docTerms[slot] = terms;
    this.docLocal[slot] = local;
  }

  /** Removes the document at `slot` (no-op when there is none). */
  remove(slot: number): void {
    const terms = this.docTerms[slot];
    if (terms === undefined) return;
    const u = terms.length >> 1;
    for (let j = 0; j < u; j++) {
      const term = terms[j];
      const pos = terms[u + j];
      const list = this.postings[term];
      const last = this.postLen[term] - 1;
      if (pos !== last) {
        const moved = list[2 * last];
        list[2 * pos] = moved;
        list[2 * pos + 1] = list[2 * last + 1];
        const mt = this.docTerms[moved]!;
        const mu = mt.length >> 1;
        mt[mu + search(mt, mu, term)] = pos;
      }
      this.postLen[term] = last;
      if (last === 0) this.postings[term] = EMPTY_TERMS;
      else if (list.length > 64 && last * 8 < list.length) this.postings[term] = list.slice(0, list.length >> 1);
    }
    this.docCount--;
    this.totalLen -= this.docLen[slot];
    this.docLen[slot] = 0;
    this.docTerms[slot] = undefined;
    this.docLocal[slot] = undefined;
  }

  /**
   * Top `k` documents for `terms` (from {@link keywordQueryTerms}) among slots with `mask[slot] === 1`,
   * best first. AND: every term; OR: any term; PHRASE: the tokens consecutively, in order.
   */
  search(terms: readonly string[], mode: KeywordMode, mask: Uint8Array, k: number): KeywordHit[] {
    if (!terms.length || this.docCount === 0 || k < 1) return [];
    if (mode === 'or') return this.searchOr(terms, mask, k);
    if (mode === 'phrase' && terms.length > 1) return this.searchPhrase(terms, mask, k);
    return this.searchAnd(mode === 'phrase' ? [terms[0]] : terms, mask, k);
  }

  private termId(token: string): number {
    const before = this.vocab.size;
    const id = this.vocab.intern(token);
    if (id === before) {
      this.postings.push(EMPTY_TERMS);
      if (id >= this.postLen.length) {
        this.postLen = growInt32(this.postLen, id + 1);
        this.stamp = growInt32(this.stamp, id + 1);
        this.rank = growInt32(this.rank, id + 1);
      }
    }
    return id;
  }

  private appendPosting(term: number, slot: number, tf: number): number {
    let list = this.postings[term];
    const len = this.postLen[term];
    if (2 * len + 2 > list.length) {
      const next = new Int32Array(Math.max(4, list.length * 2));
      next.set(list);
      this.postings[term] = list = next;
    }
    list[2 * len] = slot;
    list[2 * len + 1] = tf;
    this.postLen[term] = len + 1;
    return len;
  }

  /** Known term ids with at least one posting; null when any is missing and `all` is required. */
  private lookup(terms: readonly string[], all: boolean): number[] | null {
    const ids: number[] = [];
    for (const t of terms) {
      const id = this.vocab.find(t);
      if (id < 0 || this.postLen[id] === 0) {
        if (all) return null;
        continue;
      }
      ids.push(id);
    }
    return ids;
  }

  private idf(df: number): number {
    const idf = Math.log((this.docCount - df + 0.5) / (df + 0.5));
    return idf > 0 ? idf : 1e-6;
  }

  private searchOr(terms: readonly string[], mask: Uint8Array, k: number): KeywordHit[] {
    const ids = this.lookup(terms, false)!;
    if (!ids.length) return [];
    const cap = this.docLen.length;
    if (this.acc.length < cap) {
      this.acc = new Float64Array(cap);
      this.touched = new Int32Array(cap);
    }
    const acc = this.acc;
    const touched = this.touched;
    const docLen = this.docLen;
    const k1 = this.k1;
    const k1p1 = k1 + 1;
    const c0 = k1 * (1 - this.b);
    const c1 = (k1 * this.b * this.docCount) / this.totalLen || 0;
    const maskLen = mask.length;
    let nt = 0;
    for (const id of ids) {
      const w = this.idf(this.postLen[id]) * k1p1;
      const list = this.postings[id];
      const end = 2 * this.postLen[id];
      for (let p = 0; p < end; p += 2) {
        const s = list[p];
        if (s >= maskLen || mask[s] !== 1) continue;
        const tf = list[p + 1];
        if (acc[s] === 0) touched[nt++] = s;
        acc[s] += (w * tf) / (tf + c0 + c1 * docLen[s]);
      }
    }
    const heap = new TopK(k);
    for (let i = 0; i < nt; i++) {
      const s = touched[i];
      heap.push(s, acc[s]);
      acc[s] = 0;
    }
    return heap.sorted();
  }

  private searchAnd(terms: readonly string[], mask: Uint8Array, k: number): KeywordHit[] {
    const ids = this.lookup(terms, true);
    if (!ids || !ids.length) return [];
    ids.sort((x, y) => this.postLen[x] - this.postLen[y]);
    const m = ids.length;
    const weights = ids.map((id) => this.idf(this.postLen[id]) * (this.k1 + 1));
    const c0 = this.k1 * (1 - this.b);
    const c1 = (this.k1 * this.b * this.docCount) / this.totalLen || 0;
    const docLen = this.docLen;
    const heap = new TopK(k);
    const rare = ids[0];
    const list = this.postings[rare];
    const end = 2 * this.postLen[rare];
    const maskLen = mask.length;
    outer: for (let p = 0; p < end; p += 2) {
      const s = list[p];
      if (s >= maskLen || mask[s] !== 1) continue;
      const norm = c0 + c1 * docLen[s];
      let tf = list[p + 1];
      let score = (weights[0] * tf) / (tf + norm);
      if (m > 1) {
        const dt = this.docTerms[s]!;
        const u = dt.length >> 1;
        const local = this.docLocal[s]!;
        for (let j = 1; j < m; j++) {
          const li = search(dt, u, ids[j]);
          if (li < 0) continue outer;
          tf = local[li];
          score += (weights[j] * tf) / (tf + norm);
        }
      }
      heap.push(s, score);
    }
    return heap.sorted();
  }

  private searchPhrase(tokens: readonly string[], mask: Uint8Array, k: number): KeywordHit[] {
    const ids = this.lookup(tokens, true);
    if (!ids) return [];
    const distinct = [...new Set(ids)].sort((x, y) => this.postLen[x] - this.postLen[y]);
    const rare = distinct[0];
    const list = this.postings[rare];
    const end = 2 * this.postLen[rare];
    const m = ids.length;
    const qLocal = new Int32Array(m);
    const localOf = new Map<number, number>();
    const hitSlots: number[] = [];
    const hitTf: number[] = [];
    let df = 0;
    // Every candidate is verified, masked or not: the phrase's document frequency (its idf) is a
    // collection statistic, like FTS5's.
    for (let p = 0; p < end; p += 2) {
      const s = list[p];
      const dt = this.docTerms[s]!;
      const u = dt.length >> 1;
      let ok = true;
      for (const id of distinct) {
        const li = search(dt, u, id);
        if (li < 0) {
          ok = false;
          break;
        }
        localOf.set(id, li);
      }
      if (!ok) continue;
      for (let i = 0; i < m; i++) qLocal[i] = localOf.get(ids[i])!;
      const local = this.docLocal[s]!;
      const last = local.length - m;
      const first = qLocal[0];
      let tf = 0;
      for (let i = u; i <= last; i++) {
        if (local[i] !== first) continue;
        let j = 1;
        while (j < m && local[i + j] === qLocal[j]) j++;
        if (j === m) tf++;
      }
      if (tf === 0) continue;
      df++;
      if (s < mask.length && mask[s] === 1) {
        hitSlots.push(s);
        hitTf.push(tf);
      }
    }
    if (!hitSlots.length) return [];
    const w = this.idf(df) * (this.k1 + 1);
    const c0 = this.k1 * (1 - this.b);
    const c1 = (this.k1 * this.b * this.docCount) / this.totalLen || 0;
    const heap = new TopK(k);
    for (let i = 0; i < hitSlots.length; i++) {
      const tf = hitTf[i];
      heap.push(hitSlots[i], (w * tf) / (tf + c0 + c1 * this.docLen[hitSlots[i]]));
    }
    return heap.sorted();
  }
}

/**
 * Term string -> dense id: open addressing over a 64-bit hash (two independent 32-bit string
 * hashes), with hash and id side by side so a lookup touches one cache line. Strings are not
 * kept: a V8 \`Map\` lookup costs several cache misses (bucket, entry, key string) and the indexer
 * looks up every token of every chunk it writes. Two distinct terms merge only if both hashes
 * collide (probability ~ n² / 2⁶⁵: ~3·10⁻⁸ for a million distinct terms).
 */
class TermDictionary {
  /** [h1, h2, id + 1] per cell; id + 1 = 0 marks an empty cell. */
  private table = new Int32Array(3 << 12);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The id of `term`, or -1. */
  find(term: string): number {
    const cell = this.cell(term);
    return this.table[cell + 2] - 1;
  }

  /** The id of `term`, assigning the next id when it is new. */
  intern(term: string): number {
    const cell = this.cell(term);
    const existing = this.table[cell + 2];
    if (existing !== 0) return existing - 1;
    const id = this.count++;
    this.table[cell] = hashA;
    this.table[cell + 1] = hashB;
    this.table[cell + 2] = id + 1;
    if (2 * this.count * 3 > this.table.length) this.rehash();
    return id;
  }

  /** The cell holding `term` or the empty cell where it belongs; leaves its hashes in hashA / hashB. */
  private cell(term: string): number {
    let a = 0x811c9dc5;
    let b = 0x9747b28c ^ term.length;
    for (let i = 0; i < term.length; i++) {
      const c = term.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    hashA = a;
    hashB = b;
    const table = this.table;
    const cells = table.length / 3;
    for (let i = (a ^ (b >>> 7)) & (cells - 1); ; i = (i + 1) & (cells - 1)) {
      const at = 3 * i;
      if (table[at + 2] === 0 || (table[at] === a && table[at + 1] === b)) return at;
    }
  }

  private rehash(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    const cells = table.length / 3;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] === 0) continue;
      const a = old[at];
      const b = old[at + 1];
      let i = (a ^ (b >>> 7)) & (cells - 1);
      while (table[3 * i + 2] !== 0) i = (i + 1) & (cells - 1);
      table[3 * i] = a;
      table[3 * i + 1] = b;
      table[3 * i + 2] = old[at + 2];
    }
    this.table = table;
  }
}

/** Out-parameters of TermDictionary.cell (avoids allocating a pair per lookup). */
let hashA = 0;
let hashB = 0;

function growInt32(a: Int32Array, min: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(min, a.length * 2));
  next.set(a);
  return next;
}

/** Index of `value` in the sorted prefix `a[0..n)`, or -1. */
function search(a: Int32Array, n: number, value: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid];
    if (v < value) lo = mid + 1;
    else if (v > value) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Bounded min-heap keeping the `k` best (score desc, slot asc). */
class TopK {
  private readonly slots: Int32Array;
  private readonly scores: Float64Array;
  private n = 0;

  constructor(private readonly k: number) {
    this.slots = new Int32Array(k);
    this.scores = new Float64Array(k);
  }

  /** True when (sa, a) ranks below (sb, b). */
  private static worse(sa: number, a: number, sb: number, b: number): boolean {
    return sa < sb || (sa === sb && a > b);
  }

  push(slot: number, score: number): void {
    const { slots, scores } = this;
    if (this.n < this.k) {
      let i = this.n++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!TopK.worse(score, slot, scores[parent], slots[parent])) break;
        slots[i] = slots[parent];
        scores[i] = scores[parent];
        i = parent;
      }
      slots[i] = slot;
      scores[i] = score;
      return;
    }
    if (!TopK.worse(scores[0], slots[0], score, slot)) return;
    let i = 0;
    const n = this.n;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && TopK.worse(scores[r], slots[r], scores[l], slots[l]) ? r : l;
      if (!TopK.worse(scores[c], slots[c], score, slot)) break;
      slots[i] = slots[c];
      scores[i] = scores[c];
      i = c;
    }
    slots[i] = slot;
    scores[i] = score;
  }

  sorted(): KeywordHit[] {
    const out: KeywordHit[] = [];
    for (let i = 0; i < this.n; i++) out.push({ slot: this.slots[i], score: this.scores[i] });
    return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }
}
