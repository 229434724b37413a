import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ListMcpSourcesQuerySchema,
  McpSourceCreateSchema,
  McpSourceListResponseSchema,
  McpSourceSchema,
  McpSourceTestRequestSchema,
  McpSourceTestResultSchema,
  McpSourceUpdateSchema,
  type McpSource,
  type McpSourceListResponse,
  type McpSourceTestResult,
} from '@sextant/contracts';
import { ApiOp, ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { pageOfList } from '../../common/page-cursor';
import { zodDto } from '../../common/zod-validation.pipe';
import { RequireRole } from '../auth/role.decorator';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { McpSourcesService } from './mcp-sources.service';

class CreateMcpSourceDto extends zodDto(McpSourceCreateSchema) {}
class UpdateMcpSourceDto extends zodDto(McpSourceUpdateSchema) {}
class TestMcpSourceDto extends zodDto(McpSourceTestRequestSchema) {}
class ListMcpSourcesQueryDto extends zodDto(ListMcpSourcesQuerySchema) {}

/** External MCP servers searched beside the index (admins only; env and header values are never returned). */
@ApiTags('sources')
@RequireRole('admin')
@Controller('v1/sources/mcp')
export class McpSourcesController {
  constructor(private readonly sources: McpSourcesService) {}

  @Get()
  @ApiOp('List the workspace\'s external MCP sources (paged; secrets masked)', McpSourceListResponseSchema)
  @ApiZodQuery(ListMcpSourcesQuerySchema)
  async list(@CurrentWorkspace() ws: string, @Query() q: ListMcpSourcesQueryDto): Promise<McpSourceListResponse> {
    const page = pageOfList(await this.sources.list(ws), q);
    return { sources: page.items, next_cursor: page.next_cursor };
  }

  @Post()
  @ApiOp('Add an external MCP server to search beside the index', McpSourceSchema, { problems: { 409: 'conflict: a source with this name exists' } })
  @ApiZodBody(McpSourceCreateSchema)
  create(@CurrentWorkspace() ws: string, @Body() body: CreateMcpSourceDto): Promise<McpSource> {
    return this.sources.create(ws, body);
  }

  @Get(':id')
  @ApiOp('One external MCP source (secrets masked)', McpSourceSchema)
  get(@CurrentWorkspace() ws: string, @Param('id') id: string): Promise<McpSource> {
    return this.sources.get(ws, id);
  }

  @Patch(':id')
  @ApiOp('Change an external MCP source', McpSourceSchema)
  @ApiZodBody(McpSourceUpdateSchema)
  update(@CurrentWorkspace() ws: string, @Param('id') id: string, @Body() body: UpdateMcpSourceDto): Promise<McpSource> {
    return this.sources.update(ws, id, body);
  }

  /** Removes the source and stops its server. */
  @Delete(':id')
  @ApiOp('Remove an external MCP source and stop its server', McpSourceSchema)
  remove(@CurrentWorkspace() ws: string, @Param('id') id: string): Promise<McpSource> {
    return this.sources.remove(ws, id);
  }

  /** Connects, lists tools, picks the search tool and runs one query. */
  @Post(':id/test')
  @HttpCode(200)
  @ApiOp('Test a source: connect, list its tools, run one query', McpSourceTestResultSchema)
  @ApiZodBody(McpSourceTestRequestSchema)
  test(@CurrentWorkspace() ws: string, @Param('id') id: string, @Body() body: TestMcpSourceDto): Promise<McpSourceTestResult> {
    return this.sources.test(ws, id, body.query);
  }
}
