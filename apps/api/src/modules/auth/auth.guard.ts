import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { WorkspacesService } from '../workspaces/workspaces.service';
import type { RequestWithAuth } from './auth-context';

/**
 * Local mode: every request acts as admin of the `default` workspace. (API keys and
 * roles replace this for non-loopback deployments.)
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private defaultWorkspaceId?: string;

  constructor(private readonly workspaces: WorkspacesService) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<RequestWithAuth>();
    this.defaultWorkspaceId ??= (await this.workspaces.ensureDefault()).id;
    req.auth = { workspaceId: this.defaultWorkspaceId, role: 'admin', principal: 'local' };
    return true;
  }
}
