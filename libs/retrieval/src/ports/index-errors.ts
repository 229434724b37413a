/**
 * Errors raised by every `ChunkIndex` / `TaskIndex` adapter before any I/O happens.
 * They carry a stable `code` so each transport (REST, MCP, socket) can map them.
 *
 * @example
 * try { await chunks.searchDense(vec, { workspaceId: '' }, 10); }
 * catch (e) { if (e instanceof MissingWorkspaceError) ... }
 */
export class MissingWorkspaceError extends Error {
  readonly code = 'MISSING_WORKSPACE' as const;
  constructor(operation: string) {
    super(`${operation}: filter.workspaceId is required (a non-empty string); every index call is scoped to one workspace`);
    this.name = 'MissingWorkspaceError';
  }
}

/** A filter that is well-typed but unusable: pathological glob, too many values, bad mode, wrong vector size. */
export class InvalidFilterError extends Error {
  readonly code = 'INVALID_FILTER' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidFilterError';
  }
}
