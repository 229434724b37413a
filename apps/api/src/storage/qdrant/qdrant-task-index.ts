import type { QdrantClient } from './qdrant-client';
import {
  assertWorkspaceScope,
  validateK,
  validateTaskFilter,
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
import { KEYWORD_FIELD, QdrantCollection, type QdrantCondition, type QdrantQueryPlan } from './qdrant-collection';
import { keywordModeOf, makeQdrantClient, type QdrantIndexOptions } from './qdrant-chunk-index';

function planTaskQuery(filter: TaskFilter, operation: string): QdrantQueryPlan<TaskPayload> {
  validateTaskFilter(filter, operation);
  const must: QdrantCondition[] = [{ key: 'workspaceId', match: { value: filter.workspaceId } }];
  if (filter.sources?.length) must.push({ key: 'source', match: { any: filter.sources } });
  if (filter.statuses?.length) must.push({ key: 'status', match: { any: filter.statuses } });
  if (filter.repoIds?.length) must.push({ key: 'repoId', match: { any: filter.repoIds } });
  if (filter.ids?.length) must.push({ has_id: filter.ids });
  return { must, postFilter: null };
}

/**
 * `TaskIndex` on Qdrant (alias `<prefix>tasks` -> `<prefix>tasks_v1`).
 *
 * @example
 * const tasks = new QdrantTaskIndex({ url: process.env.QDRANT_URL, dims: 384 });
 * await tasks.ensureCollections();
 */
export class QdrantTaskIndex implements TaskIndex {
  private readonly collection: QdrantCollection<TaskPayload>;
  private readonly client: QdrantClient;

  constructor(options: QdrantIndexOptions) {
    this.client = makeQdrantClient(options);
    const prefix = options.prefix ?? 'sextant_';
    this.collection = new QdrantCollection<TaskPayload>({
      client: this.client,
      alias: `${prefix}tasks`,
      physical: `${prefix}tasks_v${options.version ?? 1}`,
      dims: options.dims,
      payloadIndexes: [
        { field: 'workspaceId', schema: { type: 'keyword', is_tenant: true } },
        { field: 'source', schema: 'keyword' },
        { field: 'status', schema: 'keyword' },
        { field: 'repoId', schema: 'keyword' },
        { field: 'files', schema: 'keyword' },
        { field: KEYWORD_FIELD, schema: { type: 'text', tokenizer: 'whitespace', lowercase: false, phrase_matching: true } },
      ],
    });
  }

  ensureCollections(): Promise<void> {
    return this.collection.ensure();
  }

  upsert(points: readonly TaskPoint[]): Promise<void> {
    return this.collection.upsert(points);
  }

  async delete(filter: TaskFilter): Promise<number | undefined> {
    return this.collection.deleteWhere(planTaskQuery(filter, 'TaskIndex.delete'));
  }

  async get(ids: readonly string[], scope: WorkspaceScope): Promise<StoredPoint<TaskPayload>[]> {
    assertWorkspaceScope(scope, 'TaskIndex.get');
    return this.collection.get(ids, scope.workspaceId);
  }

  async count(filter: TaskFilter): Promise<number> {
    return this.collection.count(planTaskQuery(filter, 'TaskIndex.count'));
  }

  async searchDense(vector: Float32Array | number[], filter: TaskFilter, k: number, options?: DenseSearchOptions): Promise<ScoredPoint<TaskPayload>[]> {
    const plan = planTaskQuery(filter, 'TaskIndex.searchDense');
    validateK(k, 'TaskIndex.searchDense');
    return this.collection.searchDense(vector, plan, k, options);
  }

  async searchKeyword(query: string, filter: TaskFilter, k: number, options?: KeywordSearchOptions): Promise<ScoredPoint<TaskPayload>[]> {
    const plan = planTaskQuery(filter, 'TaskIndex.searchKeyword');
    validateK(k, 'TaskIndex.searchKeyword');
    return this.collection.searchKeyword(query, plan, k, keywordModeOf(options, 'TaskIndex.searchKeyword'));
  }

  async health(): Promise<IndexHealth> {
    try {
      return { ok: true, backend: 'qdrant', points: await this.collection.pointCount() };
    } catch (e) {
      return { ok: false, backend: 'qdrant', detail: (e as Error).message };
    }
  }

  async close(): Promise<void> {}
}
