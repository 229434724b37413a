import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DEFAULT_FUSION_WEIGHTS, type QueryClass, type SourceWeights } from '@sextant/retrieval';
import { Repository } from 'typeorm';
import { FusionWeightsEntity } from './fusion-weights.entity';

export interface CurrentWeights {
  queryClass: QueryClass;
  /** 0 = the built-in defaults (nothing stored yet). */
  version: number;
  weights: SourceWeights;
  origin: string;
  pinned: boolean;
  createdAt: string | null;
}

/** Versioned per-workspace, per-query-class fusion weights (the feedback module appends versions). */
@Injectable()
export class FusionWeightsService {
  private readonly cache = new Map<string, CurrentWeights>();

  constructor(@InjectRepository(FusionWeightsEntity) private readonly rows: Repository<FusionWeightsEntity>) {}

  async current(workspaceId: string, queryClass: QueryClass): Promise<CurrentWeights> {
    const key = `${workspaceId}:${queryClass}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const row = await this.rows.findOne({ where: { workspaceId, queryClass }, order: { version: 'DESC' } });
    const value: CurrentWeights = row
      ? { queryClass, version: row.version, weights: row.weights, origin: row.origin, pinned: row.pinned, createdAt: row.createdAt.toISOString() }
      : { queryClass, version: 0, weights: { ...DEFAULT_FUSION_WEIGHTS[queryClass] }, origin: 'default', pinned: false, createdAt: null };
    this.cache.set(key, value);
    return value;
  }

  /** Appends a new version and makes it current. */
  async append(workspaceId: string, queryClass: QueryClass, weights: SourceWeights, origin: string, options: { pinned?: boolean; principal?: string } = {}): Promise<CurrentWeights> {
    const current = await this.current(workspaceId, queryClass);
    const row = await this.rows.save(
      this.rows.create({
        id: randomUUID(),
        workspaceId,
        queryClass,
        version: current.version + 1,
        weights: weights as Record<string, number>,
        origin,
        pinned: options.pinned ?? false,
        principal: options.principal ?? null,
      }),
    );
    const value: CurrentWeights = { queryClass, version: row.version, weights: row.weights, origin: row.origin, pinned: row.pinned, createdAt: row.createdAt.toISOString() };
    this.cache.set(`${workspaceId}:${queryClass}`, value);
    return value;
  }

  async history(workspaceId: string, queryClass: QueryClass, limit = 200): Promise<CurrentWeights[]> {
    const rows = await this.rows.find({ where: { workspaceId, queryClass }, order: { version: 'DESC' }, take: limit });
    return rows.map((r) => ({ queryClass, version: r.version, weights: r.weights, origin: r.origin, pinned: r.pinned, createdAt: r.createdAt.toISOString() }));
  }
}
