/**
 * Filters accepted by the index ports. `workspaceId` is mandatory: a call without it is a
 * programming error and throws `MissingWorkspaceError` before any I/O.
 *
 * Semantics (identical in every adapter, enforced by the contract suite):
 * - list fields match when the point's value is one of the listed values (empty list = no constraint);
 * - `include` globs: the path must match at least one; `exclude` globs: the path must match none
 *   (picomatch syntax, `dot: true`);
 * - `symbols`: the chunk's `symbol` or one of its `symbols` is listed (exact, case-sensitive);
 * - `paths`: exact path equality (use this, not globs, to address one file);
 * - `ids`: restrict to these point ids.
 *
 * @example
 * const f: IndexFilter = { workspaceId: 'ws1', langs: ['typescript'], include: ['src/**'], exclude: ['**\/*.spec.ts'] };
 */
export interface IndexFilter {
  workspaceId: string;
  repoIds?: string[];
  langs?: string[];
  chunkTypes?: string[];
  include?: string[];
  exclude?: string[];
  symbols?: string[];
  paths?: string[];
  ids?: string[];
}

/**
 * Filter for the task-history index. `repoIds` matches the task's optional `repoId`.
 *
 * @example
 * const f: TaskFilter = { workspaceId: 'ws1', sources: ['github'], statuses: ['closed'] };
 */
export interface TaskFilter {
  workspaceId: string;
  sources?: string[];
  statuses?: string[];
  repoIds?: string[];
  ids?: string[];
}

/** The minimum every read needs: which workspace the caller may see. */
export interface WorkspaceScope {
  workspaceId: string;
}
