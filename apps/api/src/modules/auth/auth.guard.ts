import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { roleAtLeast, type AuthContext, type RequestWithAuth, type Role } from './auth-context';
import { AuthService } from './auth.service';
import { bearerToken } from './bearer-token';
import { isForwarded } from './request-origin.middleware';
import { RateLimitGuard } from './rate-limit.guard';
import { PUBLIC_ROUTE, REQUIRED_ROLE } from './role.decorator';
import { requiredAccess } from './route-roles';

/**
 * The one place REST access is decided, in this order: public routes pass; otherwise
 * the bearer key (or local mode) is authenticated, the caller is rate-limited (per key,
 * or per IP when authentication failed, which also slows key guessing), and the role
 * the route needs is checked. Sets `req.auth`, from which every controller takes the
 * workspace.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly rateLimit: RateLimitGuard,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true; // sockets authenticate once, at the handshake
    const req = ctx.switchToHttp().getRequest<Request & RequestWithAuth>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const targets = [ctx.getHandler(), ctx.getClass()];
    const access = requiredAccess(req.method, (req.route as { path?: string } | undefined)?.path, {
      isPublic: this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets),
      role: this.reflector.getAllAndOverride<Role>(REQUIRED_ROLE, targets),
    });
    if (access === 'public') return true;

    let auth: AuthContext | undefined;
    let failure: unknown;
    try {
      auth = await this.auth.authenticate(bearerToken(req.headers.authorization), { ip: req.ip, forwarded: isForwarded(req.headers), workspaceSlug: req.header('x-sextant-workspace') });
    } catch (err) {
      failure = err;
    }
    req.auth = auth;
    if (this.config.rateLimit.limit > 0) await this.rateLimit.canActivate(ctx);
    if (failure) {
      if (failure instanceof DomainError && failure.code === DomainErrorCode.Unauthenticated) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="sextant"');
      }
      throw failure;
    }
    if (!roleAtLeast(auth!.role, access)) {
      throw new DomainError(DomainErrorCode.Forbidden, `${req.method} ${req.route?.path ?? req.path} needs the ${access} role; this key has the ${auth!.role} role`, {
        required: access,
        role: auth!.role,
      });
    }
    return true;
  }
}
