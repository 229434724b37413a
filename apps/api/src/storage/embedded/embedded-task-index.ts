import type Database from 'better-sqlite3';
import { validateTaskFilter, type IndexHealth, type TaskFilter, type TaskIndex, type TaskPayload } from '@sextant/retrieval';
import { CollectionIndex } from '../collection-index';
import { EmbeddedCollection, type CollectionQuery } from './embedded-collection';

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
export class EmbeddedTaskIndex extends CollectionIndex<TaskPayload, TaskFilter, CollectionQuery, EmbeddedCollection<TaskPayload>> implements TaskIndex {
  constructor(db: Database.Database, options: { dims?: number; name?: string } = {}) {
    // No `factFields`: a task search reads every field of every hit (title, files, dates), so one
    // batched read per search costs less than reading rows one by one on first use.
    super(new EmbeddedCollection<TaskPayload>(db, { name: options.name ?? 'tasks', keyCount: 4, facts: taskFacts, dims: options.dims }), 'TaskIndex', toTaskQuery);
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
