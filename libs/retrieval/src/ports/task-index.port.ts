import type { TaskFilter } from './index-filter';
import type { PointIndex, IndexedPoint } from './point-index.port';

/** What is stored with every past task (issue, ticket, commit) and returned with every hit. */
export interface TaskPayload {
  workspaceId: string;
  taskId: string;
  title: string;
  files: string[];
  status: string | null;
  source: string;
  createdAt: string | null;
  /** Optional: the repository the task belongs to (matched by `TaskFilter.repoIds`). */
  repoId?: string | null;
}

/** A task to upsert: `id` is a UUID, `text` (title + body) is what keyword search indexes. */
export type TaskPoint = IndexedPoint<TaskPayload>;

/**
 * Port for the task-history index; same operations and guarantees as `ChunkIndex`.
 *
 * @example
 * const similar = await tasks.searchDense(queryVector, { workspaceId: 'ws1', statuses: ['closed'] }, 20);
 */
export type TaskIndex = PointIndex<TaskPayload, TaskFilter>;

/** DI token for the task index. */
export const TASK_INDEX = Symbol.for('sextant.TaskIndex');
