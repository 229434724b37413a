import { contentHash as sha256Hex } from '../content-hash.util';
import { Embedder, EmbedderHealth } from '../embedder.port';
import { EmbeddingError } from '../embedding.error';
import { EmbeddingCache } from './embedding-cache.port';

/** One text to embed; pass `contentHash` when the caller already has it (it must be {@link sha256Hex contentHash}(text)). */
export interface EmbedChunkInput {
  text: string;
  contentHash?: string;
}

/** Counters since construction or `resetStats()`, per input item. */
export interface CachedEmbedderStats {
  /** Items answered from the cache. */
  hits: number;
  /** Items not in the cache. */
  misses: number;
  /** Texts actually sent to the wrapped embedder (fewer than misses when a batch repeats a text). */
  embedded: number;
}

export interface CachedEmbedderOptions {
  embedder: Embedder;
  cache: EmbeddingCache;
  /** Misses are embedded and stored in slices of this size, so a failure late in a big batch keeps the earlier work. Default 256. */
  writeBatchSize?: number;
}

/**
 * Puts an {@link EmbeddingCache} in front of any {@link Embedder}. Keys are (embedder id,
 * sha256 of the text), so unchanged chunks are never embedded twice — not after a restart,
 * a branch switch or a re-clone — and switching models never reuses a foreign vector.
 * Identical texts within one call are embedded once. Queries are passed straight through, and
 * so are documents of an embedder that declares itself not `cacheable` (cheaper to recompute).
 *
 * @example
 * const embedder = new CachedEmbedder({ embedder: new OpenAIEmbedder({ … }), cache: new SqliteEmbeddingCache({ path }) });
 * const vectors = await embedder.embedChunks(chunks.map((c) => ({ text: c.embedText, contentHash: c.contentHash })));
 * embedder.stats; // { hits: 980, misses: 20, embedded: 18 }
 */
export class CachedEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly semantic: boolean;
  private readonly embedder: Embedder;
  private readonly cache: EmbeddingCache;
  private readonly writeBatchSize: number;
  private counters: CachedEmbedderStats = { hits: 0, misses: 0, embedded: 0 };

  constructor({ embedder, cache, writeBatchSize = 256 }: CachedEmbedderOptions) {
    this.embedder = embedder;
    this.cache = cache;
    this.writeBatchSize = writeBatchSize;
    this.id = embedder.id;
    this.dimensions = embedder.dimensions;
    this.semantic = embedder.semantic ?? true;
  }

  get stats(): CachedEmbedderStats {
    return { ...this.counters };
  }

  resetStats(): void {
    this.counters = { hits: 0, misses: 0, embedded: 0 };
  }

  /** Vectors for `items`, in order; only texts missing from the cache reach the wrapped embedder. */
  async embedChunks(items: EmbedChunkInput[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (items.length === 0) return [];
    const hashes = items.map((item) => item.contentHash ?? sha256Hex(item.text));
    const unique = [...new Set(hashes)];
    const vectors = new Map<string, Float32Array>();
    const lookups = this.embedder.cacheable === false ? new Map<string, Float32Array>() : await this.cache.getMany(this.id, unique);
    for (const [hash, vector] of lookups) {
      if (vector.length === this.dimensions) vectors.set(hash, vector); // a wrong-length entry is treated as a miss
    }

    const missing = unique.filter((hash) => !vectors.has(hash));
    for (const hash of hashes) {
      if (vectors.has(hash)) this.counters.hits++;
      else this.counters.misses++;
    }
    if (missing.length > 0) {
      const textOf = new Map<string, string>();
      items.forEach((item, i) => {
        if (!textOf.has(hashes[i])) textOf.set(hashes[i], item.text);
      });
      for (let start = 0; start < missing.length; start += this.writeBatchSize) {
        const slice = missing.slice(start, start + this.writeBatchSize);
        const embedded = await this.embedder.embedDocuments(
          slice.map((hash) => textOf.get(hash)!),
          signal,
        );
        if (embedded.length !== slice.length) {
          throw new EmbeddingError('bad_response', `Embedder ${this.id} returned ${embedded.length} vectors for ${slice.length} texts`);
        }
        this.counters.embedded += slice.length;
        const entries: Array<[string, Float32Array]> = slice.map((hash, i) => [hash, embedded[i]]);
        if (this.embedder.cacheable !== false) await this.cache.putMany(this.id, entries);
        for (const [hash, vector] of entries) vectors.set(hash, vector);
      }
    }
    return hashes.map((hash) => vectors.get(hash)!);
  }

  embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return this.embedChunks(
      texts.map((text) => ({ text })),
      signal,
    );
  }

  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    return this.embedder.embedQuery(text, signal);
  }

  health(): Promise<EmbedderHealth> {
    return this.embedder.health();
  }

  async close(): Promise<void> {
    await this.embedder.close?.();
  }
}
