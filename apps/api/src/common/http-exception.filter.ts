import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from './database-errors';
import { DomainError, DomainErrorCode } from './domain-error';

const STATUS_BY_CODE: Record<DomainErrorCode, number> = {
  [DomainErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [DomainErrorCode.InvalidInput]: HttpStatus.BAD_REQUEST,
  [DomainErrorCode.Conflict]: HttpStatus.CONFLICT,
  [DomainErrorCode.Forbidden]: HttpStatus.FORBIDDEN,
  [DomainErrorCode.Unauthenticated]: HttpStatus.UNAUTHORIZED,
  [DomainErrorCode.PathNotAllowed]: HttpStatus.FORBIDDEN,
  [DomainErrorCode.Unavailable]: HttpStatus.SERVICE_UNAVAILABLE,
};

/** What a 503 asks clients to wait before retrying. */
const RETRY_AFTER_S = 5;

/** One JSON error shape for every REST failure; never leaks a stack trace. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request & { id?: string }>();
    if (res.headersSent) return;
    let status = HttpStatus.INTERNAL_SERVER_ERROR;
    let body: Record<string, unknown> = { error: 'internal_error', message: 'Internal server error' };

    if (exception instanceof DomainError) {
      status = STATUS_BY_CODE[exception.code];
      body = { error: exception.code, message: exception.message, ...(exception.details ? { details: exception.details } : {}) };
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      const r = exception.getResponse();
      body = typeof r === 'string' ? { error: errorName(status), message: r } : { error: errorName(status), ...(r as object) };
      delete (body as { statusCode?: unknown }).statusCode;
    } else if (isDatabaseUnavailable(exception)) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      body = { error: 'database_unavailable', message: 'The database is not reachable right now; retry shortly' };
      this.logger.warn({ err: exception, requestId: req.id }, 'Database unavailable');
    } else if (isBodyParserError(exception)) {
      status = exception.status;
      body = { error: errorName(status), message: exception.type === 'entity.too.large' ? `Request body exceeds the ${exception.limit}-byte limit` : exception.message };
    } else {
      this.logger.error({ err: exception, requestId: req.id }, 'Unhandled error');
    }
    if (status === HttpStatus.SERVICE_UNAVAILABLE && !res.getHeader('Retry-After')) res.setHeader('Retry-After', String(RETRY_AFTER_S));
    if (req.path === '/mcp') {
      // MCP clients read JSON-RPC errors; a body that is not JSON is JSON-RPC's parse error.
      const parseError = (isBodyParserError(exception) && exception.type === 'entity.parse.failed') || exception instanceof SyntaxError || (exception instanceof HttpException && (exception.cause instanceof SyntaxError || /JSON/.test(exception.message)));
      res.status(status).json({ jsonrpc: '2.0', error: { code: parseError ? -32700 : -32000, message: parseError ? `Parse error: ${String(body.message)}` : String(body.message), data: { status, requestId: req.id } }, id: null });
      return;
    }
    res.status(status).json({ statusCode: status, ...body, requestId: req.id });
  }
}

function isBodyParserError(e: unknown): e is { status: number; type: string; message: string; limit?: number } {
  return typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number' && typeof (e as { type?: unknown }).type === 'string';
}

function errorName(status: number): string {
  const name = HttpStatus[status];
  return typeof name === 'string' ? name.toLowerCase() : 'error';
}
