import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  FeedbackRateRequestSchema,
  STAR_TO_SIGNED,
  type FeedbackListResponse,
  type FeedbackRateResponse,
  type FeedbackRecentResponse,
  type FeedbackRecordedEvent,
  type PageQuery,
  type QueryClassName,
  type WeightsUpdatedEvent,
} from '@sextant/contracts';
import {
  assignCredit,
  DEFAULT_FUSION_WEIGHTS,
  isFusionStrategy,
  orderRankingsByPrior,
  pageItems,
  planRatingChange,
  PRIOR_BEFORE_FUSION,
  ratedPage,
  ratingGradient,
  scheduledStep,
  updateWeights,
  type LearnerParams,
  type QueryClass,
  type RatedPage,
  type SourceRanking,
  type StructuralPriors,
} from '@sextant/retrieval';
import { decodePageCursor, pageFromRows } from '../../common/page-cursor';
import { DataSource, MoreThan, type EntityManager } from 'typeorm';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { TransactionRunner } from '../../database/transaction-runner';
import { roleAtLeast, type AuthContext } from '../auth/auth-context';
import { FusionWeightsService } from '../fusion/fusion-weights.service';
import { SearchLogService } from '../fusion/search-log.service';
import { STRUCTURAL_PRIORS } from '../fusion/structural-priors.provider';
import type { SearchPoolEntity } from '../fusion/search-log.entity';
import { SHOWN_POOL_SOURCE } from '../fusion/search-log.service';
import { FeedbackEvents } from '../realtime/realtime.events';
import { FeedbackRatingEntity } from './feedback-rating.entity';
import { FeedbackUpdateEntity } from './feedback-update.entity';
import { mapRating } from './feedback.mapper';
import { FEEDBACK_LEARNER_PARAMS, PERSON_ORIGINS } from './feedback.tokens';
import { KeyedLock } from './keyed-lock';
import type { FeedbackRater } from '../mcp/feedback-rater.port';

/** Options the transports never set: the simulation replays ratings at a simulated time. */
export interface RateOptions {
  at?: Date;
}

const MAX_VERSION_RETRIES = 3;

/**
 * Ratings from REST, the socket and MCP `rate_result` all land here: validated, stored in
 * one transaction with the learning step they cause, credited to the sources that ranked
 * the item (recomputed from the search's pool), and turned into a new weights version
 * for the search's workspace and query class, which is broadcast as `weights:updated`.
 */
@Injectable()
export class FeedbackService implements FeedbackRater {
  private readonly lock = new KeyedLock();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tx: TransactionRunner,
    private readonly logs: SearchLogService,
    private readonly weights: FusionWeightsService,
    private readonly events: EventEmitter2,
    @Inject(FEEDBACK_LEARNER_PARAMS) readonly params: LearnerParams,
    @Inject(STRUCTURAL_PRIORS) private readonly priors: StructuralPriors,
  ) {}

  async rate(auth: AuthContext, input: unknown, options: RateOptions = {}): Promise<FeedbackRateResponse> {
    if (!roleAtLeast(auth.role, 'member')) throw new DomainError(DomainErrorCode.Forbidden, `Rating results needs a member key; this key is a ${auth.role}`);
    const parsed = FeedbackRateRequestSchema.safeParse(input);
    if (!parsed.success) throw new DomainError(DomainErrorCode.InvalidInput, `Invalid rating: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    const { search_id: searchId, item_id: itemId } = parsed.data;
    const stars = parsed.data.stars ?? null;
    const rating = stars !== null ? STAR_TO_SIGNED[stars] : parsed.data.rating!;

    const search = await this.logs.findSearch(auth.workspaceId, searchId);
    if (!search) throw new DomainError(DomainErrorCode.NotFound, `Search ${searchId} not found in this workspace`);
    const poolRows = await this.logs.pool(auth.workspaceId, searchId);
    if (!poolRows.some((r) => r.itemId === itemId)) throw new DomainError(DomainErrorCode.NotFound, `That item is not among the results of search ${searchId}`);

    const queryClass = search.queryClass as QueryClass;
    const pool = toRankings(poolRows);
    const strategy = isFusionStrategy(search.strategy) ? search.strategy : 'weighted';
    // Credit follows the ranks the fusion read: the rank fusions read each source re-ordered by prior.
    const fusedPool = PRIOR_BEFORE_FUSION.has(strategy) ? orderRankingsByPrior(pool, this.priors, pathOfItem) : pool;
    const credit = assignCredit({ strategy, pool: fusedPool, weights: search.weights, itemId });
    // The page the rating is judged on: what the search showed (first K results) plus, inside the
    // transaction, every item this principal rated; every source that answered takes part.
    const page = ratedPage({ strategy, pool, weights: search.weights, pageSize: Math.min(this.params.pageSize, search.resultCount || this.params.pageSize), pathOf: pathOfItem, priors: this.priors });
    const at = options.at ?? new Date();

    const outcome = await this.lock.run(`${auth.workspaceId}:${queryClass}`, () => this.withVersionRetry(() => this.tx.run((m) => this.apply(m, { auth, searchId, itemId, rating, stars, queryClass, page, at }))));
    this.weights.invalidate(auth.workspaceId, queryClass);

    this.events.emit(FeedbackEvents.Recorded, { workspace_id: auth.workspaceId, search_id: searchId, item_id: itemId, rating, principal: auth.principal, rated_at: at.toISOString() } satisfies FeedbackRecordedEvent);
    if (outcome.learning.outcome === 'updated') {
      this.events.emit(FeedbackEvents.WeightsUpdated, {
        workspace_id: auth.workspaceId,
        query_class: queryClass as QueryClassName,
        version: outcome.learning.weights_version,
        weights: outcome.learning.weights,
        origin: 'feedback',
      } satisfies WeightsUpdatedEvent);
    }
    return {
      search_id: searchId,
      item_id: itemId,
      rating,
      stars,
      previous_rating: outcome.previous,
      query_class: queryClass as QueryClassName,
      credit: credit.map((c) => ({ source: c.source, rank: c.rank, score: c.score, share: round(c.share), evidence: round(c.evidence) })),
      learning: outcome.learning,
    };
  }

  /** Every rating of one of the workspace's searches, for the dashboard. */
  async list(auth: AuthContext, searchId: string): Promise<FeedbackListResponse> {
    const search = await this.logs.findSearch(auth.workspaceId, searchId);
    if (!search) throw new DomainError(DomainErrorCode.NotFound, `Search ${searchId} not found in this workspace`);
    const rows = await this.db.getRepository(FeedbackRatingEntity).find({ where: { workspaceId: auth.workspaceId, searchId }, order: { updatedAt: 'ASC' } });
    const items = new Map<string, { item_id: string; count: number; positive: number; negative: number; sum: number }>();
    for (const r of rows) {
      const it = items.get(r.itemId) ?? { item_id: r.itemId, count: 0, positive: 0, negative: 0, sum: 0 };
      it.count++;
      if (r.rating > 0) it.positive++;
      if (r.rating < 0) it.negative++;
      it.sum += r.rating;
      items.set(r.itemId, it);
    }
    return {
      search_id: searchId,
      query: search.query,
      query_class: search.queryClass as QueryClassName,
      strategy: search.strategy,
      weights_version: search.weightsVersion,
      ratings: rows.map((r) => mapRating(r, auth.principal)),
      items: [...items.values()].map(({ sum, ...it }) => ({ ...it, mean: round(sum / it.count) })),
    };
  }

  /** The workspace's latest ratings, newest first (what the activity feed shows for earlier ratings). */
  async recent(auth: AuthContext, query: PageQuery): Promise<FeedbackRecentResponse> {
    const offset = decodePageCursor(query.cursor);
    const rows = await this.db.getRepository(FeedbackRatingEntity).find({ where: { workspaceId: auth.workspaceId }, order: { updatedAt: 'DESC', id: 'DESC' }, skip: offset, take: query.limit + 1 });
    const page = pageFromRows(rows, query.limit, offset);
    return { ratings: page.items.map((r) => ({ search_id: r.searchId, item_id: r.itemId, rating: r.rating, principal: r.principal, rated_at: new Date(r.updatedAt).toISOString() })), next_cursor: page.next_cursor };
  }

  /** The rating's write and its learning step, in one transaction. */
  private async apply(
    m: EntityManager,
    a: { auth: AuthContext; searchId: string; itemId: string; rating: number; stars: number | null; queryClass: QueryClass; page: RatedPage; at: Date },
  ): Promise<{ previous: number | null; learning: FeedbackRateResponse['learning'] }> {
    const ws = a.auth.workspaceId;
    const ratings = m.getRepository(FeedbackRatingEntity);
    const ledger = m.getRepository(FeedbackUpdateEntity);
    const existing = await ratings.findOne({ where: { workspaceId: ws, principal: a.auth.principal, searchId: a.searchId, itemId: a.itemId } });
    const since = new Date(a.at.getTime() - this.params.windowMs);
    const recent = await ledger.find({ select: { applied: true }, where: { workspaceId: ws, principal: a.auth.principal, createdAt: MoreThan(since) } });
    const used = recent.reduce((s, r) => s + Math.abs(r.applied), 0);
    const applied = existing?.applied ?? 0;
    const plan = planRatingChange({ rating: a.rating, applied, usedInWindow: used, cap: this.params.capPerWindow });
    const current = await this.weights.latestIn(m, ws, a.queryClass);

    let outcome: FeedbackRateResponse['learning']['outcome'];
    let version = current.version;
    let weights = current.weights as Record<string, number>;
    let learned = 0;
    if (plan.requested === 0) outcome = 'unchanged_rating';
    else if (current.pinned) outcome = 'pinned';
    else if (plan.allowed === 0) outcome = 'cap_reached';
    else {
      const chosen = await this.weights.latestWithOrigin(ws, a.queryClass, PERSON_ORIGINS, m);
      const prior = chosen?.weights ?? DEFAULT_FUSION_WEIGHTS[a.queryClass];
      // What this principal's ratings of the search taught so far, and what they teach with this one.
      const mine = await ratings.find({ select: { itemId: true, applied: true }, where: { workspaceId: ws, principal: a.auth.principal, searchId: a.searchId } });
      const learnedBefore = new Map(mine.map((r) => [r.itemId, r.applied]));
      const learnedAfter = new Map(learnedBefore).set(a.itemId, plan.appliedAfter);
      const gradient = ratingGradient(pageItems(a.page, learnedBefore, this.params.temperature), pageItems(a.page, learnedAfter, this.params.temperature));
      // Step schedule: n = updates this class learned since the prior was set. Every version after the
      // newest person-set one was appended by a rating (one per update), so n is the version difference.
      const n = Math.max(0, current.version - (chosen?.version ?? 0));
      const step = updateWeights({ weights: current.weights, prior, gradient, params: { ...scheduledStep(n, this.params), floor: this.params.floor } });
      if (step.changed) {
        const next = await this.weights.appendIn(m, ws, a.queryClass, roundWeights(step.weights), 'feedback', { principal: a.auth.principal });
        version = next.version;
        weights = next.weights as Record<string, number>;
        learned = plan.allowed;
        outcome = 'updated';
      } else outcome = 'no_evidence';
    }
    // Pinned or capped: nothing was learned, so rating again later (unpinned, next window) still applies it.
    const appliedAfter = outcome === 'updated' || outcome === 'no_evidence' ? plan.appliedAfter : applied;
    if (existing) await ratings.update({ id: existing.id }, { rating: a.rating, stars: a.stars, applied: appliedAfter, updatedAt: a.at });
    else await ratings.insert({ id: randomUUID(), workspaceId: ws, searchId: a.searchId, itemId: a.itemId, principal: a.auth.principal, queryClass: a.queryClass, rating: a.rating, stars: a.stars, applied: appliedAfter, createdAt: a.at, updatedAt: a.at });
    await ledger.insert({
      id: randomUUID(),
      workspaceId: ws,
      searchId: a.searchId,
      itemId: a.itemId,
      principal: a.auth.principal,
      queryClass: a.queryClass,
      rating: a.rating,
      requested: plan.requested,
      applied: learned,
      outcome,
      weightsVersion: version,
      createdAt: a.at,
    });
    return { previous: existing ? existing.rating : null, learning: { outcome, requested_delta: plan.requested, applied_delta: learned, weights_version: version, weights } };
  }

  /** Another process may append the same version first (Postgres, several instances): recompute on the unique violation. */
  private async withVersionRetry<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (err) {
        const unique = /unique|duplicate key/i.test((err as Error).message ?? '');
        if (!unique || attempt >= MAX_VERSION_RETRIES) throw err;
      }
    }
  }
}

/** The file path of a file result id (`file:<repo uuid>:<path>`), as SearchService derives it. */
const pathOfItem = (id: string) => id.slice(id.indexOf(':', 5) + 1);

/** Pool rows -> one ranked list per source, in logged rank order (shown-only results are no source's list). */
export function toRankings(rows: readonly SearchPoolEntity[]): SourceRanking[] {
  const bySource = new Map<string, SearchPoolEntity[]>();
  // Results the search showed that no source ranked can be rated (they train the learned ranker) but are no source's ranking.
  for (const r of rows) if (r.source !== SHOWN_POOL_SOURCE) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
  return [...bySource].map(([source, list]) => ({ source, items: [...list].sort((a, b) => a.rank - b.rank).map((r) => ({ id: r.itemId, score: r.score })) }));
}

const round = (v: number, digits = 6) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Stored weights keep 6 decimals (plenty for ranking, readable in charts). */
function roundWeights(w: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(w).map(([k, v]) => [k, round(v)]));
}
