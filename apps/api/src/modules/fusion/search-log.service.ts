import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SourceRanking } from '@sextant/retrieval';
import { DataSource } from 'typeorm';
import { insertRows } from '../../database/bulk-write';
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

export type PoolItem = { source: string; itemId: string; rank: number; score: number };

/**
 * Pool source of a result the search showed that no source's pooled list holds: one the learned
 * ranker brought in itself (history profile, whole-file or task BM25), one only the title search
 * found, or a source's hit deeper than {@link POOL_DEPTH} that the ranker lifted. Pooled so it can
 * be rated (and train the ranker); feedback gives no source credit for it.
 */
export const SHOWN_POOL_SOURCE = 'shown';

/**
 * The pool entries for the shown results that neither `rankings` (to {@link POOL_DEPTH}) nor
 * `extra` already hold, at their rank in the response.
 *
 * @example
 * shownOnlyPoolItems([{ id: 'a', rank: 1, score: 0.9 }, { id: 'z', rank: 2, score: 0.5 }], [{ source: 'file.dense', items: [{ id: 'a', score: 1 }] }], [])
 * // [{ source: 'shown', itemId: 'z', rank: 2, score: 0.5 }]
 */
export function shownOnlyPoolItems(results: ReadonlyArray<{ id: string; rank: number; score: number }>, rankings: readonly SourceRanking[], extra: readonly PoolItem[]): PoolItem[] {
  const pooled = new Set([...rankings.flatMap((r) => r.items.slice(0, POOL_DEPTH).map((item) => item.id)), ...extra.map((e) => e.itemId)]);
  return results.filter((r) => !pooled.has(r.id)).map((r) => ({ source: SHOWN_POOL_SOURCE, itemId: r.id, rank: r.rank, score: r.score }));
}

interface QueuedSearch {
  log: SearchLogRecord;
  rankings: SourceRanking[];
  extraItems: PoolItem[];
  onError?: (err: unknown) => void;
}

const LOG_COLUMNS = ['id', 'workspaceId', 'principal', 'query', 'queryClass', 'strategy', 'granularity', 'weights', 'weightsVersion', 'resultCount', 'latencyMs'] as const;
const POOL_COLUMNS = ['id', 'searchId', 'workspaceId', 'source', 'rank', 'itemId', 'score'] as const;

/**
 * Seed 004's pool writer: every search is logged with each source's ranks, so ratings can
 * later be credited to the sources that ranked the rated item.
 */
@Injectable()
export class SearchLogService implements BeforeApplicationShutdown {
  /** Writes still in flight, so a rating that arrives right after a search still finds its pool. */
  private readonly pending = new Map<string, Promise<void>>();
  /** Searches waiting for the next write; every search queued before it runs shares its transaction. */
  private queue: QueuedSearch[] = [];
  private queued: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tx: TransactionRunner,
  ) {}

  /**
   * Queues the search and its pool for a write that does not make the caller wait; readers of
   * the same search id (`findSearch`, `pool`) wait for the write.
   */
  recordInBackground(log: SearchLogRecord, rankings: SourceRanking[], extraItems: PoolItem[] = [], onError?: (err: unknown) => void): void {
    this.queue.push({ log, rankings, extraItems, onError });
    // After the current I/O callbacks: on SQLite the insert runs on this thread and would otherwise delay sending the results.
    this.queued ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.writeQueue());
    const write = this.queued;
    this.pending.set(log.searchId, write);
    void write.finally(() => {
      if (this.pending.get(log.searchId) === write) this.pending.delete(log.searchId);
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Resolves when every pool write started so far has finished (shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending.values()]);
  }

  private async writeQueue(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.queued = null;
    try {
      await this.write(batch);
    } catch (err) {
      if (batch.length === 1) return batch[0].onError?.(err);
      // One bad search must not lose the others' pools: write each on its own.
      for (const search of batch) await this.write([search]).catch((e) => search.onError?.(e));
    }
  }

  /**
   * One transaction for the batch. Rows go through cached single-row statements on SQLite: a
   * multi-row INSERT of ~300 pool rows was new SQL text (and a new compiled statement) for
   * nearly every search, and cost more than the rows.
   */
  private async write(batch: QueuedSearch[]): Promise<void> {
    const logRows: unknown[][] = [];
    const poolRows: unknown[][] = [];
    for (const { log, rankings, extraItems } of batch) {
      logRows.push([log.searchId, log.workspaceId, log.principal, log.query, log.queryClass, log.strategy, log.granularity, log.weights, log.weightsVersion, log.resultCount, Math.round(log.latencyMs)]);
      const pool = [...rankings.flatMap((r) => r.items.slice(0, POOL_DEPTH).map((item, i) => ({ source: r.source, itemId: item.id, rank: i + 1, score: item.score }))), ...extraItems];
      // Time-ordered ids append to the primary-key index (random ones dirtied a page per row).
      for (const p of pool) poolRows.push([timeOrderedId(), log.searchId, log.workspaceId, p.source, p.rank, p.itemId, Number.isFinite(p.score) ? p.score : 0]);
    }
    await this.tx.run(async (tx) => {
      await insertRows(tx, SearchLogEntity, LOG_COLUMNS, logRows);
      await insertRows(tx, SearchPoolEntity, POOL_COLUMNS, poolRows);
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
