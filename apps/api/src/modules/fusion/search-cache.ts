import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * Result cache (seed 003: TTL 300 s, LRU). Keys include the workspace's index generation,
 * which is bumped whenever its code or tasks change, so a re-index invalidates at once.
 */
export class SearchCache<V extends object> {
  private readonly lru: LRUCache<string, V>;
  private readonly generations = new Map<string, number>();

  constructor(options: { max?: number; ttlMs?: number } = {}) {
    this.lru = new LRUCache<string, V>({ max: options.max ?? 500, ttl: options.ttlMs ?? 300_000 });
  }

  key(workspaceId: string, request: unknown, extra: unknown): string {
    const generation = this.generations.get(workspaceId) ?? 0;
    return `${workspaceId}:${generation}:${createHash('sha256').update(JSON.stringify([request, extra])).digest('hex')}`;
  }

  get(key: string): V | undefined {
    return this.lru.get(key);
  }

  set(key: string, value: V): void {
    this.lru.set(key, value);
  }

  invalidate(workspaceId: string): void {
    this.generations.set(workspaceId, (this.generations.get(workspaceId) ?? 0) + 1);
  }
}
