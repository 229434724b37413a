import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateTasksRequestSchema,
  ImportGitRequestSchema,
  ImportTasksFileRequestSchema,
  ListTasksQuerySchema,
  TaskGitImportResultSchema,
  TaskImportResultSchema,
  TaskListResponseSchema,
  TaskSchema,
  type SimilarTask,
  type Task,
  type TaskImportResult,
  type TaskListResponse,
} from '@sextant/contracts';
import { fuseReciprocalRank } from '@sextant/retrieval';
import { ApiOp, ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { decodePageCursor, encodePageCursor } from '../../common/page-cursor';
import { zodDto } from '../../common/zod-validation.pipe';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { TaskHistoryService } from './task-history.service';

class CreateTasksDto extends zodDto(CreateTasksRequestSchema) {}
class ListTasksQueryDto extends zodDto(ListTasksQuerySchema) {}
class ImportTasksFileDto extends zodDto(ImportTasksFileRequestSchema) {}
class ImportGitDto extends zodDto(ImportGitRequestSchema) {}

@ApiTags('tasks')
@Controller('v1/tasks')
export class TaskHistoryController {
  constructor(private readonly tasks: TaskHistoryService) {}

  /** One task, or `{ tasks: [...] }` in bulk; upserted by (source, id). */
  @Post()
  @ApiOp('Add or update tasks (one, or { tasks: [...] })', TaskImportResultSchema)
  @ApiZodBody(CreateTasksRequestSchema)
  create(@CurrentWorkspace() ws: string, @Body() body: CreateTasksDto): Promise<TaskImportResult> {
    return this.tasks.importTasks(ws, body.tasks);
  }

  /** A JSONL or CSV file's content (the dashboard's import); large files: use `sextant tasks import`. */
  @Post('import')
  @ApiOp('Import tasks from a JSONL or CSV file\'s content', TaskImportResultSchema)
  @ApiZodBody(ImportTasksFileRequestSchema)
  import(@CurrentWorkspace() ws: string, @Body() body: ImportTasksFileDto): Promise<TaskImportResult> {
    const defaults = { source: body.source, repositoryId: body.repository_id };
    if (body.format === 'jsonl') return this.tasks.importJsonl(ws, body.content, defaults);
    return this.tasks.importCsv(ws, body.content, body.columns ?? {}, defaults);
  }

  @Post('import-git')
  @ApiOp('Import a registered repository\'s git history as tasks', TaskGitImportResultSchema)
  @ApiZodBody(ImportGitRequestSchema)
  importGit(@CurrentWorkspace() ws: string, @Body() body: ImportGitDto): Promise<TaskImportResult & { noise: number }> {
    return this.tasks.importGit(ws, body.repository_id, { since: body.since, until: body.until });
  }

  /** Browse (newest first; `path`: the tasks that touched a file) or, with `query`, find similar tasks (dense + keyword, fused by RRF; `source` applies to both). */
  @Get()
  @ApiOp('Browse tasks (newest first, paged) or find similar ones with `query`', TaskListResponseSchema)
  @ApiZodQuery(ListTasksQuerySchema)
  async list(@CurrentWorkspace() ws: string, @Query() q: ListTasksQueryDto): Promise<TaskListResponse> {
    if (!q.query) {
      const offset = q.cursor ? decodePageCursor(q.cursor) : q.offset;
      const page = await this.tasks.list(ws, { ...q, offset });
      return { ...page, next_cursor: offset + page.tasks.length < page.total ? encodePageCursor(offset + page.tasks.length) : null };
    }
    // A source filter is applied after retrieval, so look further down both lists for it.
    const k = q.source ? Math.min(q.limit * 10, 1000) : q.limit;
    const ofSource = (tasks: SimilarTask[]) => (q.source ? tasks.filter((t) => t.source === q.source) : tasks);
    const [dense, keyword] = (
      await Promise.all([this.tasks.findSimilarTasks(ws, q.query, { k, via: 'dense' }), this.tasks.findSimilarTasks(ws, q.query, { k, via: 'keyword' })])
    ).map(ofSource);
    const byId = new Map([...dense, ...keyword].map((t) => [t.id, t]));
    const fused = fuseReciprocalRank([
      { source: 'task.dense', items: dense.map((t) => ({ id: t.id, score: t.score })) },
      { source: 'task.keyword', items: keyword.map((t) => ({ id: t.id, score: t.score })) },
    ]).slice(0, q.limit);
    // Similar tasks are one ranked page: the best `limit`, no next page.
    return { tasks: fused.map((f) => ({ ...byId.get(f.id)!, score: f.score })), total: fused.length, next_cursor: null };
  }

  @Get(':id')
  @ApiOp('One task', TaskSchema)
  get(@CurrentWorkspace() ws: string, @Param('id') id: string): Promise<Task> {
    return this.tasks.get(ws, id);
  }
}
