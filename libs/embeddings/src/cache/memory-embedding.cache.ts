import { EmbeddingCache } from './embedding-cache.port';

export interface MemoryEmbeddingCacheOptions {
  /** Entries kept before the least recently used are evicted. Default 50 000 (~77 MB at 384 dims). */
  maxEntries?: number;
}

/**
 * In-process LRU embedding cache, e.g. for query vectors or tests. Vectors are copied in
 * and out, so callers may mutate what they get without corrupting the cache.
 *
 * @example
 * const cache = new MemoryEmbeddingCache({ maxEntries: 10_000 });
 */
export class MemoryEmbeddingCache implements EmbeddingCache {
  private readonly entries = new Map<string, Float32Array>();
  private readonly maxEntries: number;

  constructor({ maxEntries = 50_000 }: MemoryEmbeddingCacheOptions = {}) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error(`MemoryEmbeddingCache maxEntries must be a positive integer, got ${maxEntries}`);
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.entries.size;
  }

  getMany(modelId: string, contentHashes: string[]): Map<string, Float32Array> {
    const found = new Map<string, Float32Array>();
    for (const hash of contentHashes) {
      const key = cacheKey(modelId, hash);
      const vector = this.entries.get(key);
      if (!vector) continue;
      this.entries.delete(key); // re-insert: Map order is the recency order
      this.entries.set(key, vector);
      found.set(hash, vector.slice());
    }
    return found;
  }

  putMany(modelId: string, entries: Array<[contentHash: string, vector: Float32Array]>): void {
    for (const [hash, vector] of entries) {
      const key = cacheKey(modelId, hash);
      this.entries.delete(key);
      this.entries.set(key, vector.slice());
    }
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

function cacheKey(modelId: string, contentHash: string): string {
  return `${modelId}\u0000${contentHash}`;
}
