import { tokenize, type KeywordMode } from '@sextant/retrieval';
import { OrAccumulator, type OrTerm } from './or-accumulator';

/** A keyword hit: the document's slot and its BM25 score (higher = better). */
export interface KeywordHit {
  slot: number;
  score: number;
}

/** BM25 parameters (defaults: FTS5's `bm25()`, so scores match what the store returned before) and tuning. */
export interface KeywordIndexOptions {
  k1?: number;
  b?: number;
  /**
   * Cost of probing one document's record for a term, in posting visits (default 8). AND and
   * PHRASE intersect by counting over all postings when that is cheaper than probing every
   * document of the rarest term. 0 forces probing, Infinity forces counting (tests cover both).
   */
  probeCost?: number;
  /**
   * OR queries of several terms walk the posting lists slot by slot and skip documents that
   * cannot reach the current top k (MaxScore) when their posting lists together hold at least
   * this many entries; shorter ones accumulate every posting term by term. Same hits and scores
   * either way (tests cover both). Default 300,000: at 1M documents MaxScore halved OR time at
   * k = 10, but on bench:store's 100k Zipfian corpus (lists of a few 10k postings) 8-term OR ran
   * ~30 % slower with it. 0 always uses MaxScore, Infinity never.
   */
  maxScoreMinPostings?: number;
  /**
   * OR queries whose posting lists hold at least this many entries, at least one per
   * {@link BLOCKED_DENSITY} slots of the range they span (common words in a large collection),
   * accumulate one block of slots at a time (`orBlockSlots`, default 32,768) instead of tracking
   * every touched slot. Same hits and scores. Default 65,536; 0 always blocks (any density),
   * Infinity never.
   */
  blockedOrMinPostings?: number;
  orBlockSlots?: number;
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

/** Layout of the per-term metadata words. */
const TERM_STRIDE = 4;
const P_START = 0;
const P_LEN = 1;
const P_CAP = 2;
/** encode()'s scratch per term: −stamp while collecting distinct terms, then the term's rank in the record. */
const T_SCRATCH = 3;

/** Words before the term ids in a document record: distinct-term count `u`, token count `n`. */
const HEAD = 2;
/**
 * A record's term frequencies and token sequence are packed 16 bits each when persisted (32 bits
 * when the document has more than 65535 tokens); in memory, documents of at most 255 tokens (most
 * chunks) pack them 8 bits each. `entryBits` gives the width.
 */
const MAX_PACKED = 0xffff;
const MAX_BYTE_PACKED = 0xff;
/** A posting is `slot << 8 | tf` in one int32, so slots must stay below 2²⁴. */
export const MAX_KEYWORD_SLOTS = 1 << 24;
/** A posting's tf byte at this value means "255 or more": the exact count is read from the document's record. */
const TF_CAPPED = 0xff;
/** MaxScore seeds its threshold by probing the strongest OR term's documents when it has at most this many. */
const SEED_MAX_POSTINGS = 2048;
/** Relative cost, in sequential posting visits, of MaxScore's work per candidate document: walking the strong lists, and galloping into each weak one. */
const MAXSCORE_WALK_COST = 3;
const MAXSCORE_GALLOP_COST = 4;
/** Relative cost, in sequential posting visits, of galloping into a list for one candidate while intersecting. */
const INTERSECT_GALLOP_COST = 8;
/** Blocked OR needs at least one posting per this many slots of the range the terms span. */
const BLOCKED_DENSITY = 4;
/** Pending removals flushed once this many (term, slot) pairs wait, even without a search. */
const MAX_PENDING = 1 << 18;

/**
 * In-memory inverted index with BM25 ranking for the embedded store (one per collection, documents
 * addressed by slot). It replaced FTS5 for querying: FTS5 materialises and scores every matching
 * row before `ORDER BY rank LIMIT` can cut, so common terms cost hundreds of milliseconds at 100k
 * chunks; here they cost a pass over one posting list.
 *
 * Layout, chosen so 100k chunks need no per-term or per-document objects and little memory:
 * - **postings** are one int32 each, `slot << 8 | min(tf, 255)`, sorted by slot, in one pooled
 *   `Int32Array`; each term owns a region (start, length, capacity) that moves to the end of the
 *   pool when full; the pool is compacted whenever it has to grow. A tf of 255 means "look it up
 *   in the document's record" (only documents repeating one term 255+ times pay that).
 * - **document records** live back to back in one arena (compacted the same way). A record is
 *   `[u, n, terms(u) sorted, then u term frequencies followed by the n tokens as indices into
 *   terms]`, the last part packed four 8-bit values per word when n ≤ 255 (most chunks), else two
 *   16-bit values (32-bit when n > 65535). SQLite stores the same with 16-bit packing for short
 *   documents too ({@link KeywordIndex.serialize}), so a restart repacks records instead of
 *   re-tokenizing and builds the postings in two passes ({@link KeywordIndex.restore}).
 * - **writes that would shift a list are deferred**: `remove` queues its (term, slot) pairs, and
 *   so does posting a slot that does not sort last in a list (a reused slot); the next search
 *   applies the queue, one forward and one backward pass per touched list, taking the truth from
 *   the records. Deleting a file's chunks and re-indexing it into the freed slots therefore costs
 *   one pass over the lists they share, not a search and a shift per posting.
 *
 * Scoring is FTS5's BM25 (k1 1.2, b 0.75, idf = ln((N − n + 0.5)/(n + 0.5)) floored at 1e-6,
 * statistics over every document of the collection). OR accumulates term-at-a-time over the
 * filter mask; AND either walks the rarest term's postings and probes the others in each
 * candidate's record, or counts matches over all the terms' postings, whichever is cheaper;
 * PHRASE intersects the same way, then scans the token sequence and uses the phrase's own
 * document frequency for its idf, as FTS5 does. Top-k comes from a bounded heap, ties broken by lower slot.
 *
 * @example
 * const kw = new KeywordIndex();
 * kw.add(0, tokenize('function parseHttpResponse(raw) {}'));
 * kw.search(keywordQueryTerms('http response', 'phrase'), 'phrase', new Uint8Array([1]), 10); // [{ slot: 0, score: … }]
 */
export class KeywordIndex {
  private readonly k1: number;
  private readonly b: number;
  private readonly probeCost: number;
  private readonly maxScoreMinPostings: number;
  private readonly blockedOrMinPostings: number;
  private readonly orBlock: number;
  private readonly vocab = new TermDictionary();
  private newTerms: { id: number; term: string }[] = [];

  /**
   * Per term, `TERM_STRIDE` words at `id * TERM_STRIDE`: posting region in `pool` (start, length
   * and capacity in postings) and encode()'s scratch — side by side, so touching a term costs one
   * cache miss, not four.
   */
  private meta = new Int32Array(1024 * TERM_STRIDE);
  private pool = new Int32Array(1 << 16);
  private poolUsed = 0;
  private poolGarbage = 0;

  /** Queued removals as `term * 2²⁴ + slot` (exact in a double), applied by {@link flush}. */
  private pending = new Float64Array(1024);
  private pendingCount = 0;
  private flushSlots = new Int32Array(256);
  private flushTfs = new Int32Array(256);

  // Document records, back to back in one arena; recAt[slot] = offset + 1 (0 = no document).
  private rec = new Int32Array(1 << 16);
  private recUsed = 0;
  private recGarbage = 0;
  private recAt = new Int32Array(1024);
  private docLen = new Int32Array(1024);
  private totalLen = 0;
  private docCount = 0;

  // Scratch: per-slot query accumulators; encode()'s token ids, distinct ids, tfs and output.
  private acc = new Float64Array(0);
  private orAccumulator: OrAccumulator | null = null;
  private touched = new Int32Array(0);
  private hits = new Int32Array(0);
  private ids = new Int32Array(256);
  private uniq = new Int32Array(256);
  private tfs = new Int32Array(256);
  private stampCounter = 0;
  private encoded = new Int32Array(1024);
  private restoreScratch = new Int32Array(1024);

  constructor({ k1 = 1.2, b = 0.75, probeCost = 8, maxScoreMinPostings = 300_000, blockedOrMinPostings = 1 << 16, orBlockSlots = 1 << 15 }: KeywordIndexOptions = {}) {
    this.k1 = k1;
    this.b = b;
    this.probeCost = probeCost;
    this.maxScoreMinPostings = maxScoreMinPostings;
    this.blockedOrMinPostings = blockedOrMinPostings;
    this.orBlock = Math.max(1, Math.floor(orBlockSlots));
  }

  /** Documents indexed (including ones with no tokens: they count towards BM25's N like FTS5 rows). */
  get size(): number {
    return this.docCount;
  }

  /** Distinct terms ever defined (terms whose documents were all removed keep their id). */
  get vocabularySize(): number {
    return this.vocab.size;
  }

  has(slot: number): boolean {
    return slot < this.recAt.length && this.recAt[slot] !== 0;
  }

  /** Indexes `tokens` (in document order) at `slot`, replacing whatever the slot held. */
  add(slot: number, tokens: readonly string[]): void {
    this.insert(slot, this.encode(tokens));
  }

  /**
   * The document record for `tokens` (a list, or one string of tokens joined by single spaces, as
   * the parse workers send them: no array of strings to allocate), interning new terms (collect them with {@link takeNewTerms}
   * to persist them together with the record). Pass the result to {@link insert} or
   * {@link serialize}. The record is a view of a scratch buffer, valid until the next `encode`.
   */
  encode(tokens: readonly string[] | string): Int32Array {
    const joined = typeof tokens === 'string';
    const n = joined ? countTokens(tokens) : tokens.length;
    if (this.ids.length < n) {
      const size = Math.max(n, this.ids.length * 2);
      this.ids = new Int32Array(size);
      this.uniq = new Int32Array(size);
      this.tfs = new Int32Array(size);
    }
    if (this.stampCounter === 0x7fffffff) {
      for (let t = 0; t < this.vocab.size; t++) this.meta[t * TERM_STRIDE + T_SCRATCH] = 0;
      this.stampCounter = 0;
    }
    const mark = -++this.stampCounter; // negative, so never equal to a rank left by an earlier call
    const { ids, uniq } = this;
    let u = 0;
    for (let i = 0, at = 0; i < n; i++) {
      let id: number;
      if (joined) {
        let end = tokens.indexOf(' ', at);
        if (end < 0) end = tokens.length;
        id = this.termIdIn(tokens, at, end);
        at = end + 1;
      } else id = this.termIdIn(tokens[i], 0, tokens[i].length);
      ids[i] = id;
      if (this.meta[id * TERM_STRIDE + T_SCRATCH] !== mark) {
        this.meta[id * TERM_STRIDE + T_SCRATCH] = mark;
        uniq[u++] = id;
      }
    }
    const sorted = uniq.subarray(0, u).sort();
    const meta = this.meta;
    const tfs = this.tfs;
    for (let j = 0; j < u; j++) {
      meta[sorted[j] * TERM_STRIDE + T_SCRATCH] = j;
      tfs[j] = 0;
    }
    for (let i = 0; i < n; i++) tfs[meta[ids[i] * TERM_STRIDE + T_SCRATCH]]++;
    const bits = entryBits(n, true);
    const base = HEAD + u;
    const words = recordLength(u, n);
    if (this.encoded.length < words) this.encoded = new Int32Array(Math.max(words, 2 * this.encoded.length));
    const data = this.encoded.subarray(0, words);
    data.fill(0, base);
    data[0] = u;
    data[1] = n;
    data.set(sorted, HEAD);
    for (let j = 0; j < u; j++) setEntry(data, base, j, bits, tfs[j]);
    for (let i = 0; i < n; i++) setEntry(data, base, u + i, bits, meta[ids[i] * TERM_STRIDE + T_SCRATCH]);
    return data;
  }

  /** Terms interned since the last call, for the caller to persist (`defineTerm` restores them). */
  takeNewTerms(): { id: number; term: string }[] {
    const out = this.newTerms;
    this.newTerms = [];
    return out;
  }

  /** Re-creates a persisted term with its id (at open, before any `restore`). */
  defineTerm(id: number, term: string): void {
    this.vocab.define(term, id);
    this.ensureTerms(id + 1);
  }

  /** Stores a record from {@link encode} at `slot` (replacing the slot's document) and posts its terms. */
  insert(slot: number, data: Int32Array): void {
    checkSlot(slot);
    this.remove(slot);
    const at = this.store(slot, data.length);
    this.rec.set(data, at);
    const n = data[1];
    this.docLen[slot] = n;
    this.totalLen += n;
    const u = data[0];
    const base = at + HEAD + u;
    const bits = entryBits(n, true);
    this.reservePending(u);
    for (let j = 0; j < u; j++) this.post(data[HEAD + j], slot, entry(this.rec, base, j, bits));
  }

  /**
   * The record as persisted (little-endian int32, entries 16 bits wide even where memory packs
   * them in 8). With `into`, the bytes are written there (grown when short) and a view returned —
   * for callers that hand them straight to SQLite, which copies.
   */
  static serialize(data: Int32Array, into?: { buffer: Int32Array }): Buffer {
    const u = data[0];
    const n = data[1];
    const words = storedLength(u, n);
    let out: Int32Array;
    if (into) {
      if (into.buffer.length < words) into.buffer = new Int32Array(Math.max(words, 2 * into.buffer.length));
      out = into.buffer;
    } else out = new Int32Array(words);
    const base = HEAD + u;
    out.set(data.subarray(0, base));
    out.fill(0, base, words);
    repack(data, base, entryBits(n, true), out, base, entryBits(n, false), u + n);
    return Buffer.from(out.buffer, out.byteOffset, words * 4);
  }

  /**
   * Puts back a persisted record without posting it; call {@link finishRestore} once after all of
   * them. Throws on a malformed record (a corrupt row must not silently vanish from search).
   */
  restore(slot: number, blob: Uint8Array): void {
    checkSlot(slot);
    if (blob.byteLength % 4 !== 0 || blob.byteLength < 4 * HEAD) throw new Error(`keyword record of slot ${slot} is corrupt (${blob.byteLength} bytes)`);
    const words = blob.byteLength / 4;
    const head = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
    const u = head.getInt32(0, true);
    const n = head.getInt32(4, true);
    if (u < 0 || n < u || words !== storedLength(u, n)) throw new Error(`keyword record of slot ${slot} is corrupt (u=${u}, n=${n}, ${words} words)`);
    if (this.has(slot)) this.drop(slot);
    const at = this.store(slot, recordLength(u, n));
    const storedBits = entryBits(n, false);
    const bits = entryBits(n, true);
    if (bits === storedBits) new Uint8Array(this.rec.buffer, this.rec.byteOffset + 4 * at, blob.byteLength).set(blob);
    else {
      if (this.restoreScratch.length < words) this.restoreScratch = new Int32Array(Math.max(words, 2 * this.restoreScratch.length));
      const stored = this.restoreScratch;
      new Uint8Array(stored.buffer, 0, blob.byteLength).set(blob);
      this.rec.set(stored.subarray(0, HEAD + u), at);
      this.rec.fill(0, at + HEAD + u, at + recordLength(u, n));
      repack(stored, HEAD + u, storedBits, this.rec, at + HEAD + u, bits, u + n);
    }
    for (let j = 0; j < u; j++) {
      const t = this.rec[at + HEAD + j];
      if (t < 0 || t >= this.vocab.size) {
        this.drop(slot);
        throw new Error(`keyword record of slot ${slot} names unknown term ${t}`);
      }
    }
    this.docLen[slot] = n;
    this.totalLen += n;
  }

  /** Builds every posting list for the restored records in two passes (exact sizes, no moves). */
  finishRestore(): void {
    const terms = this.vocab.size;
    const df = new Int32Array(terms);
    const rec = this.rec;
    const slots = this.recAt.length;
    for (let slot = 0; slot < slots; slot++) {
      if (this.recAt[slot] === 0) continue;
      const at = this.recAt[slot] - 1;
      const u = rec[at];
      for (let j = 0; j < u; j++) df[rec[at + HEAD + j]]++;
    }
    let total = 0;
    for (let t = 0; t < terms; t++) {
      if (df[t] === 0) {
        this.meta[t * TERM_STRIDE + P_START] = 0;
        this.meta[t * TERM_STRIDE + P_CAP] = 0;
      } else {
        const cap = df[t] + (df[t] >> 4) + 1; // slack so the first writes after a restart do not move every list
        this.meta[t * TERM_STRIDE + P_START] = total;
        this.meta[t * TERM_STRIDE + P_CAP] = cap;
        total += cap;
      }
      this.meta[t * TERM_STRIDE + P_LEN] = 0;
    }
    this.pool = new Int32Array(Math.max(1 << 16, total + (total >> 4)));
    this.poolUsed = total;
    this.poolGarbage = 0;
    this.pendingCount = 0;
    const pool = this.pool;
    // Slots ascending, so every list comes out sorted.
    for (let slot = 0; slot < slots; slot++) {
      if (this.recAt[slot] === 0) continue;
      const at = this.recAt[slot] - 1;
      const u = rec[at];
      const base = at + HEAD + u;
      const bits = entryBits(rec[at + 1], true);
      for (let j = 0; j < u; j++) {
        const t = rec[at + HEAD + j];
        const tf = entry(rec, base, j, bits);
        pool[this.meta[t * TERM_STRIDE + P_START] + this.meta[t * TERM_STRIDE + P_LEN]++] = (slot << 8) | (tf < TF_CAPPED ? tf : TF_CAPPED);
      }
    }
  }

  /** Removes the document at `slot` (no-op when there is none); its postings go at the next flush. */
  remove(slot: number): void {
    if (slot >= this.recAt.length || this.recAt[slot] === 0) return;
    const at = this.recAt[slot] - 1;
    const u = this.rec[at];
    this.reservePending(u);
    this.drop(slot); // the record's words stay readable until the arena is next compacted
    for (let j = 0; j < u; j++) this.pending[this.pendingCount++] = this.rec[at + HEAD + j] * MAX_KEYWORD_SLOTS + slot;
  }

  /**
   * Top `k` documents for `terms` (from {@link keywordQueryTerms}) among slots with `mask[slot] === 1`,
   * best first. AND: every term; OR: any term; PHRASE: the tokens consecutively, in order.
   */
  search(terms: readonly string[], mode: KeywordMode, mask: Uint8Array, k: number): KeywordHit[] {
    if (!terms.length || this.docCount === 0 || k < 1) return [];
    this.flush();
    if (mode === 'or') return this.searchOr(terms, mask, k);
    if (mode === 'phrase' && terms.length > 1) return this.searchPhrase(terms, mask, k);
    return this.searchAnd(mode === 'phrase' ? [terms[0]] : terms, mask, k);
  }

  /** Frees the record at `slot` (which holds one) without touching postings. */
  private drop(slot: number): void {
    const at = this.recAt[slot] - 1;
    this.recGarbage += recordLength(this.rec[at], this.rec[at + 1]);
    this.recAt[slot] = 0;
    this.docCount--;
    this.totalLen -= this.docLen[slot];
    this.docLen[slot] = 0;
  }

  /** Room for `count` more queued pairs (flushing first when the queue is at its limit). */
  private reservePending(count: number): void {
    if (this.pendingCount + count > MAX_PENDING) this.flush();
    if (this.pendingCount + count > this.pending.length) {
      const next = new Float64Array(Math.max(this.pendingCount + count, 2 * this.pending.length));
      next.set(this.pending.subarray(0, this.pendingCount));
      this.pending = next;
    }
  }

  /**
   * Posts `slot` in `term`'s list: appended when it sorts last (fresh slots), otherwise queued
   * for {@link flush} (a reused slot), so a write never shifts a long list.
   */
  private post(term: number, slot: number, tf: number): void {
    const m = term * TERM_STRIDE;
    let len = this.meta[m + P_LEN];
    if (len > 0 && this.pool[this.meta[m + P_START] + len - 1] >>> 8 >= slot) {
      this.pending[this.pendingCount++] = term * MAX_KEYWORD_SLOTS + slot;
      return;
    }
    if (len === this.meta[m + P_CAP]) {
      this.relocate(term, len + (len >> 1) + 2);
      len = this.meta[m + P_LEN];
    }
    this.pool[this.meta[m + P_START] + len] = (slot << 8) | (tf < TF_CAPPED ? tf : TF_CAPPED);
    this.meta[m + P_LEN] = len + 1;
  }

  /**
   * Brings every list with queued (term, slot) pairs up to date, the records being the truth:
   * afterwards `slot` is posted in `term` exactly when the slot holds a document containing the
   * term. Per list: one forward pass drops the queued slots, one backward pass inserts those that
   * belong, both moving runs with `copyWithin`.
   */
  private flush(): void {
    const n = this.pendingCount;
    if (n === 0) return;
    this.pendingCount = 0;
    const keys = this.pending.subarray(0, n).sort();
    let i = 0;
    while (i < n) {
      const term = Math.floor(keys[i] / MAX_KEYWORD_SLOTS);
      const m = term * TERM_STRIDE;
      let group = 0;
      for (let prev = -1; i < n && keys[i] < (term + 1) * MAX_KEYWORD_SLOTS; i++) {
        const slot = keys[i] - term * MAX_KEYWORD_SLOTS;
        if (slot === prev) continue;
        prev = slot;
        if (group === this.flushSlots.length) this.growFlushScratch();
        this.flushSlots[group++] = slot;
      }
      const slots = this.flushSlots;
      const tfs = this.flushTfs;
      let pool = this.pool;
      let start = this.meta[m + P_START];
      const end = start + this.meta[m + P_LEN];
      let read = start;
      let write = start;
      for (let g = 0; g < group; g++) {
        const at = findPosting(pool, read, end, slots[g]);
        if (at < 0) continue;
        if (write !== read) pool.copyWithin(write, read, at);
        write += at - read;
        read = at + 1;
      }
      if (write !== read) pool.copyWithin(write, read, end);
      const len = write + end - read - start;
      this.meta[m + P_LEN] = len;
      let add = 0;
      for (let g = 0; g < group; g++) {
        tfs[g] = this.recAt[slots[g]] === 0 ? 0 : this.recordTf(slots[g], term);
        if (tfs[g] > 0) add++;
      }
      if (add === 0) continue;
      if (len + add > this.meta[m + P_CAP]) {
        this.relocate(term, len + add + ((len + add) >> 1) + 2);
        pool = this.pool;
        start = this.meta[m + P_START];
      }
      let w = start + len + add - 1;
      let r = start + len - 1;
      for (let g = group - 1; g >= 0; g--) {
        if (tfs[g] === 0) continue;
        const slot = slots[g];
        const from = start + lowerBound(pool, start, r + 1, slot);
        const count = r + 1 - from;
        if (count > 0) pool.copyWithin(w - count + 1, from, r + 1);
        w -= count;
        r = from - 1;
        pool[w--] = (slot << 8) | (tfs[g] < TF_CAPPED ? tfs[g] : TF_CAPPED);
      }
      this.meta[m + P_LEN] = len + add;
    }
  }

  private growFlushScratch(): void {
    const slots = new Int32Array(2 * this.flushSlots.length);
    slots.set(this.flushSlots);
    this.flushSlots = slots;
    this.flushTfs = new Int32Array(slots.length);
  }

  /** The frequency of `term` in the document at `slot` (which holds one): 0 when absent. */
  private recordTf(slot: number, term: number): number {
    const at = this.recAt[slot] - 1;
    const u = this.rec[at];
    const li = search(this.rec, at + HEAD, u, term);
    if (li < 0) return 0;
    return entry(this.rec, at + HEAD + u, li, entryBits(this.rec[at + 1], true));
  }

  /** Reserves `words` in the record arena for `slot` (which holds no document) and returns the offset. */
  private store(slot: number, words: number): number {
    if (slot >= this.docLen.length) {
      this.docLen = growInt32(this.docLen, slot + 1);
      this.recAt = growInt32(this.recAt, slot + 1);
    }
    if (this.recUsed + words > this.rec.length) this.growRecords(words);
    const at = this.recUsed;
    this.recUsed += words;
    this.recAt[slot] = at + 1;
    this.docCount++;
    return at;
  }

  /**
   * Makes room for `need` more record words, compacting out removed records. Grows by half the
   * live size (not double): the copy is resident while both arenas exist.
   */
  private growRecords(need: number): void {
    const live = this.recUsed - this.recGarbage;
    const next = new Int32Array(Math.max(1 << 16, live + need + (live >> 1)));
    let used = 0;
    const old = this.rec;
    for (let slot = 0; slot < this.recAt.length; slot++) {
      if (this.recAt[slot] === 0) continue;
      const at = this.recAt[slot] - 1;
      const len = recordLength(old[at], old[at + 1]);
      next.set(old.subarray(at, at + len), used);
      this.recAt[slot] = used + 1;
      used += len;
    }
    this.rec = next;
    this.recUsed = used;
    this.recGarbage = 0;
  }

  /** The id of the token `text.slice(start, end)`, interned if new; the slice is only made for a new term. */
  private termIdIn(text: string, start: number, end: number): number {
    const before = this.vocab.size;
    const id = this.vocab.internRange(text, start, end);
    if (id === before) {
      this.ensureTerms(id + 1);
      this.newTerms.push({ id, term: text.slice(start, end) });
    }
    return id;
  }

  private ensureTerms(count: number): void {
    if (count * TERM_STRIDE <= this.meta.length) return;
    this.meta = growInt32(this.meta, count * TERM_STRIDE);
  }

  /** Moves a full posting list to the end of the pool with room for `cap` postings. */
  private relocate(term: number, cap: number): void {
    if (this.poolUsed + cap > this.pool.length) this.growPool(cap);
    const start = this.meta[term * TERM_STRIDE + P_START];
    const len = this.meta[term * TERM_STRIDE + P_LEN];
    this.pool.copyWithin(this.poolUsed, start, start + len);
    this.poolGarbage += this.meta[term * TERM_STRIDE + P_CAP];
    this.meta[term * TERM_STRIDE + P_START] = this.poolUsed;
    this.meta[term * TERM_STRIDE + P_CAP] = cap;
    this.poolUsed += cap;
  }

  /**
   * Makes room for `need` more words: copies the live lists into a pool twice their size,
   * dropping moved-out space (untouched headroom costs address space, not resident memory).
   */
  private growPool(need: number): void {
    const live = this.poolUsed - this.poolGarbage;
    const next = new Int32Array(Math.max(1 << 16, 2 * (live + need)));
    let used = 0;
    const terms = this.vocab.size;
    for (let t = 0; t < terms; t++) {
      const cap = this.meta[t * TERM_STRIDE + P_CAP];
      if (cap === 0) continue;
      const start = this.meta[t * TERM_STRIDE + P_START];
      next.set(this.pool.subarray(start, start + this.meta[t * TERM_STRIDE + P_LEN]), used);
      this.meta[t * TERM_STRIDE + P_START] = used;
      used += cap;
    }
    this.pool = next;
    this.poolUsed = used;
    this.poolGarbage = 0;
  }

  /** Known term ids with at least one posting; null when any is missing and `all` is required. */
  private lookup(terms: readonly string[], all: boolean): number[] | null {
    const ids: number[] = [];
    for (const t of terms) {
      const id = this.vocab.find(t);
      if (id < 0 || this.meta[id * TERM_STRIDE + P_LEN] === 0) {
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

  /** Per-slot query scratch: score accumulators, matched-term counts, touched slots (all zero between queries). */
  private scratch(): void {
    const cap = this.docLen.length;
    if (this.acc.length < cap) {
      this.acc = new Float64Array(cap);
      this.touched = new Int32Array(cap);
      this.hits = new Int32Array(cap);
    }
  }

  /**
   * Whether intersecting by counting (one sequential pass over every term's postings) beats
   * probing each of the rarest term's documents for the other terms (a binary search in a
   * record that is usually not in cache, `probeCost` posting visits each).
   */
  private countingIsCheaper(ids: readonly number[]): boolean {
    let total = 0;
    for (const id of ids) total += this.meta[id * TERM_STRIDE + P_LEN];
    return total < this.meta[ids[0] * TERM_STRIDE + P_LEN] * (ids.length - 1) * this.probeCost;
  }

  /**
   * Slots containing every term of `ids` (rarest first), restricted to `mask` when given, with
   * BM25 sums in `acc` when `weights` is given, in ascending slot order in `touched[0..n)` (their
   * `hits` / `acc` set; the caller resets them with {@link clearTouched}). The rarest list is
   * walked; each further list is walked too, or, once few candidates are left, only galloped
   * into at theirs. Terms are added in `ids` order either way, so sums are bit-identical.
   */
  private countAll(ids: readonly number[], mask: Uint8Array | null, weights: readonly number[] | null): number {
    this.scratch();
    const { acc, touched, hits, docLen, pool } = this;
    const c0 = this.k1 * (1 - this.b);
    const c1 = (this.k1 * this.b * this.docCount) / this.totalLen || 0;
    const maskLen = mask ? mask.length : 0;
    let nt = 0;
    for (let j = 0; j < ids.length; j++) {
      const w = weights ? weights[j] : 0;
      const start = this.meta[ids[j] * TERM_STRIDE + P_START];
      const end = start + this.meta[ids[j] * TERM_STRIDE + P_LEN];
      if (j > 0 && nt * INTERSECT_GALLOP_COST < end - start) {
        let p = start;
        let kept = 0;
        for (let i = 0; i < nt; i++) {
          const s = touched[i];
          p = gallop(pool, p, end, s);
          if (p < end && pool[p] >>> 8 === s) {
            hits[s] = j + 1;
            if (weights) {
              let tf = pool[p] & 0xff;
              if (tf === TF_CAPPED) tf = this.recordTf(s, ids[j]);
              acc[s] += (w * tf) / (tf + c0 + c1 * docLen[s]);
            }
            touched[kept++] = s;
          } else {
            hits[s] = 0;
            acc[s] = 0;
          }
        }
        nt = kept;
        continue;
      }
      for (let p = start; p < end; p++) {
        const s = pool[p] >>> 8;
        if (hits[s] !== j) continue;
        if (j === 0) {
          if (mask && (s >= maskLen || mask[s] !== 1)) continue;
          touched[nt++] = s;
        }
        hits[s] = j + 1;
        if (weights) {
          let tf = pool[p] & 0xff;
          if (tf === TF_CAPPED) tf = this.recordTf(s, ids[j]);
          acc[s] += (w * tf) / (tf + c0 + c1 * docLen[s]);
        }
      }
      if (j > 0) {
        // Keep only the slots that have every term so far (and reset the others' scratch).
        let kept = 0;
        for (let i = 0; i < nt; i++) {
          const s = touched[i];
          if (hits[s] === j + 1) touched[kept++] = s;
          else {
            hits[s] = 0;
            acc[s] = 0;
          }
        }
        nt = kept;
      }
    }
    return nt;
  }

  private clearTouched(n: number): void {
    for (let i = 0; i < n; i++) {
      const s = this.touched[i];
      this.acc[s] = 0;
      this.hits[s] = 0;
    }
  }

  private postingCount(ids: readonly number[]): number {
    let n = 0;
    for (const id of ids) n += this.meta[id * TERM_STRIDE + P_LEN];
    return n;
  }

  private searchOr(terms: readonly string[], mask: Uint8Array, k: number): KeywordHit[] {
    const ids = this.lookup(terms, false)!;
    if (!ids.length) return [];
    if (ids.length > 1 && this.postingCount(ids) >= this.maxScoreMinPostings) {
      const hits = this.searchOrMaxScore(ids, mask, k);
      if (hits) return hits;
    }
    if (this.blockedIsCheaper(ids)) return this.searchOrBlocked(ids, mask, k);
    this.scratch();
    const { acc, touched, docLen, pool } = this;
    const k1p1 = this.k1 + 1;
    const c0 = this.k1 * (1 - this.b);
    const c1 = (this.k1 * this.b * this.docCount) / this.totalLen || 0;
    const maskLen = mask.length;
    let nt = 0;
    for (const id of ids) {
      const w = this.idf(this.meta[id * TERM_STRIDE + P_LEN]) * k1p1;
      const start = this.meta[id * TERM_STRIDE + P_START];
      const end = start + this.meta[id * TERM_STRIDE + P_LEN];
      for (let p = start; p < end; p++) {
        const s = pool[p] >>> 8;
        if (s >= maskLen || mask[s] !== 1) continue;
        let tf = pool[p] & 0xff;
        if (tf === TF_CAPPED) tf = this.recordTf(s, id);
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

  /**
   * Whether the query terms' postings are dense in the slot range they span (common words in a
   * large collection): then {@link searchOrBlocked}'s scan of the range costs less than tracking
   * each touched slot.
   */
  private blockedIsCheaper(ids: readonly number[]): boolean {
    if (this.blockedOrMinPostings === 0) return true;
    const { first, last, postings } = this.postingSpan(ids);
    return postings >= this.blockedOrMinPostings && postings * BLOCKED_DENSITY >= last - first + 1;
  }

  /** The lowest and highest slot the terms' postings cover, and how many postings they hold. */
  private postingSpan(ids: readonly number[]): { first: number; last: number; postings: number } {
    let first = MAX_KEYWORD_SLOTS;
    let last = -1;
    let postings = 0;
    for (const id of ids) {
      const start = this.meta[id * TERM_STRIDE + P_START];
      const len = this.meta[id * TERM_STRIDE + P_LEN];
      first = Math.min(first, this.pool[start] >>> 8);
      last = Math.max(last, this.pool[start + len - 1] >>> 8);
      postings += len;
    }
    return { first, last, postings };
  }

  /**
   * OR by term-at-a-time accumulation, one block of slots at a time, in WebAssembly
   * ({@link OrAccumulator}): every term's postings that fall in the block are added into a
   * block-sized accumulator (it stays in the core's cache across terms, where a collection-sized
   * one is evicted between terms), then the block is scanned for scores at least the heap's
   * floor. No per-posting bookkeeping of touched slots (an unpredictable branch when most slots
   * match); the filter is checked only for the slots that could enter the heap. Terms are added
   * in query order with the same float operations, so the sums are bit-identical to
   * {@link searchOr}'s.
   */
  private searchOrBlocked(ids: readonly number[], mask: Uint8Array, k: number): KeywordHit[] {
    const m = ids.length;
    const k1p1 = this.k1 + 1;
    const c0 = this.k1 * (1 - this.b);
    const c1 = (this.k1 * this.b * this.docCount) / this.totalLen || 0;
    const { pool, docLen } = this;
    const maskLen = mask.length;
    const terms: OrTerm[] = [];
    const cur = new Int32Array(m);
    const end = new Int32Array(m);
    for (let j = 0; j < m; j++) {
      const id = ids[j];
      terms.push({ w: this.idf(this.meta[id * TERM_STRIDE + P_LEN]) * k1p1, c0, c1 });
      cur[j] = this.meta[id * TERM_STRIDE + P_START];
      end[j] = cur[j] + this.meta[id * TERM_STRIDE + P_LEN];
    }
    const { first, last } = this.postingSpan(ids);
    const block = this.orBlock;
    const kernel = (this.orAccumulator ??= new OrAccumulator(block));
    const acc = kernel.acc;
    const heap = new TopK(k);
    for (let base = first; base <= last; base += block) {
      const limit = Math.min(base + block, last + 1);
      kernel.begin(docLen.subarray(base, limit));
      for (let j = 0; j < m; j++) {
        const from = cur[j];
        const to = from + lowerBound(pool, from, Math.min(end[j], from + block), limit);
        if (to === from) continue;
        const capped = kernel.add(pool.subarray(from, to), base, terms[j]);
        for (let c = 0; c < capped.length; c++) {
          const s = pool[from + capped[c]] >>> 8;
          const tf = this.recordTf(s, ids[j]);
          acc[s - base] += (terms[j].w * tf) / (tf + c0 + c1 * docLen[s]);
        }
        cur[j] = to;
      }
      const n = limit - base;
      // Scores are positive, so 0 means "no term here"; once the heap is full only a score at
      // least its floor can enter (ties are settled by slot inside push).
      const listed = kernel.collect(n, heap.full ? heap.worstScore : 0);
      for (let i = 0; i < listed.length; i++) {
        const s = base + listed[i];
        if (s < maskLen && mask[s] === 1) heap.push(s, acc[listed[i]]);
      }
      kernel.reset(n);
    }
    return heap.sorted();
  }

  /**
   * OR by MaxScore (Turtle & Flood): document at a time over the slot-sorted lists. A term's
   * contribution is below its weight `idf × (k1 + 1)`, so once the k-th best score θ exceeds the
   * summed weights of the weakest terms, those terms are only looked up (galloping) in documents
   * the stronger terms bring; documents whose bound cannot pass θ are dropped early. Slots come in
   * ascending order, so a document merely tying θ would lose the tie anyway. Scores are summed in
   * query-term order, as {@link searchOr}'s accumulation does, so they are bit-identical.
   */
  private searchOrMaxScore(ids: readonly number[], mask: Uint8Array, k: number): KeywordHit[] | null {
    const m = ids.length;
    const k1p1 = this.k1 + 1;
    const c0 = this.k1 * (1 - this.b);
    const c1 = (this.k1 * this.b * this.docCount) / this.totalLen || 0;
    const { pool, docLen } = this;
    const weight = ids.map((id) => this.idf(this.meta[id * TERM_STRIDE + P_LEN]) * k1p1);
    // Cursors in ascending weight order: order[0..essential) are the terms only looked up.
    const order = Array.from({ length: m }, (_, j) => j).sort((x, y) => weight[x] - weight[y]);
    const cur = new Int32Array(m);
    const end = new Int32Array(m);
    const bound = new Float64Array(m); // summed weights of order[0..i]
    for (let i = 0; i < m; i++) {
      const id = ids[order[i]];
      cur[i] = this.meta[id * TERM_STRIDE + P_START];
      end[i] = cur[i] + this.meta[id * TERM_STRIDE + P_LEN];
      bound[i] = (i > 0 ? bound[i - 1] : 0) + weight[order[i]];
    }
    const contrib = new Float64Array(m);
    const present = new Uint8Array(m);
    const heap = new TopK(k);
    const maskLen = mask.length;
    let essential = 0;
    // A document must score above theta to enter the heap. It starts from the exact scores of the
    // strongest term's documents (probed in their records): those are real candidates, so the
    // final k-th score is at least their k-th, and the weak terms are demoted from the start.
    let theta = this.seedThreshold(ids, weight, order[m - 1], mask, k);
    let skipped = 0;
    let total = 0;
    for (let i = 0; i < m; i++) {
      total += end[i] - cur[i];
      if (bound[i] < theta * (1 - 1e-12)) {
        essential = i + 1;
        skipped += end[i] - cur[i];
      }
    }
    // Walking documents costs a few times more per posting than accumulating term by term, and
    // every candidate gallops into each weak list: worth it only when the strong lists are short
    // next to all the postings (null: accumulate instead).
    if ((total - skipped) * (MAXSCORE_WALK_COST + MAXSCORE_GALLOP_COST * essential) > total) return null;
    /** Records list `i`'s posting in slot `d` as that term's contribution; returns it. */
    const credit = (i: number, posting: number, d: number): number => {
      let tf = posting & 0xff;
      if (tf === TF_CAPPED) tf = this.recordTf(d, ids[order[i]]);
      const c = (weight[order[i]] * tf) / (tf + c0 + c1 * docLen[d]);
      contrib[order[i]] = c;
      present[order[i]] = 1;
      return c;
    };
    for (;;) {
      let d = MAX_KEYWORD_SLOTS;
      for (let i = essential; i < m; i++) {
        if (cur[i] < end[i]) {
          const s = pool[cur[i]] >>> 8;
          if (s < d) d = s;
        }
      }
      if (d === MAX_KEYWORD_SLOTS) break;
      const wanted = d < maskLen && mask[d] === 1;
      let partial = 0;
      for (let i = essential; i < m; i++) {
        if (cur[i] >= end[i] || pool[cur[i]] >>> 8 !== d) continue;
        if (wanted) partial += credit(i, pool[cur[i]], d);
        cur[i]++;
      }
      if (!wanted) continue;
      let dropped = false;
      for (let i = essential - 1; i >= 0; i--) {
        if (partial + bound[i] < theta * (1 - 1e-12)) {
          dropped = true;
          break;
        }
        cur[i] = gallop(pool, cur[i], end[i], d);
        if (cur[i] < end[i] && pool[cur[i]] >>> 8 === d) partial += credit(i, pool[cur[i]], d);
      }
      let score = 0;
      for (let j = 0; j < m; j++) {
        if (present[j] === 0) continue;
        score += contrib[j];
        present[j] = 0;
      }
      if (dropped) continue;
      heap.push(d, score);
      if (heap.full && heap.worstScore > theta) {
        theta = heap.worstScore;
        while (essential < m && bound[essential] < theta * (1 - 1e-12)) essential++;
      }
    }
    return heap.sorted();
  }

  /**
   * The k-th best exact score among the (masked) documents of query term `strongest`, or -Infinity
   * when it has fewer than k of them or too many to probe cheaply.
   */
  private seedThreshold(ids: readonly number[], weight: readonly number[], strongest: number, mask: Uint8Array, k: number): number {
    const id = ids[strongest];
    const start = this.meta[id * TERM_STRIDE + P_START];
    const len = this.meta[id * TERM_STRIDE + P_LEN];
    if (len < k || len > SEED_MAX_POSTINGS) return -Infinity;
    const c0 = this.k1 * (1 - this.b);
    const c1 = (this.k1 * this.b * this.docCount) / this.totalLen || 0;
    const { pool, rec, docLen } = this;
    const seeds = new TopK(k);
    for (let p = start; p < start + len; p++) {
      const s = pool[p] >>> 8;
      if (s >= mask.length || mask[s] !== 1) continue;
      const at = this.recAt[s] - 1;
      const u = rec[at];
      const bits = entryBits(rec[at + 1], true);
      let score = 0;
      for (let j = 0; j < ids.length; j++) {
        const li = search(rec, at + HEAD, u, ids[j]);
        if (li < 0) continue;
        const tf = entry(rec, at + HEAD + u, li, bits);
        score += (weight[j] * tf) / (tf + c0 + c1 * docLen[s]);
      }
      seeds.push(s, score);
    }
    return seeds.full ? seeds.worstScore : -Infinity;
  }

  private searchAnd(terms: readonly string[], mask: Uint8Array, k: number): KeywordHit[] {
    const ids = this.lookup(terms, true);
    if (!ids || !ids.length) return [];
    ids.sort((x, y) => this.meta[x * TERM_STRIDE + P_LEN] - this.meta[y * TERM_STRIDE + P_LEN]);
    const m = ids.length;
    const weights = ids.map((id) => this.idf(this.meta[id * TERM_STRIDE + P_LEN]) * (this.k1 + 1));
    const c0 = this.k1 * (1 - this.b);
    const c1 = (this.k1 * this.b * this.docCount) / this.totalLen || 0;
    const { docLen, pool } = this;
    const heap = new TopK(k);
    if (m > 1 && this.countingIsCheaper(ids)) {
      const n = this.countAll(ids, mask, weights);
      for (let i = 0; i < n; i++) {
        const s = this.touched[i];
        if (this.hits[s] === m) heap.push(s, this.acc[s]);
      }
      this.clearTouched(n);
      return heap.sorted();
    }
    const start = this.meta[ids[0] * TERM_STRIDE + P_START];
    const end = start + this.meta[ids[0] * TERM_STRIDE + P_LEN];
    const maskLen = mask.length;
    outer: for (let p = start; p < end; p++) {
      const s = pool[p] >>> 8;
      if (s >= maskLen || mask[s] !== 1) continue;
      const norm = c0 + c1 * docLen[s];
      let tf = pool[p] & 0xff;
      if (tf === TF_CAPPED) tf = this.recordTf(s, ids[0]);
      let score = (weights[0] * tf) / (tf + norm);
      if (m > 1) {
        const rec = this.rec;
        const at = this.recAt[s] - 1;
        const u = rec[at];
        const base = at + HEAD + u;
        const bits = entryBits(rec[at + 1], true);
        for (let j = 1; j < m; j++) {
          const li = search(rec, at + HEAD, u, ids[j]);
          if (li < 0) continue outer;
          tf = entry(rec, base, li, bits);
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
    const distinct = [...new Set(ids)].sort((x, y) => this.meta[x * TERM_STRIDE + P_LEN] - this.meta[y * TERM_STRIDE + P_LEN]);
    // Candidates: documents with every distinct term (by counting when cheaper), else all of the
    // rarest term's documents. Masked or not: the phrase's document frequency is a collection statistic.
    let candidates: Int32Array;
    let nc: number;
    if (distinct.length > 1 && this.countingIsCheaper(distinct)) {
      const n = this.countAll(distinct, null, null);
      candidates = new Int32Array(n);
      nc = 0;
      for (let i = 0; i < n; i++) if (this.hits[this.touched[i]] === distinct.length) candidates[nc++] = this.touched[i];
      this.clearTouched(n);
    } else {
      const start = this.meta[distinct[0] * TERM_STRIDE + P_START];
      nc = this.meta[distinct[0] * TERM_STRIDE + P_LEN];
      candidates = new Int32Array(nc);
      for (let i = 0; i < nc; i++) candidates[i] = this.pool[start + i] >>> 8;
    }
    const m = ids.length;
    const nd = distinct.length;
    const slotOf = ids.map((id) => distinct.indexOf(id)); // query position -> distinct index
    const distinctLocal = new Int32Array(nd);
    const qLocal = new Int32Array(m);
    const hitSlots: number[] = [];
    const hitTf: number[] = [];
    const rec = this.rec;
    let df = 0;
    verify: for (let c = 0; c < nc; c++) {
      const s = candidates[c];
      const at = this.recAt[s] - 1;
      const u = rec[at];
      for (let d = 0; d < nd; d++) {
        const li = search(rec, at + HEAD, u, distinct[d]);
        if (li < 0) continue verify;
        distinctLocal[d] = li;
      }
      for (let i = 0; i < m; i++) qLocal[i] = distinctLocal[slotOf[i]];
      const seq = at + HEAD + u; // token i is entry u + i of the packed area
      const last = rec[at + 1] - m;
      let tf = 0;
      const bits = entryBits(rec[at + 1], true);
      if (bits === 8) {
        for (let i = 0; i <= last; i++) {
          if (unpack8(rec, seq, u + i) !== qLocal[0]) continue;
          let j = 1;
          while (j < m && unpack8(rec, seq, u + i + j) === qLocal[j]) j++;
          if (j === m) tf++;
        }
      } else {
        for (let i = 0; i <= last; i++) {
          if (entry(rec, seq, u + i, bits) !== qLocal[0]) continue;
          let j = 1;
          while (j < m && entry(rec, seq, u + i + j, bits) === qLocal[j]) j++;
          if (j === m) tf++;
        }
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

/** Width of a record's packed entries (term frequencies, then token sequence) for a document of `n` tokens. */
function entryBits(n: number, inMemory: boolean): 8 | 16 | 32 {
  if (n > MAX_PACKED) return 32;
  return inMemory && n <= MAX_BYTE_PACKED ? 8 : 16;
}

function packedWords(entries: number, bits: number): number {
  return bits === 8 ? (entries + 3) >> 2 : bits === 16 ? (entries + 1) >> 1 : entries;
}

/** Words of an in-memory record with `u` distinct terms and `n` tokens. */
function recordLength(u: number, n: number): number {
  return HEAD + u + packedWords(u + n, entryBits(n, true));
}

/** Words of a persisted record with `u` distinct terms and `n` tokens. */
function storedLength(u: number, n: number): number {
  return HEAD + u + packedWords(u + n, entryBits(n, false));
}

function checkSlot(slot: number): void {
  if (!(slot >= 0 && slot < MAX_KEYWORD_SLOTS)) {
    throw new RangeError(`keyword index: slot ${slot} is out of range (a collection holds at most ${MAX_KEYWORD_SLOTS - 1} documents: postings pack the slot into 24 bits)`);
  }
}

/** Position of the posting for `slot` in the sorted postings `a[from..to)`, or -1. */
function findPosting(a: Int32Array, from: number, to: number, slot: number): number {
  const at = from + lowerBound(a, from, to, slot);
  return at < to && a[at] >>> 8 === slot ? at : -1;
}

/** The first position at or after `from` (and before `to`) whose slot is at least `slot`, by galloping. */
function gallop(a: Int32Array, from: number, to: number, slot: number): number {
  if (from >= to || a[from] >>> 8 >= slot) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < to && a[hi] >>> 8 < slot) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > to) hi = to;
  return lo + 1 + lowerBound(a, lo + 1, hi, slot);
}

/** How many postings in the sorted `a[from..to)` have a slot below `slot`. */
function lowerBound(a: Int32Array, from: number, to: number, slot: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] >>> 8 < slot) lo = mid + 1;
    else hi = mid;
  }
  return lo - from;
}

/** Entry `i` of the packed area starting at word `base`, `bits` wide. */
function entry(data: Int32Array, base: number, i: number, bits: number): number {
  if (bits === 8) return unpack8(data, base, i);
  if (bits === 16) return (data[base + (i >> 1)] >>> ((i & 1) << 4)) & 0xffff;
  return data[base + i];
}

function unpack8(data: Int32Array, base: number, i: number): number {
  return (data[base + (i >> 2)] >>> ((i & 3) << 3)) & 0xff;
}

/** Sets entry `i` of a zeroed packed area. */
function setEntry(data: Int32Array, base: number, i: number, bits: number, value: number): void {
  if (bits === 8) data[base + (i >> 2)] |= value << ((i & 3) << 3);
  else if (bits === 16) data[base + (i >> 1)] |= value << ((i & 1) << 4);
  else data[base + i] = value;
}

/** Copies `count` entries between packed areas of different widths (the destination zeroed). */
function repack(src: Int32Array, srcBase: number, srcBits: number, dst: Int32Array, dstBase: number, dstBits: number, count: number): void {
  if (srcBits === dstBits) {
    const words = packedWords(count, srcBits);
    dst.set(src.subarray(srcBase, srcBase + words), dstBase);
    return;
  }
  if (srcBits === 16 && dstBits === 8) {
    // Two source words (four 16-bit entries, each < 256 here) make one destination word.
    const words = (count + 3) >> 2;
    for (let w = 0; w < words; w++) {
      const lo = src[srcBase + 2 * w];
      const hi = 2 * w + 1 < (count + 1) >> 1 ? src[srcBase + 2 * w + 1] : 0;
      dst[dstBase + w] = (lo & 0xff) | ((lo >>> 8) & 0xff00) | ((hi & 0xff) << 16) | ((hi >>> 16) << 24);
    }
    return;
  }
  for (let i = 0; i < count; i++) setEntry(dst, dstBase, i, dstBits, entry(src, srcBase, i, srcBits));
}

/**
 * Term string -> dense id: open addressing over a 64-bit hash (two independent 32-bit string
 * hashes), hash and id side by side so a probe touches one cache line, no strings kept. Two
 * distinct terms merge only if both hashes collide (probability ≈ n² / 2⁶⁵: ~3·10⁻⁸ for a
 * million distinct terms).
 */
class TermDictionary {
  /** [h1, h2, id + 1] per cell; id + 1 = 0 marks an empty cell. */
  private table = new Int32Array(3 << 12);
  private used = 0;
  private next = 0;

  /** One past the highest id. */
  get size(): number {
    return this.next;
  }

  /** The id of `term`, or -1. */
  find(term: string): number {
    return this.table[this.cell(term, 0, term.length) + 2] - 1;
  }

  /** The id of `term`, assigning the next id when it is new. */
  intern(term: string): number {
    return this.internRange(term, 0, term.length);
  }

  /** {@link intern} of `text.slice(start, end)`, without making the slice. */
  internRange(text: string, start: number, end: number): number {
    const cell = this.cell(text, start, end);
    const existing = this.table[cell + 2];
    return existing !== 0 ? existing - 1 : this.put(cell, this.next);
  }

  /** Registers `term` with a known id (restoring a persisted vocabulary). */
  define(term: string, id: number): void {
    const cell = this.cell(term, 0, term.length);
    if (this.table[cell + 2] === 0) this.put(cell, id);
  }

  private put(cell: number, id: number): number {
    this.table[cell] = hashA;
    this.table[cell + 1] = hashB;
    this.table[cell + 2] = id + 1;
    if (id >= this.next) this.next = id + 1;
    if (2 * 3 * ++this.used > this.table.length) this.rehash();
    return id;
  }

  /** The cell holding the term `text.slice(start, end)`, or the empty cell where it belongs; leaves its hashes in hashA / hashB. */
  private cell(text: string, start: number, end: number): number {
    let a = 0x811c9dc5;
    let b = 0x9747b28c ^ (end - start);
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    hashA = a;
    hashB = b;
    const table = this.table;
    const mask = table.length / 3 - 1;
    for (let i = (a ^ (b >>> 7)) & mask; ; i = (i + 1) & mask) {
      const at = 3 * i;
      if (table[at + 2] === 0 || (table[at] === a && table[at + 1] === b)) return at;
    }
  }

  private rehash(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    const mask = table.length / 3 - 1;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] === 0) continue;
      let i = (old[at] ^ (old[at + 1] >>> 7)) & mask;
      while (table[3 * i + 2] !== 0) i = (i + 1) & mask;
      table[3 * i] = old[at];
      table[3 * i + 1] = old[at + 1];
      table[3 * i + 2] = old[at + 2];
    }
    this.table = table;
  }
}

/** Tokens in a space-separated token list (as the parse workers send them): no empty tokens. */
function countTokens(joined: string): number {
  if (joined.length === 0) return 0;
  let n = 1;
  for (let at = joined.indexOf(' '); at >= 0; at = joined.indexOf(' ', at + 1)) n++;
  return n;
}

/** Out-parameters of TermDictionary.cell (avoids allocating a pair per lookup). */
let hashA = 0;
let hashB = 0;

function growInt32(a: Int32Array, min: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(min, a.length * 2));
  next.set(a);
  return next;
}

/** Index of `value` among the `n` sorted words starting at `from`, relative to `from`; or -1. */
function search(a: Int32Array, from: number, n: number, value: number): number {
  let lo = from;
  let hi = from + n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid];
    if (v < value) lo = mid + 1;
    else if (v > value) hi = mid - 1;
    else return mid - from;
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

  get full(): boolean {
    return this.n === this.k;
  }

  /** The lowest score kept (meaningful once {@link full}). */
  get worstScore(): number {
    return this.scores[0];
  }

  /** True when (score a, slot sa) ranks below (score b, slot sb). */
  private static worse(a: number, sa: number, b: number, sb: number): boolean {
    return a < b || (a === b && sa > sb);
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
