import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import { SearchRequestSchema, SearchStreamQuerySchema } from '@sextant/contracts';
import type { Request, Response } from 'express';
import { DomainError } from '../../common/domain-error';
import { ApiZodQuery } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import type { AuthContext } from '../auth/auth-context';
import { KeyRevocations } from '../auth/key-revocations';
import { SearchService } from '../fusion/search.service';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';

class SearchStreamQueryDto extends zodDto(SearchStreamQuerySchema) {}

/** Server-sent events for chat clients that speak plain HTTP: `partial` events, then `done`. */
@ApiTags('search')
@Controller('v1/search')
export class SearchStreamController {
  constructor(
    private readonly search: SearchService,
    private readonly revocations: KeyRevocations,
  ) {}

  @Get('stream')
  @ApiProduces('text/event-stream')
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
    if (!parsed.success) {
      res.status(400).json({ statusCode: 400, error: 'bad_request', message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      return;
    }
    res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    const controller = new AbortController();
    req.on('close', () => controller.abort());
    const send = (event: string, data: unknown) => {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const unwatch = this.revocations.watch(auth, () => {
      send('error', { error: 'unauthenticated', message: 'The API key of this stream was revoked' });
      controller.abort();
      res.end();
    });
    try {
      const done = await this.search.search(auth.workspaceId, parsed.data, { principal: auth.principal, signal: controller.signal, onPartial: (p) => send('partial', p) });
      send('done', done);
    } catch (err) {
      if (!controller.signal.aborted) send('error', { error: err instanceof DomainError ? err.code : 'internal_error', message: err instanceof DomainError ? err.message : 'search failed' });
    } finally {
      unwatch();
    }
    if (!res.writableEnded) res.end();
  }
}
