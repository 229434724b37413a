import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';

/**
 * Hit counters for the rate limiter: in Redis when REDIS_URL is set (so every process
 * shares one count per key), in memory otherwise. If Redis stops answering, counting
 * falls back to this process's memory rather than failing requests, and says so once.
 */
export class RateLimitStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly memory = new ThrottlerStorageService();
  private readonly redis?: Redis;
  private readonly shared?: ThrottlerStorageRedisService;
  private degraded = false;

  constructor(redisUrl?: string) {
    if (!redisUrl) return;
    this.redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: 1000, enableOfflineQueue: true });
    this.redis.on('error', (err: Error) => this.warnOnce(`Redis rate-limit storage unavailable (${err.message}); counting per process`));
    this.shared = new ThrottlerStorageRedisService(this.redis);
  }

  get backend(): 'redis' | 'memory' {
    return this.shared ? 'redis' : 'memory';
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    if (this.shared) {
      try {
        const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
        this.degraded = false;
        return record;
      } catch (err) {
        this.warnOnce(`Redis rate-limit storage failed (${(err as Error).message}); counting per process`);
      }
    }
    return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  onApplicationShutdown(): void {
    this.memory.onApplicationShutdown();
    this.redis?.disconnect(false);
  }

  private warnOnce(message: string): void {
    if (this.degraded) return;
    this.degraded = true;
    this.logger.warn(message);
  }
}
