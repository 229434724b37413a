import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PageQuery, QueryClassName, WeightsHistoryResponse, WeightsResetResponse, WeightsResponse, WeightsUpdateRequest, WeightsUpdatedEvent, WeightsVersion } from '@sextant/contracts';
import { DEFAULT_FUSION_WEIGHTS, type LearnerParams, type QueryClass, type SourceWeights } from '@sextant/retrieval';
import { DataSource, MoreThan } from 'typeorm';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { decodePageCursor, pageFromRows } from '../../common/page-cursor';
import { TransactionRunner } from '../../database/transaction-runner';
import { roleAtLeast, type AuthContext } from '../auth/auth-context';
import { FusionWeightsService, type CurrentWeights } from '../fusion/fusion-weights.service';
import { FeedbackEvents } from '../realtime/realtime.events';
import { FeedbackRatingEntity } from './feedback-rating.entity';
import { mapWeightsVersion } from './feedback.mapper';
import { FEEDBACK_LEARNER_PARAMS, PERSON_ORIGINS } from './feedback.tokens';

const CLASSES: readonly QueryClass[] = ['specific', 'conceptual'];
const DAY_MS = 24 * 60 * 60 * 1000;

/** What the Insights page reads (`GET /v1/weights`) and what admins change (set, pin, reset). */
@Injectable()
export class LearnedWeightsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tx: TransactionRunner,
    private readonly weights: FusionWeightsService,
    private readonly events: EventEmitter2,
    @Inject(FEEDBACK_LEARNER_PARAMS) private readonly params: LearnerParams,
  ) {}

  async overview(workspaceId: string, query: { query_class?: QueryClass; history_limit?: number; days?: number } = {}): Promise<WeightsResponse> {
    const limit = query.history_limit ?? 200;
    const classes = await Promise.all(
      (query.query_class ? [query.query_class] : CLASSES).map(async (qc) => {
        const current = await this.weights.current(workspaceId, qc);
        const stored = await this.weights.history(workspaceId, qc, limit);
        const history = stored.reverse().map(mapWeightsVersion);
        if (history.length < limit && (history[0]?.version ?? 1) === 1) history.unshift(mapWeightsVersion(defaultsOf(qc)));
        const prior = (await this.weights.latestWithOrigin(workspaceId, qc, PERSON_ORIGINS))?.weights ?? DEFAULT_FUSION_WEIGHTS[qc];
        return { query_class: qc as QueryClassName, current: mapWeightsVersion(current), prior: { ...prior } as Record<string, number>, history };
      }),
    );
    const days = query.days ?? 30;
    const since = new Date(Date.now() - days * DAY_MS);
    const rows = await this.db.getRepository(FeedbackRatingEntity).find({ select: { rating: true, queryClass: true, updatedAt: true }, where: { workspaceId, updatedAt: MoreThan(since) } });
    const empty = () => ({ total: 0, positive: 0, negative: 0, neutral: 0 });
    const count = (c: ReturnType<typeof empty>, rating: number) => {
      c.total++;
      if (rating > 0) c.positive++;
      else if (rating < 0) c.negative++;
      else c.neutral++;
    };
    const totals = empty();
    const byDay = new Map<string, ReturnType<typeof empty>>();
    const byClass: Record<string, ReturnType<typeof empty>> = { specific: empty(), conceptual: empty() };
    for (const r of rows) {
      count(totals, r.rating);
      const day = new Date(r.updatedAt).toISOString().slice(0, 10);
      if (!byDay.has(day)) byDay.set(day, empty());
      count(byDay.get(day)!, r.rating);
      count((byClass[r.queryClass] ??= empty()), r.rating);
    }
    return {
      classes,
      ratings: { ...totals, by_day: [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, c]) => ({ day, ...c })), by_class: byClass },
      learner: { learning_rate: this.params.learningRate, temperature: this.params.temperature, anneal_ratings: this.params.annealRatings, page_size: this.params.pageSize, floor: this.params.floor, decay: this.params.decay, cap_per_window: this.params.capPerWindow, window_seconds: this.params.windowMs / 1000 },
    };
  }

  /** Admin: new weights and/or pin state for a class (origin `admin`; it becomes the prior decay pulls toward). */
  async set(auth: AuthContext, request: WeightsUpdateRequest): Promise<WeightsVersion> {
    this.requireAdmin(auth);
    const qc = request.query_class as QueryClass;
    const next = await this.tx.run(async (m) => {
      const current = await this.weights.latestIn(m, auth.workspaceId, qc);
      const weights: SourceWeights = { ...current.weights, ...(request.weights ?? {}) };
      return this.weights.appendIn(m, auth.workspaceId, qc, weights, 'admin', { pinned: request.pinned ?? current.pinned, principal: auth.principal });
    });
    this.published(auth.workspaceId, next);
    return mapWeightsVersion(next);
  }

  /** Admin: back to the built-in defaults, unpinned (origin `reset`). */
  async reset(auth: AuthContext, queryClass?: QueryClass): Promise<WeightsResetResponse> {
    this.requireAdmin(auth);
    const out: WeightsVersion[] = [];
    for (const qc of queryClass ? [queryClass] : CLASSES) {
      const next = await this.tx.run((m) => this.weights.appendIn(m, auth.workspaceId, qc, { ...DEFAULT_FUSION_WEIGHTS[qc] }, 'reset', { principal: auth.principal }));
      this.published(auth.workspaceId, next);
      out.push(mapWeightsVersion(next));
    }
    return { classes: out };
  }

  private published(workspaceId: string, next: CurrentWeights): void {
    this.weights.invalidate(workspaceId, next.queryClass);
    this.events.emit(FeedbackEvents.WeightsUpdated, {
      workspace_id: workspaceId,
      query_class: next.queryClass as QueryClassName,
      version: next.version,
      weights: next.weights as Record<string, number>,
      origin: next.origin,
    } satisfies WeightsUpdatedEvent);
  }

  /** One page of a class's stored versions, newest first; the defaults (version 0) close the last page when the history starts from them. */
  async historyPage(workspaceId: string, queryClass: QueryClass, query: PageQuery): Promise<WeightsHistoryResponse> {
    const offset = decodePageCursor(query.cursor);
    const rows = await this.weights.history(workspaceId, queryClass, query.limit + 1, offset);
    if (rows.length <= query.limit) {
      // The stored versions end on this page: the defaults follow when the history starts from them (version 1).
      const oldest = rows.length ? rows[rows.length - 1] : offset > 0 ? (await this.weights.history(workspaceId, queryClass, 1, offset - 1))[0] : undefined;
      if (oldest ? oldest.version === 1 : offset === 0) rows.push(defaultsOf(queryClass));
    }
    const page = pageFromRows(rows, query.limit, offset);
    return { query_class: queryClass as QueryClassName, versions: page.items.map(mapWeightsVersion), next_cursor: page.next_cursor };
  }

  private requireAdmin(auth: AuthContext): void {
    if (!roleAtLeast(auth.role, 'admin')) throw new DomainError(DomainErrorCode.Forbidden, `Changing fusion weights needs an admin key; this key is a ${auth.role}`);
  }
}

function defaultsOf(queryClass: QueryClass): CurrentWeights {
  return { queryClass, version: 0, weights: { ...DEFAULT_FUSION_WEIGHTS[queryClass] }, origin: 'default', pinned: false, createdAt: null, principal: null };
}
