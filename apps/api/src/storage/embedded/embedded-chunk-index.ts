import type Database from 'better-sqlite3';
import {
  validateIndexFilter,
  validateK,
  assertWorkspaceScope,
  InvalidFilterError,
  type ChunkIndex,
  type ChunkPayload,
  type ChunkPoint,
  type DenseSearchOptions,
  type IndexFilter,
  type IndexHealth,
  type KeywordSearchOptions,
  type ScoredPoint,
  type StoredPoint,
  type WorkspaceScope,
} from '@sextant/retrieval';
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

export function keywordMode(options: KeywordSearchOptions | undefined, operation: string) {
  const mode = options?.mode ?? 'and';
  if (mode !== 'and' && mode !== 'or' && mode !== 'phrase') throw new InvalidFilterError(`${operation}: mode must be 'and', 'or' or 'phrase', got ${JSON.stringify(mode)}`);
  return mode;
}

/**
 * `ChunkIndex` on the embedded store (SQLite + in-memory int8 vectors + in-memory BM25 index).
 *
 * @example
 * const store = openEmbeddedStore({ file: `${dataDir}/vectors.sqlite` });
 * await store.chunks.upsert(points);
 * const hits = await store.chunks.searchDense(vec, { workspaceId: 'ws1', langs: ['go'] }, 10);
 */
export class EmbeddedChunkIndex implements ChunkIndex {
  private readonly collection: EmbeddedCollection<ChunkPayload>;

  constructor(db: Database.Database, options: { dims?: number; name?: string } = {}) {
    this.collection = new EmbeddedCollection<ChunkPayload>(db, { name: options.name ?? 'chunks', keyCount: 4, facts: chunkFacts, dims: options.dims });
  }

  async upsert(points: readonly ChunkPoint[]): Promise<void> {
    this.collection.upsert(points);
  }

  async delete(filter: IndexFilter): Promise<number> {
    return this.collection.deleteWhere(toChunkQuery(filter, 'ChunkIndex.delete'));
  }

  async get(ids: readonly string[], scope: WorkspaceScope): Promise<StoredPoint<ChunkPayload>[]> {
    assertWorkspaceScope(scope, 'ChunkIndex.get');
    return this.collection.get(ids, scope.workspaceId);
  }

  async count(filter: IndexFilter): Promise<number> {
    return this.collection.count(toChunkQuery(filter, 'ChunkIndex.count'));
  }

  async searchDense(vector: Float32Array | number[], filter: IndexFilter, k: number, options?: DenseSearchOptions): Promise<ScoredPoint<ChunkPayload>[]> {
    const q = toChunkQuery(filter, 'ChunkIndex.searchDense');
    validateK(k, 'ChunkIndex.searchDense');
    return this.collection.searchDense(vector, q, k, options);
  }

  async searchKeyword(query: string, filter: IndexFilter, k: number, options?: KeywordSearchOptions): Promise<ScoredPoint<ChunkPayload>[]> {
    const q = toChunkQuery(filter, 'ChunkIndex.searchKeyword');
    validateK(k, 'ChunkIndex.searchKeyword');
    return this.collection.searchKeyword(query, q, k, keywordMode(options, 'ChunkIndex.searchKeyword'));
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
