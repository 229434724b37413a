import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CreateWorkspaceRequestSchema } from '@sextant/contracts';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { ApiZodBody } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import type { AuthContext } from '../auth/auth-context';
import { RequireRole } from '../auth/role.decorator';
import { CurrentAuth } from './current-workspace.decorator';
import { Workspace, WorkspacesService } from './workspaces.service';

class CreateWorkspaceDto extends zodDto(CreateWorkspaceRequestSchema) {}

/**
 * A key sees only its own workspace. Creating workspaces is an operator action: the CLI
 * (`sextant workspaces create`) always, REST only in local mode, where the caller is the
 * operator at the machine — an admin key of one workspace must not mint others.
 */
@ApiTags('workspaces')
@ApiBearerAuth()
@Controller('v1/workspaces')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get()
  async list(@CurrentAuth() auth: AuthContext): Promise<{ workspaces: Workspace[] }> {
    if (auth.principal === 'local') return { workspaces: await this.workspaces.list() };
    return { workspaces: [await this.workspaces.getById(auth.workspaceId)] };
  }

  @Post()
  @RequireRole('admin')
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
