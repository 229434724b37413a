import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthMeResponseSchema, type AuthMeResponse } from '@sextant/contracts';
import { ApiOp } from '../../common/openapi';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';
import { WorkspacesService } from '../workspaces/workspaces.service';
import type { AuthContext } from './auth-context';
import { AuthService } from './auth.service';
import { RequireRole } from './role.decorator';

/** Lets a client (the dashboard, a script) check a key and learn its workspace and role. */
@ApiTags('auth')
@Controller('v1/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly workspaces: WorkspacesService,
  ) {}

  @Get('me')
  @RequireRole('reader')
  @ApiOp('Who this key is: its workspace, role and principal', AuthMeResponseSchema)
  async me(@CurrentAuth() auth: AuthContext): Promise<AuthMeResponse> {
    return { workspace: await this.workspaces.getById(auth.workspaceId), role: auth.role, principal: auth.principal, principal_name: auth.name ?? null, local_mode: this.auth.localMode };
  }
}
