import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DEFAULT_FUSION_WEIGHTS, type QueryClass, type SourceWeights } from '@sextant/retrieval';
import { In, Repository, type EntityManager } from 'typeorm';
import { SINGLE_STATEMENT } from '../../database/transaction-runner';
import { FusionWeightsEntity } from './fusion-weights.entity';

/**
 * How long a process trusts its cached current weights. Writes in this process update the cache
 * at once; this bounds how long another process's update (several API processes on one database)
 * goes unseen.
 */
export const WEIGHTS_CACHE_TTL_MS = 5_000;

export interface CurrentWeights {
  queryClass: QueryClass;
  /** 0 = the built-in defaults (nothing stored yet). */
  version: number;
  weights: SourceWeights;
  origin: string;
  pinned: boolean;
  createdAt: string | null;
  /** Who made this version (a rating's principal, an admin), when known. */
  principal?: string | null;
}

/** Versioned per-workspace, per-query-class fusion weights (the feedback module appends versions). */
@Injectable()
export class FusionWeightsService {
  private readonly cache = new Map<string, { value: CurrentWeights; loadedAt: number }>();

  constructor(@InjectRepository(FusionWeightsEntity) private readonly rows: Repository<FusionWeightsEntity>) {}

  async current(workspaceId: string, queryClass: QueryClass): Promise<CurrentWeights> {
    const key = `${workspaceId}:${queryClass}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.loadedAt < WEIGHTS_CACHE_TTL_MS) return hit.value;
    const row = await this.rows.findOne({ where: { workspaceId, queryClass }, order: { version: 'DESC' } });
    const value: CurrentWeights = row
      ? { queryClass, version: row.version, weights: row.weights, origin: row.origin, pinned: row.pinned, createdAt: row.createdAt.toISOString() }
      : { queryClass, version: 0, weights: { ...DEFAULT_FUSION_WEIGHTS[queryClass] }, origin: 'default', pinned: false, createdAt: null };
    this.cache.set(key, { value, loadedAt: Date.now() });
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
      SINGLE_STATEMENT,
    );
    const value: CurrentWeights = { queryClass, version: row.version, weights: row.weights, origin: row.origin, pinned: row.pinned, createdAt: row.createdAt.toISOString() };
    this.cache.set(`${workspaceId}:${queryClass}`, { value, loadedAt: Date.now() });
    return value;
  }

  async history(workspaceId: string, queryClass: QueryClass, limit = 200, offset = 0): Promise<CurrentWeights[]> {
    const rows = await this.rows.find({ where: { workspaceId, queryClass }, order: { version: 'DESC' }, skip: offset, take: limit });
    return rows.map((r) => toCurrent(queryClass, r));
  }

  /**
   * The newest stored version read inside a transaction (bypassing the cache, which may be
   * stale while another writer is appending), or the defaults as version 0.
   */
  async latestIn(manager: EntityManager, workspaceId: string, queryClass: QueryClass): Promise<CurrentWeights> {
    const row = await manager.getRepository(FusionWeightsEntity).findOne({ where: { workspaceId, queryClass }, order: { version: 'DESC' } });
    return row ? toCurrent(queryClass, row) : defaultsOf(queryClass);
  }

  /** Appends a version inside the caller's transaction; call {@link invalidate} after it commits. */
  async appendIn(manager: EntityManager, workspaceId: string, queryClass: QueryClass, weights: SourceWeights, origin: string, options: { pinned?: boolean; principal?: string } = {}): Promise<CurrentWeights> {
    const latest = await this.latestIn(manager, workspaceId, queryClass);
    const repo = manager.getRepository(FusionWeightsEntity);
    const row = await repo.save(
      repo.create({ id: randomUUID(), workspaceId, queryClass, version: latest.version + 1, weights: weights as Record<string, number>, origin, pinned: options.pinned ?? false, principal: options.principal ?? null }),
    );
    return toCurrent(queryClass, row);
  }

  /** Drops the cached current version (after a write that did not go through {@link append}). */
  invalidate(workspaceId: string, queryClass: QueryClass): void {
    this.cache.delete(`${workspaceId}:${queryClass}`);
  }

  /** The newest version whose origin is one of `origins` (e.g. the last weights a person set), or null. */
  async latestWithOrigin(workspaceId: string, queryClass: QueryClass, origins: readonly string[], manager?: EntityManager): Promise<CurrentWeights | null> {
    const repo = manager ? manager.getRepository(FusionWeightsEntity) : this.rows;
    const row = await repo.findOne({ where: { workspaceId, queryClass, origin: In([...origins]) }, order: { version: 'DESC' } });
    return row ? toCurrent(queryClass, row) : null;
  }
}

function toCurrent(queryClass: QueryClass, r: FusionWeightsEntity): CurrentWeights {
  return { queryClass, version: r.version, weights: r.weights, origin: r.origin, pinned: r.pinned, createdAt: r.createdAt.toISOString(), principal: r.principal };
}

function defaultsOf(queryClass: QueryClass): CurrentWeights {
  return { queryClass, version: 0, weights: { ...DEFAULT_FUSION_WEIGHTS[queryClass] }, origin: 'default', pinned: false, createdAt: null };
}
