/**
 * Errors the domain raises. Each transport (REST, socket, MCP, CLI) maps the code to its
 * own shape; the domain never throws HTTP errors.
 */
export enum DomainErrorCode {
  NotFound = 'not_found',
  InvalidInput = 'invalid_input',
  Conflict = 'conflict',
  Forbidden = 'forbidden',
  Unauthenticated = 'unauthenticated',
  PathNotAllowed = 'path_not_allowed',
  Unavailable = 'unavailable',
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string, id: string) => new DomainError(DomainErrorCode.NotFound, `${what} ${id} not found`, { id });
