import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import type { AuthContext, RequestWithAuth } from '../auth/auth-context';

/** The caller's workspace id, set by the auth guard from the credential (never from a parameter). */
export const CurrentWorkspace = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => currentAuth(ctx).workspaceId);

/** The full auth context of the caller. */
export const CurrentAuth = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthContext => currentAuth(ctx));

function currentAuth(ctx: ExecutionContext): AuthContext {
  const auth = ctx.switchToHttp().getRequest<RequestWithAuth>().auth;
  if (!auth) throw new DomainError(DomainErrorCode.Unauthenticated, 'Authentication required');
  return auth;
}
