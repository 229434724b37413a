import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The request's id: the client's `X-Request-Id` when it is sane, else a new UUID; assigned
 * once (first middleware), echoed as `X-Request-Id`, logged, and put in every error body.
 */
export function requestIdOf(req: IncomingMessage, res?: ServerResponse): string {
  const r = req as IncomingMessage & { id?: unknown };
  if (typeof r.id === 'string') return r.id;
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  r.id = id;
  if (res && !res.headersSent) res.setHeader('x-request-id', id);
  return id;
}

/** Express middleware giving every request its id before anything can refuse it. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  requestIdOf(req, res);
  next();
}
