import { createHash } from 'node:crypto';
import { TokenKind, visitTokens } from '@sextant/retrieval';
import { Embedder, EmbedderHealth } from '../embedder.port';
import { EmbeddingError } from '../embedding.error';
import { l2Normalize } from '../l2-normalize.util';

export interface HashEmbedderOptions {
  /** Vector length. Default 384 (the same as small sentence-transformer models, so storage sizing does not change when switching). */
  dimensions?: number;
  /** Character n-gram sizes taken from words and identifier parts. Default `[3]`; `[]` disables n-grams. */
  ngramSizes?: number[];
  /** Weight of all n-grams of one token together, relative to the token itself (1). Default 0.5. */
  ngramWeight?: number;
  /** Tokens shorter than this get no n-grams (the token feature already covers them). Default 4. */
  minNgramTokenLength?: number;
  /** Weight of a whole compound identifier (`getuserbyid`) relative to its parts. Default 1. */
  identifierWeight?: number;
  /** Drop English stop words that are plain words, in documents and queries alike. Default true. */
  removeStopWords?: boolean;
}

const DEFAULTS: Required<HashEmbedderOptions> = {
  dimensions: 384,
  ngramSizes: [3],
  ngramWeight: 0.5,
  minNgramTokenLength: 4,
  identifierWeight: 1,
  removeStopWords: true,
};

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const TOKEN_SEED = FNV_OFFSET;
const EMPTY_FEATURE = '\u0000empty';

/**
 * The default, offline embedder: feature hashing ("the hashing trick") of the shared
 * code-aware tokens. It is **lexical, not semantic** — two texts are close when they
 * share words, identifier parts or character n-grams, never because they mean the same
 * thing in different words (`remove` vs `delete` are unrelated to it). It needs no model,
 * no network and no GPU, is deterministic across machines and versions of Node, and
 * makes the dense path useful out of the box; use the `openai` provider for semantics.
 *
 * Features per text: every word and identifier part, every whole compound identifier
 * (with `_`/`$` removed so `get_user_by_id` and `getUserById` share it) and the
 * boundary-marked character n-grams (`<pa`, `par`, …) of words and parts, which lets
 * `parse`/`parser`/`parsing` overlap. Term counts are sublinear (1 + ln tf); each feature
 * lands in bucket `h mod dimensions` with the sign taken from the hash's top bit, so
 * collisions cancel out on average instead of piling up; the result is L2-normalised.
 *
 * @example
 * const embedder = new HashEmbedder(); // id 'hash-v1:384'
 * const [doc] = await embedder.embedDocuments(['async function getUserById(id: string) { … }']);
 * const query = await embedder.embedQuery('get user by id');
 * const cosine = doc.reduce((s, x, i) => s + x * query[i], 0);
 */
export class HashEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Re-hashing a chunk is cheaper than looking it up in the embedding cache. */
  readonly cacheable = false;
  readonly semantic = false;
  private readonly options: Required<HashEmbedderOptions>;
  private readonly ngramSeeds: number[];

  constructor(options: HashEmbedderOptions = {}) {
    const merged = { ...DEFAULTS, ...stripUndefined(options) };
    if (!Number.isInteger(merged.dimensions) || merged.dimensions < 2) {
      throw new EmbeddingError('config', `HashEmbedder dimensions must be an integer >= 2, got ${options.dimensions}`);
    }
    for (const n of merged.ngramSizes) {
      if (!Number.isInteger(n) || n < 1) throw new EmbeddingError('config', `HashEmbedder ngramSizes must be positive integers, got ${n}`);
    }
    this.options = merged;
    this.dimensions = merged.dimensions;
    this.ngramSeeds = merged.ngramSizes.map((n) => (FNV_OFFSET ^ Math.imul(n, 0x9e3779b9)) >>> 0);
    this.id = hashEmbedderId(merged);
  }

  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = new Array(texts.length);
    for (let i = 0; i < texts.length; i++) {
      if ((i & 255) === 0) throwIfAborted(signal);
      out[i] = this.embed(texts[i]);
    }
    return out;
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    throwIfAborted(signal);
    return this.embed(text);
  }

  async health(): Promise<EmbedderHealth> {
    return { ok: true, detail: `${this.id}: local feature hashing (lexical, no model)` };
  }

  /** Synchronous embedding of one text; documents and queries are treated alike. */
  embed(text: string): Float32Array {
    const { ngramWeight, minNgramTokenLength, identifierWeight, removeStopWords } = this.options;
    const counts = this.counts;
    counts.clear();
    visitTokens(text, this.countToken, { removeStopWords });

    const vector = new Float32Array(this.dimensions);
    if (counts.size === 0) {
      this.add(vector, hashString(EMPTY_FEATURE, TOKEN_SEED), 1);
      return l2Normalize(vector);
    }
    const useNgrams = ngramWeight > 0 && this.ngramSeeds.length > 0;
    for (let e = 0; e < counts.size; e++) {
      const slot = counts.used[e];
      const weight = 1 + Math.log(counts.tf[slot]);
      if (counts.identifier[slot] === 1) {
        this.add(vector, counts.hash[slot], identifierWeight * weight);
        continue;
      }
      this.add(vector, counts.hash[slot], weight);
      const term = counts.text[slot];
      if (useNgrams && term.length >= minNgramTokenLength) this.addNgrams(vector, term, weight * ngramWeight);
    }
    // A few features can cancel out exactly (same bucket, opposite signs): never return a zero vector.
    if (vector.every((x) => x === 0)) this.add(vector, hashString(EMPTY_FEATURE, TOKEN_SEED), 1);
    return l2Normalize(vector);
  }

  /** Counts a token under its feature hash; whole identifiers are hashed without `_`/`$`. */
  private readonly countToken = (token: string, kind: TokenKind): void => {
    if (kind === 'identifier') this.counts.increment(hashIdentifier(token), 1, token);
    else this.counts.increment(hashString(token, TOKEN_SEED), 0, token);
  };

  private readonly counts = new FeatureCounts();

  /** Adds the n-grams of `<term>` (boundary-marked, without building that string), scaled so all of them together weigh `weight`. */
  private addNgrams(vector: Float32Array, term: string, weight: number): void {
    const sizes = this.options.ngramSizes;
    const paddedLength = term.length + 2;
    let count = 0;
    for (const n of sizes) if (paddedLength >= n) count += paddedLength - n + 1;
    if (count === 0) return;
    const each = weight / Math.sqrt(count);
    for (let s = 0; s < sizes.length; s++) {
      const n = sizes[s];
      const seed = this.ngramSeeds[s];
      for (let start = 0; start + n <= paddedLength; start++) {
        let h = seed;
        for (let j = start; j < start + n; j++) {
          h ^= j === 0 ? 60 : j === paddedLength - 1 ? 62 : term.charCodeAt(j - 1);
          h = Math.imul(h, FNV_PRIME);
        }
        this.add(vector, fmix32(h), each);
      }
    }
  }

  private add(vector: Float32Array, hash: number, weight: number): void {
    vector[hash % this.dimensions] += hash & 0x80000000 ? -weight : weight;
  }
}

/** `hash-v1:<dims>` for the default feature set; any other option changes the vectors, so it gets its own id (and cache entries). */
function hashEmbedderId(options: Required<HashEmbedderOptions>): string {
  const { dimensions, ...rest } = options;
  const { dimensions: _d, ...defaults } = DEFAULTS;
  const base = `hash-v1:${dimensions}`;
  if (JSON.stringify(rest) === JSON.stringify(defaults)) return base;
  return `${base}:${createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 8)}`;
}

function hashString(s: string, seed: number): number {
  return hashRange(s, 0, s.length, seed);
}

/** FNV-1a over UTF-16 code units, then murmur3's finaliser so both the low bits (bucket) and the top bit (sign) are well mixed. */
function hashRange(s: string, start: number, end: number, seed: number): number {
  let h = seed;
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return fmix32(h);
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** {@link hashString} of the identifier with every `_` and `$` skipped, so `get_user_by_id` and `getuserbyid` collide on purpose. */
function hashIdentifier(s: string): number {
  let h = TOKEN_SEED;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 95 || c === 36) continue;
    h ^= c;
    h = Math.imul(h, FNV_PRIME);
  }
  return fmix32(h);
}

/**
 * Term counts of one text in a reusable open-addressing table keyed by (feature hash, is
 * identifier). A Map<string, number> spends most of the embedding time re-hashing freshly
 * sliced strings; this table reuses the feature hash we need anyway.
 */
class FeatureCounts {
  hash = new Uint32Array(1024);
  tf = new Uint32Array(1024);
  identifier = new Uint8Array(1024);
  occupied = new Uint8Array(1024);
  text: string[] = new Array(1024);
  used = new Uint32Array(512);
  size = 0;

  clear(): void {
    for (let e = 0; e < this.size; e++) this.occupied[this.used[e]] = 0;
    this.size = 0;
  }

  increment(hash: number, identifier: number, text: string): void {
    if (this.size * 2 >= this.hash.length) this.grow();
    const mask = this.hash.length - 1;
    let slot = hash & mask;
    while (this.occupied[slot] === 1) {
      if (this.hash[slot] === hash && this.identifier[slot] === identifier) {
        this.tf[slot]++;
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.occupied[slot] = 1;
    this.hash[slot] = hash;
    this.identifier[slot] = identifier;
    this.tf[slot] = 1;
    this.text[slot] = text;
    this.used[this.size++] = slot;
  }

  private grow(): void {
    const old = { hash: this.hash, tf: this.tf, identifier: this.identifier, text: this.text, used: this.used, size: this.size };
    const capacity = this.hash.length * 2;
    this.hash = new Uint32Array(capacity);
    this.tf = new Uint32Array(capacity);
    this.identifier = new Uint8Array(capacity);
    this.occupied = new Uint8Array(capacity);
    this.text = new Array(capacity);
    this.used = new Uint32Array(capacity / 2);
    this.size = 0;
    for (let e = 0; e < old.size; e++) {
      const slot = old.used[e];
      this.increment(old.hash[slot], old.identifier[slot], old.text[slot]);
      this.tf[this.used[this.size - 1]] = old.tf[slot];
    }
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new EmbeddingError('aborted', 'Embedding was aborted', { cause: signal.reason });
}
