import { validateTaskFilter, type IndexHealth, type TaskFilter, type TaskIndex, type TaskPayload } from '@sextant/retrieval';
import { CollectionIndex } from '../collection-index';
import { KEYWORD_FIELD, QdrantCollection, type QdrantCondition, type QdrantQueryPlan } from './qdrant-collection';
import { makeQdrantClient, type QdrantIndexOptions } from './qdrant-chunk-index';

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
export class QdrantTaskIndex extends CollectionIndex<TaskPayload, TaskFilter, QdrantQueryPlan<TaskPayload>, QdrantCollection<TaskPayload>> implements TaskIndex {
  constructor(options: QdrantIndexOptions) {
    const prefix = options.prefix ?? 'sextant_';
    super(
      new QdrantCollection<TaskPayload>({
        client: makeQdrantClient(options),
        alias: `${prefix}tasks`,
        physical: `${prefix}tasks_v${options.version ?? 1}`,
        dims: options.dims,
        cluster: options.cluster,
        payloadIndexes: [
          { field: 'workspaceId', schema: { type: 'keyword', is_tenant: true } },
          { field: 'source', schema: 'keyword' },
          { field: 'status', schema: 'keyword' },
          { field: 'repoId', schema: 'keyword' },
          { field: 'files', schema: 'keyword' },
          { field: KEYWORD_FIELD, schema: { type: 'text', tokenizer: 'whitespace', lowercase: false, phrase_matching: true } },
        ],
      }),
      'TaskIndex',
      planTaskQuery,
    );
  }

  ensureCollections(): Promise<void> {
    return this.collection.ensure();
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
