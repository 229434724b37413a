import { InvalidFilterError, MissingWorkspaceError } from './index-errors';
import type { IndexFilter, TaskFilter, WorkspaceScope } from './index-filter';
import { pathPredicateFor, type PathPredicate } from './path-filter';

const MAX_LIST_VALUES = 1000;

function checkList(value: unknown, field: string): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) throw new InvalidFilterError(`${field} must be an array of strings`);
  if (value.length > MAX_LIST_VALUES) throw new InvalidFilterError(`${field}: ${value.length} values given (max ${MAX_LIST_VALUES})`);
  for (const v of value) if (typeof v !== 'string') throw new InvalidFilterError(`${field} must contain only strings`);
}

/**
 * Throws `MissingWorkspaceError` unless the scope names a workspace. Call it first in every
 * adapter method, before any I/O.
 *
 * @example
 * assertWorkspaceScope(filter, 'ChunkIndex.count');
 */
export function assertWorkspaceScope(scope: WorkspaceScope | undefined | null, operation: string): void {
  if (!scope || typeof scope.workspaceId !== 'string' || scope.workspaceId.trim() === '') throw new MissingWorkspaceError(operation);
}

/**
 * Validates an `IndexFilter` and compiles its globs. Throws `MissingWorkspaceError` or
 * `InvalidFilterError` (naming the bad field) before any I/O.
 *
 * @example
 * const { pathPredicate } = validateIndexFilter({ workspaceId: 'ws', include: ['src/**'] }, 'searchDense');
 */
export function validateIndexFilter(filter: IndexFilter, operation: string): { pathPredicate: PathPredicate | null } {
  assertWorkspaceScope(filter, operation);
  for (const f of ['repoIds', 'langs', 'chunkTypes', 'symbols', 'paths', 'ids'] as const) checkList(filter[f], f);
  return { pathPredicate: pathPredicateFor(filter) };
}

/** Validates a `TaskFilter` (see `validateIndexFilter`). */
export function validateTaskFilter(filter: TaskFilter, operation: string): void {
  assertWorkspaceScope(filter, operation);
  for (const f of ['sources', 'statuses', 'repoIds', 'ids'] as const) checkList(filter[f], f);
}

/** Most hits one index search returns. */
export const MAX_SEARCH_K = 1000;

/** Validates `k` for searches: a positive integer, at most {@link MAX_SEARCH_K}. */
export function validateK(k: number, operation: string): void {
  if (!Number.isInteger(k) || k < 1 || k > MAX_SEARCH_K) throw new InvalidFilterError(`${operation}: k must be an integer in 1..${MAX_SEARCH_K}, got ${k}`);
}
