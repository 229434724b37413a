import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import type { AuthContext } from './auth-context';

/**
 * The HTTP rate limit for calls that do not arrive as HTTP requests (socket messages): one
 * shared budget per caller — the same counter key RateLimitGuard uses, so REST, MCP and socket
 * calls of one API key (or, without a key, one IP) add up, across processes when Redis is set.
 */
@Injectable()
export class CallerRateLimit {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Counts one call; returns null when it is allowed, else the seconds until the caller may call again. */
  async consume(auth: AuthContext, ip: string): Promise<number | null> {
    const { limit, windowS } = this.config.rateLimit;
    if (limit <= 0) return null;
    const tracker = auth.principal !== 'local' ? auth.principal : `ip:${ip}`;
    const ttl = windowS * 1000;
    const record = await this.storage.increment(`sextant:ratelimit:default:${tracker}`, ttl, limit, ttl, 'default');
    return record.isBlocked ? Math.max(1, record.timeToBlockExpire) : null;
  }

  describe(retryAfterS: number): string {
    const { limit, windowS } = this.config.rateLimit;
    return `Rate limit exceeded: at most ${limit} requests per ${windowS} s; retry after ${retryAfterS} s`;
  }
}
