import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateWorkspaceRequestSchema, ListWorkspacesQuerySchema, WorkspaceListResponseSchema, WorkspaceSchema } from '@sextant/contracts';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { ApiOp, ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { pageOfList } from '../../common/page-cursor';
import { zodDto } from '../../common/zod-validation.pipe';
import type { AuthContext } from '../auth/auth-context';
import { RequireRole } from '../auth/role.decorator';
import { CurrentAuth } from './current-workspace.decorator';
import { Workspace, WorkspacesService } from './workspaces.service';

class CreateWorkspaceDto extends zodDto(CreateWorkspaceRequestSchema) {}
class ListWorkspacesQueryDto extends zodDto(ListWorkspacesQuerySchema) {}

/**
 * A key sees only its own workspace. Creating workspaces is an operator action: the CLI
 * (`sextant workspaces create`) always, REST only in local mode, where the caller is the
 * operator at the machine — an admin key of one workspace must not mint others.
 */
@ApiTags('workspaces')
@Controller('v1/workspaces')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get()
  @ApiOp('List workspaces (the caller\'s own; every one in local mode), paged', WorkspaceListResponseSchema)
  @ApiZodQuery(ListWorkspacesQuerySchema)
  async list(@CurrentAuth() auth: AuthContext, @Query() q: ListWorkspacesQueryDto): Promise<{ workspaces: Workspace[]; next_cursor: string | null }> {
    const all = auth.principal === 'local' ? await this.workspaces.list() : [await this.workspaces.getById(auth.workspaceId)];
    const page = pageOfList(all, q);
    return { workspaces: page.items, next_cursor: page.next_cursor };
  }

  @Post()
  @RequireRole('admin')
  @ApiOp('Create a workspace (local mode only; otherwise `sextant workspaces create`)', WorkspaceSchema, { problems: { 409: 'conflict: a workspace with this slug exists' } })
  @ApiZodBody(CreateWorkspaceRequestSchema)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateWorkspaceDto): Promise<Workspace> {
    if (auth.principal !== 'local') {
      throw new DomainError(
        DomainErrorCode.Forbidden,
        'Workspaces are created by the operator: run `sextant workspaces create <slug>` on the server (REST creation works only in local mode)',
      );
    }
    return this.workspaces.create(body.slug, body.name);
  }
}
