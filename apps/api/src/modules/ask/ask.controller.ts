import { Body, Controller, Get, HttpCode, Logger, Post, Query, Req, Res } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import { AskRequestSchema, AskResponseSchema, AskStatusSchema, AskStreamQuerySchema, problem, type AskResponse, type AskStatus } from '@sextant/contracts';
import type { Request, Response } from 'express';
import { ApiEventStreamOp, ApiOp, ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { invalidStreamQuery, serveEventStream } from '../../common/event-stream';
import { writeProblem } from '../../common/problem-details';
import { requestIdOf } from '../../common/request-id';
import { zodDto } from '../../common/zod-validation.pipe';
import type { AuthContext } from '../auth/auth-context';
import { KeyRevocations } from '../auth/key-revocations';
import { RequireRole } from '../auth/role.decorator';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';
import { askProblem, AskError } from './ask.errors';
import { AskService } from './ask.service';

class AskRequestDto extends zodDto(AskRequestSchema) {}
class AskStreamQueryDto extends zodDto(AskStreamQuerySchema) {}

@ApiTags('ask')
@Controller('v1/ask')
export class AskController {
  private readonly logger = new Logger(AskController.name);

  constructor(
    private readonly asks: AskService,
    private readonly revocations: KeyRevocations,
  ) {}

  /** Whether Ask is configured, and with which model (the dashboard says how to configure it when not). */
  @Get('status')
  @ApiOp('Whether Ask is configured, and with which chat model', AskStatusSchema)
  status(): AskStatus {
    return this.asks.status();
  }

  /** A grounded answer with numbered citations (file lines or task ids), as one JSON response. */
  @Post()
  @HttpCode(200)
  @RequireRole('reader')
  @ApiOp('Answer a question from the code and task history, with numbered citations', AskResponseSchema, {
    problems: {
      429: 'rate_limited (this API) or chat_rate_limited (the chat endpoint kept answering 429; see Retry-After)',
      502: 'chat_failed or chat_unreachable: the chat endpoint answered with an error or could not be reached',
      503: 'ask_disabled: no chat model is configured; or database_unavailable',
      504: 'chat_timeout: the chat endpoint sent nothing in time',
    },
  })
  @ApiZodBody(AskRequestSchema)
  async ask(@CurrentAuth() auth: AuthContext, @Body() body: AskRequestDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const answer: AskResponse = await this.asks.ask(auth.workspaceId, body, { principal: auth.principal, signal: controller.signal });
      res.status(200).json(answer);
    } catch (err) {
      if (controller.signal.aborted) return;
      const failure = askProblem(err, requestIdOf(req, res));
      if (failure.unexpected) this.logger.error({ err }, 'Answer failed');
      if (err instanceof AskError && err.retryAfterS !== undefined) res.setHeader('Retry-After', String(Math.ceil(err.retryAfterS)));
      writeProblem(res, failure.problem);
    }
  }

  /** Server-sent events: `step`, `token`, `citation` while the answer is written, then `done` (the full answer) or `error` (problem details). */
  @Get('stream')
  @ApiProduces('text/event-stream')
  @ApiEventStreamOp(
    'Answer a question as server-sent events',
    'Events: `step`, `token` and `citation` while the answer is written, then `done` (the full answer) or `error` (problem details). A bad query, or Ask not configured (503 ask_disabled), is refused before the stream starts with application/problem+json.',
  )
  @ApiZodQuery(AskStreamQuerySchema)
  async stream(@CurrentAuth() auth: AuthContext, @Query() q: AskStreamQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const requestId = requestIdOf(req, res);
    const parsed = AskRequestSchema.safeParse({
      query: q.q,
      ...(q.top_k ? { top_k: q.top_k } : {}),
      ...(q.max_context_tokens ? { max_context_tokens: q.max_context_tokens } : {}),
      ...(q.max_steps !== undefined ? { max_steps: q.max_steps } : {}),
    });
    if (!parsed.success) return writeProblem(res, invalidStreamQuery(parsed.error, requestId));
    const status = this.asks.status();
    // Before the stream starts: an ordinary problem+json response.
    if (!status.enabled) return writeProblem(res, problem(503, 'ask_disabled', status.message, requestId));
    await serveEventStream(
      req,
      res,
      { requestId, logger: this.logger, failureMessage: 'Streamed answer failed', watchRevocation: (onRevoked) => this.revocations.watch(auth, onRevoked), toProblem: askProblem },
      (send, signal) =>
        this.asks.ask(auth.workspaceId, parsed.data, {
          principal: auth.principal,
          signal,
          onEvent: (e) => send(e.type, e.type === 'step' ? e.step : e.type === 'token' ? { text: e.text } : e.citation),
        }),
    );
  }
}
