/** Result of {@link Embedder.health}: `detail` says what was checked or what went wrong. */
export interface EmbedderHealth {
  ok: boolean;
  detail?: string;
}

/**
 * Turns text into dense, L2-normalised vectors. Every provider (hash, openai) and the
 * caching decorator implement this port, so the indexer and search never know which one runs.
 *
 * @example
 * const embedder: Embedder = new HashEmbedder();
 * const [doc] = await embedder.embedDocuments(['function getUserById(id) {}']);
 * const query = await embedder.embedQuery('get user by id');
 */
export interface Embedder {
  /** Stable model id including provider and dimensions (`hash-v1:384`, `openai:text-embedding-3-small:1536`); the embedding-cache key. */
  readonly id: string;
  /** Length of every vector this embedder returns. */
  readonly dimensions: number;
  /**
   * `false` when computing a vector costs less than a cache lookup and write (the hash embedder:
   * ~50 µs per chunk against ~170 µs for the SQLite cache): `CachedEmbedder` then passes documents
   * straight through. Default true: model and API embedders are always worth caching.
   */
  readonly cacheable?: boolean;
  /** True when vectors capture meaning (a trained model: openai, local), false for lexical feature hashing. */
  readonly semantic?: boolean;
  /** Embeds documents (chunks); the result has one unit-length vector per input, in input order. */
  embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Embeds one search query. */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
  /** Cheap readiness check for `GET /health`; never throws. */
  health(): Promise<EmbedderHealth>;
  /** Releases threads or connections, when the embedder holds any. */
  close?(): Promise<void>;
}
