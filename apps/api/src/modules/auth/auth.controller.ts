import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';
import { WorkspacesService, type Workspace } from '../workspaces/workspaces.service';
import type { AuthContext, Role } from './auth-context';
import { AuthService } from './auth.service';
import { RequireRole } from './role.decorator';

/** Lets a client (the dashboard, a script) check a key and learn its workspace and role. */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly workspaces: WorkspacesService,
  ) {}

  @Get('me')
  @RequireRole('reader')
  async me(@CurrentAuth() auth: AuthContext): Promise<{ workspace: Workspace; role: Role; principal: string; principal_name: string | null; local_mode: boolean }> {
    return { workspace: await this.workspaces.getById(auth.workspaceId), role: auth.role, principal: auth.principal, principal_name: auth.name ?? null, local_mode: this.auth.localMode };
  }
}
