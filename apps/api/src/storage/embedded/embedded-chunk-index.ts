import type Database from 'better-sqlite3';
import { validateIndexFilter, type ChunkIndex, type ChunkPayload, type IndexFilter, type IndexHealth } from '@sextant/retrieval';
import { CollectionIndex } from '../collection-index';
import { EmbeddedCollection, type CollectionQuery } from './embedded-collection';

/** Chunk facts: keys = [workspaceId, repoId, lang, chunkType]; tags = symbol + symbols. */
export function chunkFacts(p: ChunkPayload) {
  const tags = new Set<string>(p.symbols ?? []);
  if (p.symbol) tags.add(p.symbol);
  return { keys: [p.workspaceId, p.repoId, p.lang, p.chunkType], path: p.path, tags: [...tags] };
}

export function toChunkQuery(filter: IndexFilter, operation: string): CollectionQuery {
  const { pathPredicate } = validateIndexFilter(filter, operation);
  return {
    keyValues: [[filter.workspaceId], filter.repoIds, filter.langs, filter.chunkTypes],
    pathPredicate,
    paths: filter.paths,
    tags: filter.symbols,
    ids: filter.ids,
  };
}

/**
 * `ChunkIndex` on the embedded store (SQLite + in-memory int8 vectors + in-memory BM25 index).
 *
 * @example
 * const store = openEmbeddedStore({ file: `${dataDir}/vectors.sqlite` });
 * await store.chunks.upsert(points);
 * const hits = await store.chunks.searchDense(vec, { workspaceId: 'ws1', langs: ['go'] }, 10);
 */
export class EmbeddedChunkIndex extends CollectionIndex<ChunkPayload, IndexFilter, CollectionQuery, EmbeddedCollection<ChunkPayload>> implements ChunkIndex {
  constructor(db: Database.Database, options: { dims?: number; name?: string } = {}) {
    super(
      new EmbeddedCollection<ChunkPayload>(db, {
        name: options.name ?? 'chunks',
        keyCount: 4,
        facts: chunkFacts,
        factFields: { workspaceId: 0, repoId: 1, lang: 2, chunkType: 3, path: 'path' },
        dims: options.dims,
      }),
      'ChunkIndex',
      toChunkQuery,
    );
  }

  /** See `EmbeddedCollection.int8Matrix` (benchmarks only). */
  int8Matrix() {
    return this.collection.int8Matrix();
  }

  async health(): Promise<IndexHealth> {
    return { ok: true, backend: 'embedded', points: this.collection.size };
  }

  /** Marks the collection's float-vector file clean; the owning store calls it before closing the database. */
  closeFiles(): void {
    this.collection.closeFiles();
  }

  /** The owning store closes the database; an index alone has nothing to release. */
  async close(): Promise<void> {}
}
