/** DI tokens owned by the Indexing module. */
export const PARSE_POOL = Symbol.for('sextant.ParsePool');
export const INDEX_EMBEDDINGS = Symbol.for('sextant.IndexEmbeddings');

/** Embeds chunk texts through the embedding cache; unchanged content is never embedded twice. */
export interface IndexEmbeddings {
  embedChunks(items: Array<{ text: string; contentHash: string }>, signal?: AbortSignal): Promise<{ vectors: Float32Array[]; hits: number; embedded: number }>;
}

/** Internal event names (the realtime gateway forwards them to sockets). */
export const IndexEvents = {
  Progress: 'index.progress',
  Done: 'index.done',
  Error: 'index.error',
} as const;
