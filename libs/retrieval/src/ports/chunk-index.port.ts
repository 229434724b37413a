import type { IndexFilter, WorkspaceScope } from './index-filter';
import type { PointIndex, IndexedPoint } from './point-index.port';

/** What is stored with every code chunk and returned with every hit. */
export interface ChunkPayload {
  workspaceId: string;
  repoId: string;
  path: string;
  lang: string | null;
  chunkType: string;
  name: string | null;
  symbol: string | null;
  symbols: string[];
  parentId: string | null;
  signature: string | null;
  startLine: number;
  endLine: number;
  startByte: number;
  endByte: number;
  contentHash: string;
  content: string;
}

/** A chunk to upsert: `id` is a UUID (chunk ids are UUIDv5), `text` is what keyword search indexes. */
export type ChunkPoint = IndexedPoint<ChunkPayload>;

/**
 * Port for the code-chunk index (dense + BM25 keyword + payload filters). Implemented by
 * `EmbeddedChunkIndex` (SQLite + in-memory int8) and `QdrantChunkIndex`; both pass the
 * shared contract suite in `apps/api/test/storage/chunk-index.contract.ts`.
 *
 * @example
 * await chunks.upsert([{ id, vector, text: chunk.content, payload }]);
 * const hits = await chunks.searchKeyword('parseHttpResponse', { workspaceId: 'ws1' }, 10, { mode: 'and' });
 */
export type ChunkIndex = PointIndex<ChunkPayload, IndexFilter>;

/** DI token the lead wires adapters to (`@Inject(CHUNK_INDEX)`). */
export const CHUNK_INDEX = Symbol.for('sextant.ChunkIndex');

export type { WorkspaceScope };
