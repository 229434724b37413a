import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type { RankerStatus } from '@sextant/contracts';
import { checkUndatedOrder, CODE_FIRST_PLACES, crossValidatedMetrics, FEATURE_NAMES, fileKind, gradedAsChanged, listMetrics, orderByScore, rankerBeatsFusion, scoreCandidates, trainLinearRanker, type RankingExample } from '@sextant/retrieval';
import { isTimeOrderedId } from '../../database/time-ordered-id';
import { FilesRepository } from '../indexing/repositories/files.repository';
import { FeedbackEvents } from '../realtime/realtime.events';
import { IndexEvents } from '../indexing/services/indexing.tokens';
import { TASKS_CHANGED } from '../task-history/task-history.service';
import { TasksRepository, type HistoryTaskRow } from '../task-history/tasks.repository';
import { LearnedRankerService, type RankerReport, type StoredRanker } from './learned-ranker.service';
import { loggedCandidates, RankerFeatureLog } from './ranker-feature-log';
import { RatedSearchesRepository } from './rated-searches.repository';
import { SearchService, type HiddenTasks, type RankingCandidate } from './search.service';

/** Past tasks needed before a ranker is fitted at all. */
export const MIN_HISTORY_TASKS = 100;
/** Usable held-out tasks (1..MAX_LABEL_FILES indexed files) needed to fit one. */
export const MIN_EXAMPLES = 40;
/** Fewest undated tasks whose listing order is checked (a quarter of them must say something). */
const MIN_ORDER_CHECK_TASKS = 40;
/** The newest this-many usable tasks become training queries. */
export const MAX_EXAMPLES = 400;
/** Tasks touching more files than this are refactors, not answers to a question. */
export const MAX_LABEL_FILES = 15;
/**
 * Training queries see the history as it was a while before them (mean this many tasks,
 * at most a tenth of their position): real queries come some time after the last imported
 * task, so "changed in the very last task" must not be learned as near-proof.
 */
export const HISTORY_GAP = 100;
/** Share of the newest examples held out to decide whether the ranker beats fusion. */
export const VALIDATION_SHARE = 0.25;
/**
 * A history at least this long gets a second check before its ranker is rejected: every
 * training list ranked by a model fitted without it ({@link CROSS_CHECK_FOLDS} folds). The newest
 * quarter alone (100 lists) is too close to call when the two differ by a point: paramiko's
 * ranker (2,148 tasks) passed it by 0.004 and was rejected under two settings that hardly change
 * it, yet on its later commits it found +0.035 Recall@10 over fusion. On all 15 histories of
 * 1,000+ tasks measured, the ranker beat fusion on the later commits; on shorter ones (ky,
 * commander.js) the rejection was right, so they keep the one check (docs/evaluation.md, stop 56).
 */
export const CROSS_CHECK_MIN_TASKS = 1_000;
export const CROSS_CHECK_FOLDS = 4;
/** The history must grow by this share since the last fit before tasks trigger a refit. */
export const RETRAIN_GROWTH = 0.2;
/** The newest this-many rated searches join the training queries. */
export const MAX_RATED_SEARCHES = 200;
/**
 * What a rated search counts in the loss against one past task: a person judged what answers
 * a question they really asked, where a commit's file list also holds files it touched in
 * passing. With simulated perfect ratings of 100 searches (docs/evaluation.md) weights 1, 2 and 4
 * gave MRR +0.010, +0.011 and +0.014 on the next 100 queries; 2, as real raters err.
 */
export const RATED_SEARCH_WEIGHT = 2;
/** This many newly rated searches since the last fit trigger a refit. */
export const RETRAIN_RATED_SEARCHES = 10;
const RETRAIN_DEBOUNCE_MS = 5_000;

/** Progress of a training run, for the CLI. */
export interface TrainingProgress {
  done: number;
  total: number;
}

/**
 * Fits the learned ranker from the workspace's own history, no ratings needed: the newest
 * past tasks are asked as queries at their place in the history (task sources see only
 * older tasks), the files they touched are the labels, and a linear listwise ranker learns
 * from the candidates' features. The newest quarter is held out: the model ranks searches
 * only if it beats plain fusion there (then it is refitted on everything). Runs on demand
 * (`POST /v1/ranker/train`, `sextant ranker train`, `eval run`) and after task imports once
 * the history has grown enough.
 */
@Injectable()
export class RankerTrainingService implements OnModuleDestroy {
  private readonly logger = new Logger(RankerTrainingService.name);
  private readonly running = new Map<string, Promise<RankerStatus>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Debounced retraining runs in flight (awaited at shutdown). */
  private readonly background = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly search: SearchService,
    private readonly ranker: LearnedRankerService,
    private readonly tasks: TasksRepository,
    private readonly files: FilesRepository,
    private readonly ratedSearches: RatedSearchesRepository,
    private readonly featureLog: RankerFeatureLog,
  ) {}

  /** Stops scheduling and waits for background runs to notice: they must not query a database that is closing. */
  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.background, ...this.running.values()]);
  }

  @OnEvent(TASKS_CHANGED)
  onTasksChanged(event: { workspaceId?: string }): void {
    this.scheduleRetrain(event.workspaceId);
  }

  @OnEvent(FeedbackEvents.Recorded)
  onRated(event: { workspace_id?: string }): void {
    this.scheduleRetrain(event.workspace_id);
  }

  /** A history imported before its code was indexed has no usable labels until the files are indexed. */
  @OnEvent(IndexEvents.Done)
  onIndexed(event: { workspace_id?: string }): void {
    this.scheduleRetrain(event.workspace_id);
  }

  private scheduleRetrain(ws: string | undefined): void {
    if (!ws || this.closed) return;
    clearTimeout(this.timers.get(ws));
    const timer = setTimeout(() => {
      this.timers.delete(ws);
      const run = this.retrainIfGrown(ws)
        .catch((err) => {
          if (!this.closed) this.logger.warn({ err, workspaceId: ws }, 'Ranker retraining failed');
        })
        .finally(() => this.background.delete(run));
      this.background.add(run);
    }, RETRAIN_DEBOUNCE_MS);
    timer.unref();
    this.timers.set(ws, timer);
  }

  /**
   * What a starting server does for the ranker: refit (in the background, a few seconds later)
   * every workspace whose model's probabilities were fitted by an older calibration method, so
   * that an upgrade fixes the scores searches show. Returns how many were scheduled.
   */
  async refitStaleCalibrations(): Promise<number> {
    const stale = await this.ranker.staleCalibrations();
    for (const workspaceId of stale) this.scheduleRetrain(workspaceId);
    return stale.length;
  }

  /** Trains now (one run per workspace at a time; a second call joins the first). */
  train(workspaceId: string, options: { onProgress?: (p: TrainingProgress) => void; signal?: AbortSignal } = {}): Promise<RankerStatus> {
    clearTimeout(this.timers.get(workspaceId));
    this.timers.delete(workspaceId);
    let run = this.running.get(workspaceId);
    if (!run) {
      run = this.fit(workspaceId, options).finally(() => this.running.delete(workspaceId));
      this.running.set(workspaceId, run);
    }
    return run;
  }

  private async retrainIfGrown(workspaceId: string): Promise<void> {
    if (this.closed || this.running.has(workspaceId)) return;
    await this.trainIfDue(workspaceId);
  }

  /**
   * Trains when the workspace has no model yet and enough history, when its history grew by
   * {@link RETRAIN_GROWTH} since the last fit, after {@link RETRAIN_RATED_SEARCHES} new rated
   * searches, or when its model's calibration was fitted by an older method; null when none of
   * that holds. What task imports and index jobs run afterwards.
   */
  async trainIfDue(workspaceId: string, options: { onProgress?: (p: TrainingProgress) => void; signal?: AbortSignal } = {}): Promise<RankerStatus | null> {
    const status = await this.ranker.status(workspaceId, '');
    const trainedOn = status.trained_on_tasks ?? 0;
    const now = status.history_tasks;
    if (now < MIN_HISTORY_TASKS) return null;
    const grown = now >= trainedOn * (1 + RETRAIN_GROWTH);
    const staleCalibration = status.state !== 'none' && (await this.ranker.calibrationStale(workspaceId));
    if (status.state !== 'none' && !grown && !staleCalibration) {
      const seen = (await this.ranker.lastReport(workspaceId))?.rated_seen ?? 0;
      if ((await this.ratedSearches.count(workspaceId)) - seen < RETRAIN_RATED_SEARCHES) return null;
    }
    return this.train(workspaceId, options);
  }

  private async fit(workspaceId: string, options: { onProgress?: (p: TrainingProgress) => void; signal?: AbortSignal }): Promise<RankerStatus> {
    const history = await this.tasks.listHistory(workspaceId, { withText: true });
    // Training lists hold only files whose content is indexed. History-only files (lockfiles, build
    // output) are left out as candidates and as answers; at search time the model ranks them from
    // their history evidence. Fitting on them too lifted redux's R@10 more but cost zod 2 points of
    // MRR (docs/evaluation.md, stop 46).
    const indexed = new Set((await this.files.listIndexed(workspaceId)).map((f) => f.path));
    // Undated tasks are taken in the order they were imported, oldest first. Trained on a list that
    // runs newest first, the ranker would learn the history backwards: a history without any date
    // stays on plain fusion and says why; in one that mixes both, the undated tasks are not asked.
    const undated = history.filter((t) => t.createdAt === null);
    const order = undated.length >= MIN_ORDER_CHECK_TASKS ? checkUndatedOrder(undated.map((t) => t.files), indexed) : null;
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    const shares = (whose: 'its' | 'their') => (order ? `${pct(order.firstQuarterLive)} of ${whose} first quarter of tasks name a file that is indexed today, against ${pct(order.lastQuarterLive)} of ${whose} last quarter` : '');
    if (order?.newestFirst && undated.length === history.length) {
      const message = `Not trained: the history has no dates and seems to be listed newest first (${shares('its')}). Tasks without dates are read oldest first, in the order imported: import them oldest first, or with their dates. Searches use plain fusion.`;
      return { ...(await this.ranker.status(workspaceId, message)), message };
    }
    const backwardsUndated = Boolean(order?.newestFirst);
    const usable = usableQueries(history, indexed).filter((position) => !backwardsUndated || history[position].createdAt !== null);
    const undatedNote = backwardsUndated ? ` The ${undated.length} tasks without dates seem listed newest first (${shares('their')}), so none of them was asked as a training query: import them oldest first, or with their dates.` : '';
    const tooShort = history.length < MIN_HISTORY_TASKS || usable.length < MIN_EXAMPLES;
    if (tooShort) {
      const unordered = history.filter((t) => !orderKnown(t)).length;
      const why = unordered ? `; ${unordered} tasks without dates were imported before Sextant kept the order of such tasks, so they cannot be asked as training queries: import them again, with dates or oldest first, into a new workspace` : '';
      const message = `Not trained: the learned ranker needs at least ${MIN_HISTORY_TASKS} past tasks with ${MIN_EXAMPLES} touching 1-${MAX_LABEL_FILES} indexed files (have ${history.length} tasks, ${usable.length} usable${why}); searches use plain fusion.${undatedNote}`;
      return { ...(await this.ranker.status(workspaceId, message)), message };
    }
    // Training examples use the whole-file index of the files as indexed now, not one a rebuild is replacing.
    await this.ranker.settled(workspaceId);
    const chosen = usable.slice(-MAX_EXAMPLES);
    const positions = positionsOf(history);
    const examples: Array<RankingExample & { position: number }> = [];
    for (const [i, position] of chosen.entries()) {
      options.signal?.throwIfAborted();
      if (this.closed) throw new Error('shutting down');
      const task = history[position];
      // A deterministic spread of gaps with mean HISTORY_GAP (golden-ratio sequence), capped at a tenth of the position.
      const gap = Math.min(Math.floor(((i * 0.6180339887) % 1) * 2 * HISTORY_GAP), Math.floor(position / 10));
      const asOf = position - gap;
      const query = `${task.title}\n\n${task.body}`.trim();
      const candidates = (await this.search.rankingExample(workspaceId, query, { hiddenTasks: tasksFrom(positions, asOf), position: asOf }, options.signal)).filter((c) => indexed.has(c.path));
      const relevant = new Set(task.files.filter((f) => indexed.has(f)));
      examples.push({ features: candidates.map((c) => c.features), labels: candidates.map((c) => (relevant.has(c.path) ? labelGrade(c.path) : 0)), relevantTotal: relevant.size, position });
      if (this.featureLog.enabled) this.logExample('task', query, { position, asOf }, [...relevant].map((p) => [p, labelGrade(p)]), candidates);
      options.onProgress?.({ done: i + 1, total: chosen.length });
    }
    const ratedSeen = await this.ratedSearches.count(workspaceId);
    const rated = await this.ratedExamples(workspaceId, history, positions, options, examples.length);
    const split = Math.floor(examples.length * (1 - VALIDATION_SHARE));
    const held = examples.slice(split);
    // Rated searches only ever train: the held-out past tasks alone decide whether the model beats fusion.
    const candidate = trainLinearRanker([...examples.slice(0, split), ...rated], FEATURE_NAMES);
    const validation = {
      queries: held.length,
      ranker: round(listMetrics(held.map((e) => ({ order: orderByScore(scoreCandidates(candidate, e.features)), labels: e.labels, relevantTotal: e.relevantTotal })))),
      fusion: round(listMetrics(held.map((e) => ({ order: e.labels.map((_, i) => i), labels: e.labels, relevantTotal: e.relevantTotal })))),
    };
    let accepted = rankerBeatsFusion(validation.ranker, validation.fusion);
    let crossCheck: NonNullable<RankerStatus['validation']>['cross_check'];
    if (!accepted && history.length >= CROSS_CHECK_MIN_TASKS) {
      options.signal?.throwIfAborted();
      const cv = crossValidatedMetrics(examples, CROSS_CHECK_FOLDS, (train) => trainLinearRanker(train, FEATURE_NAMES), rated);
      crossCheck = { queries: cv.queries, folds: CROSS_CHECK_FOLDS, ranker: round(cv.ranker), fusion: round(cv.fusion) };
      accepted = rankerBeatsFusion(crossCheck.ranker, crossCheck.fusion);
    }
    const checked = crossCheck ? { ...validation, cross_check: crossCheck } : validation;
    // Validation judges the code-first model alone: it holds the top places, where MRR is decided.
    const model: StoredRanker = accepted ? { ...trainLinearRanker([...examples, ...rated], FEATURE_NAMES), allChanged: trainLinearRanker(gradedAsChanged([...examples, ...rated]), FEATURE_NAMES) } : candidate;
    const withRatings = rated.length ? ` and ${rated.length} rated searches` : '';
    const crossed = crossCheck
      ? `; checked again on all ${crossCheck.queries} past tasks, each ranked by a model fitted without it (${crossCheck.folds} folds), it scored MRR ${crossCheck.ranker.mrr} / R@10 ${crossCheck.ranker.r10} against fusion's ${crossCheck.fusion.mrr} / ${crossCheck.fusion.r10}`
      : '';
    const message = accepted
      ? `Active: on the newest ${held.length} past tasks the ranker scored MRR ${validation.ranker.mrr} / R@10 ${validation.ranker.r10} against fusion's ${validation.fusion.mrr} / ${validation.fusion.r10}${crossed}; refitted on all ${examples.length} past tasks${withRatings}; below the top ${CODE_FIRST_PLACES} places a second model, fitted with tests, docs and changelogs graded like code, orders the files.`
      : `Rejected: on the newest ${held.length} past tasks the ranker (MRR ${validation.ranker.mrr}, R@10 ${validation.ranker.r10}) did not beat fusion (${validation.fusion.mrr}, ${validation.fusion.r10})${crossed}; searches keep plain fusion.`;
    const report: RankerReport = { history_tasks: history.length, examples: examples.length, rated_searches: rated.length, rated_seen: ratedSeen, validation: checked, message: `${message}${undatedNote}` };
    await this.ranker.save(workspaceId, model, report, accepted);
    if (this.featureLog.enabled) this.featureLog.write({ kind: 'model', accepted, model });
    this.logger.log({ workspaceId, accepted, validation: checked, ratedSearches: rated.length }, 'Learned ranker trained');
    return this.ranker.status(workspaceId, report.message);
  }

  private logExample(source: 'task' | 'rating', query: string, at: { position: number; asOf: number }, labels: Array<[string, number]>, candidates: readonly RankingCandidate[]): void {
    this.featureLog.write({ kind: 'train', source, query, position: at.position, as_of: at.asOf, labels: Object.fromEntries(labels), relevant_total: labels.length, candidates: loggedCandidates(candidates.map((c) => c.path), candidates.map((c) => c.features)) });
  }

  /**
   * Rated searches as training lists: each query asked again at the place in the history it was
   * first asked (tasks imported since are hidden, so a later fix cannot give the answer away),
   * the files people rated up as its labels (graded by their mean rating), weighted
   * {@link RATED_SEARCH_WEIGHT}.
   */
  private async ratedExamples(workspaceId: string, history: readonly HistoryTaskRow[], positions: ReadonlyMap<string, number>, options: { onProgress?: (p: TrainingProgress) => void; signal?: AbortSignal }, done: number): Promise<RankingExample[]> {
    const rated = await this.ratedSearches.list(workspaceId, MAX_RATED_SEARCHES);
    const out: RankingExample[] = [];
    for (const [i, r] of rated.entries()) {
      options.signal?.throwIfAborted();
      if (this.closed) throw new Error('shutting down');
      const position = tasksBefore(history, r.searchedAt);
      const candidates = await this.search.rankingExample(workspaceId, r.query, { hiddenTasks: tasksFrom(positions, position), position }, options.signal);
      out.push({ features: candidates.map((c) => c.features), labels: candidates.map((c) => r.grades.get(c.path) ?? 0), relevantTotal: r.grades.size, weight: RATED_SEARCH_WEIGHT });
      if (this.featureLog.enabled) this.logExample('rating', r.query, { position, asOf: position }, [...r.grades], candidates);
      options.onProgress?.({ done: done + i + 1, total: done + rated.length });
    }
    return out;
  }
}

/**
 * How a training task's files share its target: code files 1, the tests, docs and changelogs
 * it touched {@link SUPPORTING_FILE_GRADE}. Past commits touch the test and the changelog with
 * the fix, so with equal shares the model learned to put them first; someone asking where a bug
 * lives wants the code first and the test next to it. Measured on real issue reports of six
 * Python projects (docs/evaluation.md): first result a fixed code file 0.538 -> 0.570 over 186
 * issues, commit-message datasets' R@10 and MRR within ±0.01. A lower grade helps issues more
 * but pushes tests that changed with the code out of a commit's top 10.
 */
export const SUPPORTING_FILE_GRADE = 0.5;

function labelGrade(path: string): number {
  return fileKind(path) === 'source' ? 1 : SUPPORTING_FILE_GRADE;
}

/**
 * Positions of tasks that can be training queries: with some history before them, touching
 * 1..MAX_LABEL_FILES indexed files, in a known place ({@link orderKnown}). Undated tasks count
 * too: the history keeps them in the order they were imported, and training cuts it by position,
 * not by date.
 */
function usableQueries(history: readonly HistoryTaskRow[], indexed: ReadonlySet<string>): number[] {
  const out: number[] = [];
  history.forEach((t, position) => {
    if (position < 20 || !orderKnown(t)) return;
    const labels = t.files.filter((f) => indexed.has(f)).length;
    if (labels >= 1 && labels <= MAX_LABEL_FILES) out.push(position);
  });
  return out;
}

/**
 * Whether a task's place in the history is known: it has a date, or it was stored with a
 * time-ordered row id, which keeps the import order. Undated tasks stored by earlier versions
 * have random ids, and their order among themselves is arbitrary.
 */
function orderKnown(task: HistoryTaskRow): boolean {
  return task.createdAt !== null || isTimeOrderedId(task.id);
}

/** Each task's position in the history, by row id: built once per fit, read by every training query's cut. */
function positionsOf(history: readonly HistoryTaskRow[]): Map<string, number> {
  return new Map(history.map((t, i) => [t.id, i]));
}

/**
 * The tasks from `position` on, by row id: what a query asked at that point of the history must
 * not see. A task imported while training runs (not in `positions`) is newer still, so hidden too.
 */
function tasksFrom(positions: ReadonlyMap<string, number>, position: number): HiddenTasks {
  return { has: (id) => (positions.get(id) ?? Number.POSITIVE_INFINITY) >= position, size: positions.size - position };
}

/** How many tasks of the (oldest-first) history were created before `at`; undated tasks count as old. */
function tasksBefore(history: readonly HistoryTaskRow[], at: Date): number {
  let n = 0;
  while (n < history.length && (history[n].createdAt === null || history[n].createdAt!.getTime() < at.getTime())) n += 1;
  return n;
}

const round = (m: { mrr: number; r10: number }) => ({ mrr: Math.round(m.mrr * 1000) / 1000, r10: Math.round(m.r10 * 1000) / 1000 });
