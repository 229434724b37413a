import type { Logger } from '@nestjs/common';
import { problem, type Problem } from '@sextant/contracts';
import type { Request, Response } from 'express';
import type { ZodError } from 'zod';
import { problemFromError } from './problem-details';

export type SendEvent = (event: string, data: unknown) => void;

export interface EventStreamOptions {
  requestId: string;
  logger: Logger;
  /** Logged with the error when the producer fails unexpectedly, e.g. 'Streamed search failed'. */
  failureMessage: string;
  /** Calls `onRevoked` when the caller's API key is revoked mid-stream; returns the unsubscribe. */
  watchRevocation: (onRevoked: () => void) => () => void;
  /** Problem details for a failure (default: the API's own mapping). */
  toProblem?: (err: unknown, requestId: string) => { problem: Problem; unexpected: boolean };
}

/** The 400 problem for an invalid stream query, refused before the stream starts. */
export function invalidStreamQuery(error: ZodError, requestId: string): Problem {
  const issues = error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message, code: i.code }));
  return problem(400, 'validation_failed', `Invalid request query: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, requestId, { issues });
}

/**
 * Runs `produce` as a server-sent event stream: the headers go out at once, the producer's
 * signal aborts when the client goes away or its key is revoked (an `error` event says so),
 * its result is the `done` event, and a failure after the stream started is an `error` event
 * carrying the same problem details a plain request would get.
 */
export async function serveEventStream(req: Request, res: Response, options: EventStreamOptions, produce: (send: SendEvent, signal: AbortSignal) => Promise<unknown>): Promise<void> {
  const { requestId } = options;
  res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  const controller = new AbortController();
  req.on('close', () => controller.abort());
  const send: SendEvent = (event, data) => {
    if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const unwatch = options.watchRevocation(() => {
    send('error', problem(401, 'unauthenticated', 'The API key of this stream was revoked', requestId));
    controller.abort();
    res.end();
  });
  try {
    send('done', await produce(send, controller.signal));
  } catch (err) {
    if (!controller.signal.aborted) {
      const failure = (options.toProblem ?? problemFromError)(err, requestId);
      if (failure.unexpected) options.logger.error({ err, requestId }, options.failureMessage);
      send('error', failure.problem);
    }
  } finally {
    unwatch();
  }
  if (!res.writableEnded) res.end();
}
