import type Database from 'better-sqlite3';
import {
  validateTaskFilter,
  validateK,
  assertWorkspaceScope,
  type DenseSearchOptions,
  type IndexHealth,
  type KeywordSearchOptions,
  type ScoredPoint,
  type StoredPoint,
  type TaskFilter,
  type TaskIndex,
  type TaskPayload,
  type TaskPoint,
  type WorkspaceScope,
} from '@sextant/retrieval';
import { EmbeddedCollection, type CollectionQuery } from './embedded-collection';
import { keywordMode } from './embedded-chunk-index';

/** Task facts: keys = [workspaceId, source, status, repoId]. */
export function taskFacts(p: TaskPayload) {
  return { keys: [p.workspaceId, p.source, p.status, p.repoId ?? null], path: null, tags: [] as string[] };
}

function toTaskQuery(filter: TaskFilter, operation: string): CollectionQuery {
  validateTaskFilter(filter, operation);
  return { keyValues: [[filter.workspaceId], filter.sources, filter.statuses, filter.repoIds], ids: filter.ids };
}

/**
 * `TaskIndex` on the embedded store; same engine as `EmbeddedChunkIndex`.
 *
 * @example
 * const similar = await store.tasks.searchKeyword('flaky login test', { workspaceId: 'ws1' }, 20, { mode: 'or' });
 */
export class EmbeddedTaskIndex implements TaskIndex {
  private readonly collection: EmbeddedCollection<TaskPayload>;

  constructor(db: Database.Database, options: { dims?: number; name?: string } = {}) {
    this.collection = new EmbeddedCollection<TaskPayload>(db, { name: options.name ?? 'tasks', keyCount: 4, facts: taskFacts, dims: options.dims });
  }

  async upsert(points: readonly TaskPoint[]): Promise<void> {
    this.collection.upsert(points);
  }

  async delete(filter: TaskFilter): Promise<number> {
    return this.collection.deleteWhere(toTaskQuery(filter, 'TaskIndex.delete'));
  }

  async get(ids: readonly string[], scope: WorkspaceScope): Promise<StoredPoint<TaskPayload>[]> {
    assertWorkspaceScope(scope, 'TaskIndex.get');
    return this.collection.get(ids, scope.workspaceId);
  }

  async count(filter: TaskFilter): Promise<number> {
    return this.collection.count(toTaskQuery(filter, 'TaskIndex.count'));
  }

  async searchDense(vector: Float32Array | number[], filter: TaskFilter, k: number, options?: DenseSearchOptions): Promise<ScoredPoint<TaskPayload>[]> {
    const q = toTaskQuery(filter, 'TaskIndex.searchDense');
    validateK(k, 'TaskIndex.searchDense');
    return this.collection.searchDense(vector, q, k, options);
  }

  async searchKeyword(query: string, filter: TaskFilter, k: number, options?: KeywordSearchOptions): Promise<ScoredPoint<TaskPayload>[]> {
    const q = toTaskQuery(filter, 'TaskIndex.searchKeyword');
    validateK(k, 'TaskIndex.searchKeyword');
    return this.collection.searchKeyword(query, q, k, keywordMode(options, 'TaskIndex.searchKeyword'));
  }

  async health(): Promise<IndexHealth> {
    return { ok: true, backend: 'embedded', points: this.collection.size };
  }

  /** Marks the collection's float-vector file clean; the owning store calls it before closing the database. */
  closeFiles(): void {
    this.collection.closeFiles();
  }

  async close(): Promise<void> {}
}
