import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  IndexJobListResponseSchema,
  IndexJobSchema,
  ListJobsQuerySchema,
  ListRepositoriesQuerySchema,
  RegisterRepositoryRequestSchema,
  RegisterRepositoryResponseSchema,
  RepositoryDetailSchema,
  RepositoryListResponseSchema,
  RepositorySchema,
  StartIndexRequestSchema,
  UpdateRepositoryRequestSchema,
  type IndexJob,
  type IndexJobListResponse,
  type Repository,
  type RepositoryDetail,
  type RepositoryListResponse,
} from '@sextant/contracts';
import { ApiOp, ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { pageOfList } from '../../common/page-cursor';
import { zodDto } from '../../common/zod-validation.pipe';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { IndexingService } from './services/indexing.service';
import { RepositoryWatcherService } from './services/repository-watcher.service';

class RegisterRepositoryDto extends zodDto(RegisterRepositoryRequestSchema) {}
class StartIndexDto extends zodDto(StartIndexRequestSchema) {}
class UpdateRepositoryDto extends zodDto(UpdateRepositoryRequestSchema) {}
class ListJobsQueryDto extends zodDto(ListJobsQuerySchema) {}
class ListRepositoriesQueryDto extends zodDto(ListRepositoriesQuerySchema) {}

@ApiTags('indexing')
@Controller('v1')
export class IndexingController {
  constructor(
    private readonly indexing: IndexingService,
    private readonly watcher: RepositoryWatcherService,
  ) {}

  /** Registers a local path (under SEXTANT_ALLOWED_ROOTS) or clones a git URL, then starts indexing it. */
  @Post('repos')
  @ApiOp('Register a local path or clone a git URL, and start indexing it (admin)', RegisterRepositoryResponseSchema, { problems: { 409: 'conflict: the path is already registered (in this or another workspace)' } })
  @ApiZodBody(RegisterRepositoryRequestSchema)
  async register(@CurrentWorkspace() ws: string, @Body() body: RegisterRepositoryDto): Promise<Repository & { job: IndexJob | null }> {
    const repo = await this.indexing.register(ws, body);
    const job = body.index === false ? null : await this.indexing.startJob(ws, repo.id, 'full');
    if (repo.watch) await this.watcher.watch(ws, repo.id);
    return { ...repo, job };
  }

  /** Oldest first, 100 a page by default (the dashboard gets them all in one page). */
  @Get('repos')
  @ApiOp('List registered repositories (paged)', RepositoryListResponseSchema)
  @ApiZodQuery(ListRepositoriesQuerySchema)
  async list(@CurrentWorkspace() ws: string, @Query() q: ListRepositoriesQueryDto): Promise<RepositoryListResponse> {
    const page = pageOfList(await this.indexing.list(ws), q);
    return { repositories: page.items, next_cursor: page.next_cursor };
  }

  @Get('repos/:id')
  @ApiOp('One repository with its index state', RepositoryDetailSchema)
  get(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<RepositoryDetail> {
    return this.indexing.get(ws, id);
  }

  @Patch('repos/:id')
  @ApiOp('Change a repository\'s settings (watch on/off; admin)', RepositorySchema)
  @ApiZodBody(UpdateRepositoryRequestSchema)
  async update(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string, @Body() body: UpdateRepositoryDto): Promise<Repository> {
    const repo = await this.indexing.setWatch(ws, id, body.watch);
    if (repo.watch) await this.watcher.watch(ws, id);
    else await this.watcher.unwatch(id);
    return repo;
  }

  @Delete('repos/:id')
  @HttpCode(204)
  @ApiOp('Remove a repository and its index (admin)', null)
  async remove(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.indexing.get(ws, id); // 404 before touching the watcher of another workspace's id
    await this.watcher.unwatch(id);
    await this.indexing.remove(ws, id);
  }

  /** Starts an index job, or joins the one already queued/running for this repository. */
  @Post('repos/:id/index')
  @HttpCode(202)
  @ApiOp('Start (or join) an index job for a repository', IndexJobSchema)
  @ApiZodBody(StartIndexRequestSchema)
  startIndex(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string, @Body() body: StartIndexDto): Promise<IndexJob> {
    return this.indexing.startJob(ws, id, body?.kind ?? 'incremental');
  }

  /** Newest first, `limit` at a time (default 50); `next_cursor` fetches the next page. */
  @Get('jobs')
  @ApiOp('List index jobs (newest first, paged)', IndexJobListResponseSchema)
  @ApiZodQuery(ListJobsQuerySchema)
  jobs(@CurrentWorkspace() ws: string, @Query() q: ListJobsQueryDto): Promise<IndexJobListResponse> {
    return this.indexing.pageJobs(ws, q);
  }

  @Get('jobs/:id')
  @ApiOp('One index job with its progress', IndexJobSchema)
  job(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<IndexJob> {
    return this.indexing.getJob(ws, id);
  }

  @Post('jobs/:id/cancel')
  @ApiOp('Cancel a queued or running index job', IndexJobSchema)
  cancel(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<IndexJob> {
    return this.indexing.cancelJob(ws, id);
  }
}
