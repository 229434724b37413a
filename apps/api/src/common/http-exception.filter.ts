import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { problemFromError, writeProblem } from './problem-details';
import { requestIdOf } from './request-id';

/**
 * One error format for every REST failure: RFC 9457 problem details with a stable `code`
 * and the request id (see ProblemSchema in libs/contracts); never a stack trace. Body-parser
 * failures are answered earlier, by bodyParserErrorHandler (which keeps JSON-RPC's -32700 on `/mcp`).
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    if (res.headersSent) return;
    const requestId = requestIdOf(req, res);
    const { problem, unexpected, databaseDown } = problemFromError(exception, requestId);
    if (unexpected) this.logger.error({ err: exception, requestId }, 'Unhandled error');
    if (databaseDown) this.logger.warn({ err: exception, requestId }, 'Database unavailable');
    writeProblem(res, problem);
  }
}
