import { Injectable } from '@nestjs/common';

export type DependencyName = 'database' | 'vector_store' | 'embedder' | 'redis';

export interface DependencyHealth {
  status: 'up' | 'down';
  detail?: string;
  latency_ms?: number;
  /** What a check adds about its dependency (the embedder: id, provider, dimensions, semantic). */
  [field: string]: unknown;
}

export type HealthCheck = () => Promise<{ ok: boolean; detail?: string; info?: Record<string, unknown> }>;

/**
 * Modules register a check for the dependency they own; /health asks all of them.
 * Required dependencies are always reported, so a missing registration shows up as down.
 */
@Injectable()
export class HealthRegistry {
  static readonly required: DependencyName[] = ['database', 'vector_store', 'embedder'];
  private readonly checks = new Map<DependencyName, HealthCheck>();

  register(name: DependencyName, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  async checkAll(timeoutMs = 2000): Promise<Record<string, DependencyHealth>> {
    const names = new Set<DependencyName>([...HealthRegistry.required, ...this.checks.keys()]);
    const entries = await Promise.all(
      [...names].map(async (name): Promise<[string, DependencyHealth]> => {
        const check = this.checks.get(name);
        if (!check) return [name, { status: 'down', detail: 'not configured' }];
        const started = performance.now();
        try {
          const result = await withTimeout(check(), timeoutMs);
          const latency_ms = Math.round((performance.now() - started) * 10) / 10;
          return [name, { ...result.info, status: result.ok ? 'up' : 'down', ...(result.detail ? { detail: result.detail } : {}), latency_ms }];
        } catch (err) {
          return [name, { status: 'down', detail: err instanceof Error ? err.message : String(err) }];
        }
      }),
    );
    return Object.fromEntries(entries);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
