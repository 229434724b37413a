import { HttpException, HttpStatus } from '@nestjs/common';
import { problem, PROBLEM_CONTENT_TYPE, type Problem, type ProblemIssue } from '@sextant/contracts';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from './database-errors';
import { DomainError, DomainErrorCode } from './domain-error';
import { requestIdOf } from './request-id';

const STATUS_BY_DOMAIN_CODE: Record<DomainErrorCode, number> = {
  [DomainErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [DomainErrorCode.InvalidInput]: HttpStatus.BAD_REQUEST,
  [DomainErrorCode.Conflict]: HttpStatus.CONFLICT,
  [DomainErrorCode.Forbidden]: HttpStatus.FORBIDDEN,
  [DomainErrorCode.Unauthenticated]: HttpStatus.UNAUTHORIZED,
  [DomainErrorCode.PathNotAllowed]: HttpStatus.FORBIDDEN,
  [DomainErrorCode.Unavailable]: HttpStatus.SERVICE_UNAVAILABLE,
};

/** The code of an HTTP status that no more specific error named. */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/** What clients are asked to wait before retrying a 503. */
export const RETRY_AFTER_S = 5;

/** The HTTP status a domain error code maps to (sockets and MCP use it to fill `status`). */
export function statusOfDomainCode(code: DomainErrorCode): number {
  return STATUS_BY_DOMAIN_CODE[code];
}

export function codeOfStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

/** A body-parser (raw-body) failure: JSON syntax, size, encoding. */
export function isBodyParserError(e: unknown): e is { status: number; type: string; message: string; limit?: number } {
  return typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number' && typeof (e as { type?: unknown }).type === 'string';
}

/**
 * Turns anything a request handler, guard, pipe or middleware threw into problem details;
 * `unexpected` is true when it was a bug (to be logged, its message never shown).
 */
export function problemFromError(err: unknown, requestId: string | null): { problem: Problem; unexpected: boolean; databaseDown: boolean } {
  if (err instanceof DomainError) {
    const status = STATUS_BY_DOMAIN_CODE[err.code];
    return { problem: problem(status, err.code, err.message, requestId, err.details ?? {}), unexpected: false, databaseDown: false };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const r = err.getResponse();
    const body = typeof r === 'string' ? { message: r } : (r as { message?: unknown; issues?: ProblemIssue[]; code?: unknown });
    const detail = Array.isArray(body.message) ? body.message.join('; ') : typeof body.message === 'string' ? body.message : err.message;
    const code = typeof body.code === 'string' ? body.code : codeOfStatus(status);
    return { problem: problem(status, code, detail, requestId, body.issues ? { issues: body.issues } : {}), unexpected: false, databaseDown: false };
  }
  if (isDatabaseUnavailable(err)) {
    return { problem: problem(503, 'database_unavailable', 'The database is not reachable right now; retry shortly', requestId), unexpected: false, databaseDown: true };
  }
  if (isBodyParserError(err)) {
    if (err.type === 'entity.too.large') return { problem: problem(413, 'payload_too_large', `Request body exceeds the ${err.limit}-byte limit`, requestId), unexpected: false, databaseDown: false };
    if (err.type === 'entity.parse.failed') return { problem: problem(400, 'invalid_json', `The body is not valid JSON: ${err.message}`, requestId), unexpected: false, databaseDown: false };
    return { problem: problem(err.status, codeOfStatus(err.status), err.message, requestId), unexpected: false, databaseDown: false };
  }
  return { problem: problem(500, 'internal_error', 'Internal server error', requestId), unexpected: true, databaseDown: false };
}

/**
 * Sends problem details as `application/problem+json` (RFC 9457), with `Retry-After` on 503.
 *
 * @example
 * return sendProblem(req, res, 415, 'unsupported_media_type', 'Request bodies must be JSON')
 */
export function sendProblem(req: Request, res: Response, status: number, code: string, detail: string, extra: Record<string, unknown> = {}): void {
  writeProblem(res, problem(status, code, detail, requestIdOf(req, res), extra));
}

export function writeProblem(res: Response, body: Problem): void {
  if (body.status === HttpStatus.SERVICE_UNAVAILABLE && !res.getHeader('Retry-After')) res.setHeader('Retry-After', String(RETRY_AFTER_S));
  res.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

/**
 * The problem fields a socket error event carries (`search:error`, `feedback:error`), with the
 * deprecated `error`/`message` aliases older clients read.
 */
export function socketProblem(err: unknown, fallbackDetail: string): { type: string; title: string; status: number; detail: string; code: string; error: string; message: string; unexpected: boolean } {
  const { problem: p, unexpected } = problemFromError(err, null);
  const detail = unexpected ? fallbackDetail : p.detail;
  return { type: p.type, title: p.title, status: p.status, detail, code: p.code, error: p.code, message: detail, unexpected };
}

/** A socket error for input that failed validation or a caller over its rate limit. */
export function socketRefusal(status: 400 | 429, detail: string): { type: string; title: string; status: number; detail: string; code: string; error: string; message: string } {
  const p = problem(status, codeOfStatus(status), detail, null);
  return { type: p.type, title: p.title, status, detail, code: p.code, error: p.code, message: detail };
}

/** The route that takes a whole task file, with its own body limit (`SEXTANT_IMPORT_BODY_LIMIT`). */
export const TASK_FILE_IMPORT_PATH = '/v1/tasks/import';

/**
 * Express error middleware placed right after the body parsers: their failures (malformed
 * JSON, too large, bad encoding) become problem details here, before Nest would flatten them
 * into a plain 400. On `/mcp` a body that is not JSON is JSON-RPC's parse error (-32700).
 */
export function bodyParserErrorHandler(err: unknown, req: Request, res: Response, next: (err?: unknown) => void): void {
  if (!isBodyParserError(err) || res.headersSent) return next(err);
  const { problem: p } = problemFromError(err, requestIdOf(req, res));
  if (err.type === 'entity.too.large') {
    const setting = req.originalUrl.split('?')[0] === TASK_FILE_IMPORT_PATH ? 'SEXTANT_IMPORT_BODY_LIMIT; the dashboard and sextant tasks import send a large file in parts, so only one task larger than the limit is refused' : 'SEXTANT_BODY_LIMIT';
    p.detail = `${p.detail} (${setting})`;
  }
  if (req.path === '/mcp' && err.type === 'entity.parse.failed') {
    res.status(400).json({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${p.detail}`, data: { status: 400, request_id: p.request_id } }, id: null });
    return;
  }
  writeProblem(res, p);
}
