import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListJobsQuerySchema, RegisterRepositoryRequestSchema, StartIndexRequestSchema, UpdateRepositoryRequestSchema, type IndexJob, type Repository, type RepositoryDetail } from '@sextant/contracts';
import { ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { IndexingService } from './services/indexing.service';
import { RepositoryWatcherService } from './services/repository-watcher.service';

class RegisterRepositoryDto extends zodDto(RegisterRepositoryRequestSchema) {}
class StartIndexDto extends zodDto(StartIndexRequestSchema) {}
class UpdateRepositoryDto extends zodDto(UpdateRepositoryRequestSchema) {}
class ListJobsQueryDto extends zodDto(ListJobsQuerySchema) {}

@ApiTags('indexing')
@Controller('v1')
export class IndexingController {
  constructor(
    private readonly indexing: IndexingService,
    private readonly watcher: RepositoryWatcherService,
  ) {}

  /** Registers a local path (under SEXTANT_ALLOWED_ROOTS) or clones a git URL, then starts indexing it. */
  @Post('repos')
  @ApiZodBody(RegisterRepositoryRequestSchema)
  async register(@CurrentWorkspace() ws: string, @Body() body: RegisterRepositoryDto): Promise<Repository & { job: IndexJob | null }> {
    const repo = await this.indexing.register(ws, body);
    const job = body.index === false ? null : await this.indexing.startJob(ws, repo.id, 'full');
    if (repo.watch) await this.watcher.watch(ws, repo.id);
    return { ...repo, job };
  }

  @Get('repos')
  async list(@CurrentWorkspace() ws: string): Promise<{ repositories: Repository[] }> {
    return { repositories: await this.indexing.list(ws) };
  }

  @Get('repos/:id')
  get(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<RepositoryDetail> {
    return this.indexing.get(ws, id);
  }

  @Patch('repos/:id')
  @ApiZodBody(UpdateRepositoryRequestSchema)
  async update(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string, @Body() body: UpdateRepositoryDto): Promise<Repository> {
    const repo = await this.indexing.setWatch(ws, id, body.watch);
    if (repo.watch) await this.watcher.watch(ws, id);
    else await this.watcher.unwatch(id);
    return repo;
  }

  @Delete('repos/:id')
  @HttpCode(204)
  async remove(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.indexing.get(ws, id); // 404 before touching the watcher of another workspace's id
    await this.watcher.unwatch(id);
    await this.indexing.remove(ws, id);
  }

  /** Starts an index job, or joins the one already queued/running for this repository. */
  @Post('repos/:id/index')
  @HttpCode(202)
  @ApiZodBody(StartIndexRequestSchema)
  startIndex(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string, @Body() body: StartIndexDto): Promise<IndexJob> {
    return this.indexing.startJob(ws, id, body?.kind ?? 'incremental');
  }

  /** Newest first, `limit` at a time (default 50); `next_cursor` fetches the next page. */
  @Get('jobs')
  @ApiZodQuery(ListJobsQuerySchema)
  jobs(@CurrentWorkspace() ws: string, @Query() q: ListJobsQueryDto): Promise<{ jobs: IndexJob[]; next_cursor: string | null }> {
    return this.indexing.pageJobs(ws, q);
  }

  @Get('jobs/:id')
  job(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<IndexJob> {
    return this.indexing.getJob(ws, id);
  }

  @Post('jobs/:id/cancel')
  cancel(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<IndexJob> {
    return this.indexing.cancelJob(ws, id);
  }
}
