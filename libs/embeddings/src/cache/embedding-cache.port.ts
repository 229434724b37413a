/**
 * Stores vectors by (model id, content hash). Implementations may be sync or async;
 * callers always `await` the results.
 *
 * @example
 * const cache: EmbeddingCache = new MemoryEmbeddingCache();
 * cache.putMany('hash-v1:384', [[contentHash(text), vector]]);
 * const found = await cache.getMany('hash-v1:384', [contentHash(text)]); // Map hash -> vector
 */
export interface EmbeddingCache {
  /** The cached vectors among `contentHashes` (missing ones are simply absent from the map). */
  getMany(modelId: string, contentHashes: string[]): Promise<Map<string, Float32Array>> | Map<string, Float32Array>;
  /** Stores (or replaces) vectors. */
  putMany(modelId: string, entries: Array<[contentHash: string, vector: Float32Array]>): void | Promise<void>;
}
