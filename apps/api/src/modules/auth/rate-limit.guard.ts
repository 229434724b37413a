import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { RequestWithAuth } from './auth-context';

/**
 * The throttler, counting per API key once the request is authenticated and per client
 * IP otherwise (no key, local mode, or a rejected key). One count per caller across
 * every route, not one per route. Called by AuthGuard after authentication, so it is
 * not registered as a global guard of its own.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const auth = (req as RequestWithAuth).auth;
    if (auth && auth.principal !== 'local') return auth.principal;
    return `ip:${await super.getTracker(req)}`;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `sextant:ratelimit:${throttlerName}:${tracker}`;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new ThrottlerException(
      `Rate limit exceeded: at most ${detail.limit} requests per ${Math.round(detail.ttl / 1000)} s; retry after ${detail.timeToBlockExpire} s`,
    );
  }
}
