import { RateLimitStorage } from './rate-limit.storage';

describe('RateLimitStorage', () => {
  it('keeps counting in memory when Redis is unreachable, without waiting on Redis for every request', async () => {
    const storage = new RateLimitStorage('redis://127.0.0.1:1');
    try {
      const results = [];
      const started = Date.now();
      for (let i = 0; i < 6; i++) results.push(await storage.increment('sextant:test:k', 60_000, 5, 60_000, 'default'));
      expect(results.map((r) => r.isBlocked)).toEqual([false, false, false, false, false, true]);
      expect(results[5].timeToBlockExpire).toBeGreaterThan(0);
      // Only the first call may wait for the connection to fail; the rest skip Redis.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      storage.onApplicationShutdown();
    }
  });

  it('counts in memory when no Redis is configured', async () => {
    const storage = new RateLimitStorage();
    expect(storage.backend).toBe('memory');
    const first = await storage.increment('k', 1000, 1, 1000, 'default');
    const second = await storage.increment('k', 1000, 1, 1000, 'default');
    expect([first.isBlocked, second.isBlocked]).toEqual([false, true]);
    storage.onApplicationShutdown();
  });
});
