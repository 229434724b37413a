import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SourceRanking } from '@sextant/retrieval';
import { DataSource } from 'typeorm';
import { bulkInsert } from '../../database/bulk-write';
import { timeOrderedId } from '../../database/time-ordered-id';
import { TransactionRunner } from '../../database/transaction-runner';
import { SearchLogEntity, SearchPoolEntity } from './search-log.entity';

/** How deep each source's ranking is logged (ratings only ever concern items near the top). */
export const POOL_DEPTH = 50;

export interface SearchLogRecord {
  searchId: string;
  workspaceId: string;
  principal: string;
  query: string;
  queryClass: string;
  strategy: string;
  granularity: string;
  weights: Record<string, number>;
  weightsVersion: number;
  resultCount: number;
  latencyMs: number;
}

/**
 * Seed 004's pool writer: every search is logged with each source's ranks, so ratings can
 * later be credited to the sources that ranked the rated item.
 */
@Injectable()
export class SearchLogService implements BeforeApplicationShutdown {
  /** Writes still in flight, so a rating that arrives right after a search still finds its pool. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tx: TransactionRunner,
  ) {}

  /**
   * Starts writing the search and its pool without making the caller wait; readers of
   * the same search id (`findSearch`, `pool`) wait for the write.
   */
  recordInBackground(log: SearchLogRecord, rankings: SourceRanking[], extraItems: Array<{ source: string; itemId: string; rank: number; score: number }> = [], onError?: (err: unknown) => void): void {
    // After the current I/O callbacks: on SQLite the insert runs on this thread and would otherwise delay sending the results.
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.record(log, rankings, extraItems))
      .catch((err) => onError?.(err));
    this.pending.set(log.searchId, write);
    void write.finally(() => this.pending.delete(log.searchId));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Resolves when every pool write started so far has finished (shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending.values()]);
  }

  async record(log: SearchLogRecord, rankings: SourceRanking[], extraItems: Array<{ source: string; itemId: string; rank: number; score: number }> = []): Promise<void> {
    const pool = [
      ...rankings.flatMap((r) => r.items.slice(0, POOL_DEPTH).map((item, i) => ({ source: r.source, itemId: item.id, rank: i + 1, score: item.score }))),
      ...extraItems,
    ];
    await this.tx.run(async (tx) => {
      await tx.getRepository(SearchLogEntity).insert({ ...log, id: log.searchId, latencyMs: Math.round(log.latencyMs) });
      // Time-ordered ids append to the primary-key index (random ones dirtied a page per row).
      const rows = pool.map((p) => ({ id: timeOrderedId(), searchId: log.searchId, workspaceId: log.workspaceId, source: p.source, rank: p.rank, itemId: p.itemId, score: Number.isFinite(p.score) ? p.score : 0 }));
      // One multi-row statement: the query builder's insert re-scans its SQL per parameter, which cost more than the search.
      await bulkInsert(tx, SearchPoolEntity, rows);
    });
  }

  async findSearch(workspaceId: string, searchId: string): Promise<SearchLogEntity | null> {
    await this.pending.get(searchId);
    return this.db.getRepository(SearchLogEntity).findOne({ where: { workspaceId, id: searchId } });
  }

  async pool(workspaceId: string, searchId: string): Promise<SearchPoolEntity[]> {
    await this.pending.get(searchId);
    return this.db.getRepository(SearchPoolEntity).find({ where: { workspaceId, searchId }, order: { source: 'ASC', rank: 'ASC' } });
  }
}
