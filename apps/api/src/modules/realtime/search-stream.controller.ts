import { Controller, Get, Logger, Query, Req, Res } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import { SearchRequestSchema, SearchStreamQuerySchema } from '@sextant/contracts';
import type { Request, Response } from 'express';
import { invalidStreamQuery, serveEventStream } from '../../common/event-stream';
import { writeProblem } from '../../common/problem-details';
import { requestIdOf } from '../../common/request-id';
import { ApiEventStreamOp, ApiZodQuery } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import type { AuthContext } from '../auth/auth-context';
import { KeyRevocations } from '../auth/key-revocations';
import { SearchService } from '../fusion/search.service';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';

class SearchStreamQueryDto extends zodDto(SearchStreamQuerySchema) {}

/**
 * Server-sent events for chat clients that speak plain HTTP: `partial` events, then `done`;
 * a failure after the stream started is an `error` event with problem details.
 */
@ApiTags('search')
@Controller('v1/search')
export class SearchStreamController {
  private readonly logger = new Logger('SearchStream');

  constructor(
    private readonly search: SearchService,
    private readonly revocations: KeyRevocations,
  ) {}

  @Get('stream')
  @ApiProduces('text/event-stream')
  @ApiEventStreamOp(
    'Search as server-sent events: partial results as each source answers, then done',
    'Events: `partial` (SearchPartial: the fused results so far and which sources answered), then `done` (SearchResponse fields) or `error` (problem details: type, title, status, detail, code, request_id). A bad query is refused before the stream starts with application/problem+json.',
  )
  @ApiZodQuery(SearchStreamQuerySchema)
  async stream(@CurrentAuth() auth: AuthContext, @Query() q: SearchStreamQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const parsed = SearchRequestSchema.safeParse({
      query: q.q,
      ...(q.top_k ? { top_k: q.top_k } : {}),
      ...(q.strategy ? { strategy: q.strategy } : {}),
      ...(q.granularity ? { granularity: q.granularity } : {}),
      ...(q.sources ? { sources: q.sources.split(',').map((s) => s.trim()) } : {}),
      ...(q.repos || q.langs || q.include || q.exclude ? { filters: { ...(q.repos ? { repos: q.repos } : {}), ...(q.langs ? { langs: q.langs } : {}), ...(q.include ? { include: q.include } : {}), ...(q.exclude ? { exclude: q.exclude } : {}) } } : {}),
    });
    const requestId = requestIdOf(req, res);
    // Before the stream starts: an ordinary problem+json response.
    if (!parsed.success) return writeProblem(res, invalidStreamQuery(parsed.error, requestId));
    await serveEventStream(
      req,
      res,
      { requestId, logger: this.logger, failureMessage: 'Streamed search failed', watchRevocation: (onRevoked) => this.revocations.watch(auth, onRevoked) },
      (send, signal) => this.search.search(auth.workspaceId, parsed.data, { principal: auth.principal, signal, onPartial: (p) => send('partial', p) }),
    );
  }
}
