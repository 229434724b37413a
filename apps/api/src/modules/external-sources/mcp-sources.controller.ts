import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { McpSourceCreateSchema, McpSourceTestRequestSchema, McpSourceUpdateSchema, type McpSource, type McpSourceTestResult } from '@sextant/contracts';
import { ApiZodBody } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import { RequireRole } from '../auth/role.decorator';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { McpSourcesService } from './mcp-sources.service';

class CreateMcpSourceDto extends zodDto(McpSourceCreateSchema) {}
class UpdateMcpSourceDto extends zodDto(McpSourceUpdateSchema) {}
class TestMcpSourceDto extends zodDto(McpSourceTestRequestSchema) {}

/** External MCP servers searched beside the index (admins only; env and header values are never returned). */
@ApiTags('sources')
@ApiBearerAuth()
@RequireRole('admin')
@Controller('v1/sources/mcp')
export class McpSourcesController {
  constructor(private readonly sources: McpSourcesService) {}

  @Get()
  async list(@CurrentWorkspace() ws: string): Promise<{ sources: McpSource[] }> {
    return { sources: await this.sources.list(ws) };
  }

  @Post()
  @ApiZodBody(McpSourceCreateSchema)
  create(@CurrentWorkspace() ws: string, @Body() body: CreateMcpSourceDto): Promise<McpSource> {
    return this.sources.create(ws, body);
  }

  @Get(':id')
  get(@CurrentWorkspace() ws: string, @Param('id') id: string): Promise<McpSource> {
    return this.sources.get(ws, id);
  }

  @Patch(':id')
  @ApiZodBody(McpSourceUpdateSchema)
  update(@CurrentWorkspace() ws: string, @Param('id') id: string, @Body() body: UpdateMcpSourceDto): Promise<McpSource> {
    return this.sources.update(ws, id, body);
  }

  /** Removes the source and stops its server. */
  @Delete(':id')
  remove(@CurrentWorkspace() ws: string, @Param('id') id: string): Promise<McpSource> {
    return this.sources.remove(ws, id);
  }

  /** Connects, lists tools, picks the search tool and runs one query. */
  @Post(':id/test')
  @HttpCode(200)
  @ApiZodBody(McpSourceTestRequestSchema)
  test(@CurrentWorkspace() ws: string, @Param('id') id: string, @Body() body: TestMcpSourceDto): Promise<McpSourceTestResult> {
    return this.sources.test(ws, id, body.query);
  }
}
