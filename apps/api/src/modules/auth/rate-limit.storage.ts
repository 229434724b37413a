import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';

const REDIS_RETRY_MS = 5000;

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
  /** While Redis is failing, requests skip it until this time instead of each waiting for a timeout. */
  private retryRedisAt = 0;

  constructor(redisUrl?: string) {
    if (!redisUrl) return;
    // Loaded only when configured: the Redis client and storage cost ~10 MB of RSS in every process otherwise.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
    const { ThrottlerStorageRedisService: RedisStorage } = require('@nest-lab/throttler-storage-redis') as typeof import('@nest-lab/throttler-storage-redis');
    /* eslint-enable @typescript-eslint/no-require-imports */
    this.redis = new RedisClient(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 1000 });
    this.redis.on('error', (err: Error) => this.warnOnce(`Redis rate-limit storage unavailable (${err.message}); counting per process`));
    this.shared = new RedisStorage(this.redis);
  }

  get backend(): 'redis' | 'memory' {
    return this.shared ? 'redis' : 'memory';
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    if (this.shared && Date.now() >= this.retryRedisAt) {
      try {
        const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
        if (this.degraded) this.logger.log('Redis rate-limit storage is back; counts are shared again');
        this.degraded = false;
        return record;
      } catch (err) {
        this.retryRedisAt = Date.now() + REDIS_RETRY_MS;
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
