import type { Histogram } from 'prom-client';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import {
  CODE_FIRST_REASON,
  definitionReason,
  routineReason,
  HISTORY_ONLY_REASON,
  MAX_QUERY_CHARS,
  MAX_TOP_K,
  SEARCH_SOURCES,
  SearchRequestSchema,
  type ChunkEvidence,
  type DefinitionHit,
  type ExternalResult,
  type ParsedSearchRequest,
  type RelatedTask,
  type SearchPartial,
  type SearchResponse,
  type SearchResult,
  type SearchSource,
  type WeakMatchReason,
} from '@sextant/contracts';
import type { CachedEmbedder } from '@sextant/embeddings';
import { CODE_FIRST_PLACES, FEATURE_NAMES, asksWhereDefined, definingFiles, liftDefinitionFirst, queryIdentifiers, PRIOR_BEFORE_FUSION, ROUTINE_PLACES, applyPriors, orderRankingsByPrior, changeTemplate, keepRoutineInTop, type RoutinePlacement, boostMentionedFiles, calibratedScore, candidateFeatures, classifyQuery, explainScore, extractQueryEvidence, filesFromTasks, firstParagraph, fuse, mergeByScore, isProblemReport, liftCodeFirst, mostlyUnknownWords, queryTermSet, reorderBelowTop, stripQueryTrailers, stripReportNoise, scoreCandidates, weightQueryTerms, type CandidateEvidence, type ChunkPayload, type FileMention, type FusedItem, type IndexFilter, type QueryClass, type ScoredPoint, type SourceRanking, type SourceWeights, type StructuralPriors } from '@sextant/retrieval';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { EMBEDDER } from '../../storage/storage.module';
import { fileItemId, type FileHit, type RetrieverResult } from '../file-search/file-search.types';
import { FileSearchService, pathAllowed } from '../file-search/file-search.service';
import { FilesRepository } from '../indexing/repositories/files.repository';
import { RepositoriesRepository } from '../indexing/repositories/repositories.repository';
import { IndexEvents } from '../indexing/services/indexing.tokens';
import { TASKS_CHANGED, TaskHistoryService } from '../task-history/task-history.service';
import { FusionWeightsService } from './fusion-weights.service';
import { IndexedPathsCache } from './indexed-paths.cache';
import { MetricsService } from '../metrics/metrics.service';
import { LearnedRankerService, type ActiveRanker } from './learned-ranker.service';
import { loggedCandidates, RankerFeatureLog } from './ranker-feature-log';
import { MentionIndexCache } from './mentioned-files.cache';
import { SearchCache } from './search-cache';
import { SearchLogService, shownOnlyPoolItems } from './search-log.service';
import { SearchRerankService } from './search-rerank.service';
import { ExternalResultsService } from './external-results.service';
import { GRAPH_SEEDS, GraphExpansionService, type GraphSeed } from './graph-expansion.service';
import { STRUCTURAL_PRIORS } from './structural-priors.provider';

/** Weight of the title-only ranking when it is merged with the whole query's (docs/evaluation.md). */
const TITLE_WEIGHT = 0.5;
export const DEFAULT_SOURCE_TIMEOUT_MS = 2000;
/** Similar tasks considered per task source. */
const TASK_DEPTH = 40;
const SNIPPET_LINES = 12;
/** Queries with more distinct terms than this (issue reports, logs) are keyword-searched with their strongest terms, OR-ed. */
export const LONG_QUERY_TERMS = 32;
/** Calibrated relevance (learned ranker) under which the best result counts as a weak match even with lexical evidence. */
export const WEAK_MATCH_BELOW = 0.05;

/** How a search's query is sent to each source. */
interface QueryPlan {
  /** What the keyword sources search for: the query itself, or its strongest terms for long queries. */
  keywordQuery: string;
  keywordMode?: ParsedSearchRequest['keyword_mode'];
  /** Indexed files the query names (frames, paths, modules), by result id. */
  mentioned: Map<string, FileMention>;
  /** Set for training queries: the task sources see the history as it was then. */
  cutoff?: HistoryCutoff;
  /** The query reads as a problem report (code block, traceback, error line, prompt): code before tests and docs. */
  report?: boolean;
  /** The query's subject with version numbers and references masked: past changes with the same template are its routine ({@link changeTemplate}). */
  template?: string;
  /** The first stage's strongest hits, set before `file.graph` runs. */
  graphSeeds?: GraphSeed[];
}

/** The sources that expand similar tasks into the files they touched. */
const TASK_SOURCES = ['task.dense', 'task.keyword'] as const satisfies readonly SearchSource[];

/** Expands the other sources' hits, so it runs as a second stage once they have answered. */
const GRAPH_SOURCE = 'file.graph' satisfies SearchSource;

type RankedFile = FusedItem & {
  path: string;
  prior: number;
  scoreBeforePrior: number;
  mention?: FileMention;
  ranker?: RankerExplanation;
  /** The all-changed model's probability for the file (merged like `score` when a title search ran): what orders the places below the top ones. */
  allChangedScore?: number;
  /** Set when the query was also searched by its title: the file's calibrated score in each search (0 where one lacks it). */
  titleSearch?: { title: number; text: number };
  /** Set when a problem report's first code file was lifted to the top from this rank. */
  liftedFrom?: number;
  /** Set when the file was kept in the top places as part of the query's routine (keepRoutineInTop). */
  routine?: RoutinePlacement;
  /** Set when the file was put first for defining an identifier the query names (liftDefinitionFirst). */
  definition?: DefinitionHit;
};

export interface SearchOptions {
  /** Called with the fused ranking so far each time a source answers. */
  onPartial?: (partial: SearchPartial) => void;
  signal?: AbortSignal;
  /** Write the search and its pool (default true). */
  log?: boolean;
  /** Use the result cache (default true). */
  cache?: boolean;
  principal?: string;
  /** The learned ranker orders default requests when the workspace has an active model ('auto', the default); 'off' never. */
  ranker?: 'auto' | 'off';
}

/** Which tasks (by row id) a query asked at a past point of the history must not see, and how many. */
export type HiddenTasks = Pick<ReadonlySet<string>, 'has' | 'size'>;

/** The history as it was before a past task: training asks each held-out task at its own position. */
export interface HistoryCutoff {
  /**
   * Row ids of the tasks at or after the position: task sources leave them out. A set of ids
   * rather than a date, so that tasks without dates (kept in the order they were imported) and
   * tasks made in the same second as the position cut exactly where the history features do.
   */
  hiddenTasks: HiddenTasks;
  /** The position in the change history features are computed at. */
  position: number;
}

/** One candidate file of a training query: its path and feature vector, in fused order. */
export interface RankingCandidate {
  path: string;
  features: Float64Array;
}

/** Seconds: searches take milliseconds; the top buckets catch timeouts. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Candidates the learned ranker re-orders (the rest keep their fused order below them). */
export const RANKER_DEPTH = 50;
/** Files added to the ranker's candidates for their history profile alone. */
export const PROFILE_CANDIDATES = 20;
/** Depth of the ranker's own whole-file and task BM25 lists, and how many of each join the candidates. */
export const BM25_DEPTH = 100;
export const BM25_CANDIDATES = 20;

interface SourceOutcome {
  source: SearchSource;
  result?: RetrieverResult;
  relatedTasks?: Map<string, RelatedTask[]>;
  error?: string;
  ms: number;
}

interface CachedSearch {
  response: Omit<SearchResponse, 'search_id' | 'cached'>;
  rankings: SourceRanking[];
}

class SourceTimeoutError extends Error {}

/**
 * The dual search: file sources (dense, keyword, symbol) and task sources (similar past
 * tasks -> the files they touched) run in parallel, each with its own timeout; whatever
 * answers is fused with the workspace's weights for the query class, adjusted by
 * structural priors, explained, logged as a pool and cached.
 */
@Injectable()
export class SearchService {
  private readonly logger = new Logger(SearchService.name);
  private readonly cache = new SearchCache<CachedSearch>();
  /** Task paths -> indexed files, until the workspace's index changes (at most a minute). */
  private readonly indexedPaths = new IndexedPathsCache({ ttlMs: 60_000, maxPathsPerWorkspace: 200_000 });
  /** Every indexed path per workspace, for queries that name files (tracebacks, paths, modules). */
  private readonly mentionIndex = new MentionIndexCache(60_000);

  constructor(
    private readonly fileSearch: FileSearchService,
    private readonly tasks: TaskHistoryService,
    private readonly weights: FusionWeightsService,
    private readonly logs: SearchLogService,
    private readonly repos: RepositoriesRepository,
    private readonly files: FilesRepository,
    @Inject(EMBEDDER) private readonly embedder: CachedEmbedder,
    /** The structural-prior table (also what offline re-ranking must use to match live searches). */
    @Inject(STRUCTURAL_PRIORS) readonly priors: StructuralPriors,
    private readonly ranker: LearnedRankerService,
    metrics: MetricsService,
    private readonly reranking: SearchRerankService,
    private readonly externalResults: ExternalResultsService,
    private readonly graphExpansion: GraphExpansionService,
    private readonly featureLog: RankerFeatureLog,
  ) {
    this.searchDuration = metrics.histogram('search_duration_seconds', 'Search latency by strategy and whether the result cache answered', ['strategy', 'cached'], LATENCY_BUCKETS);
    this.sourceDuration = metrics.histogram('search_source_duration_seconds', 'Latency of each search source by outcome (ok, failed, timeout)', ['source', 'outcome'], LATENCY_BUCKETS);
    this.resultsReturned = metrics.histogram('search_results', 'Results returned per search', ['strategy'], [0, 1, 5, 10, 20, 50, 100]);
  }

  private readonly searchDuration: Histogram<'strategy' | 'cached'>;
  private readonly sourceDuration: Histogram<'source' | 'outcome'>;
  private readonly resultsReturned: Histogram<'strategy'>;

  @OnEvent(IndexEvents.Done)
  @OnEvent(TASKS_CHANGED)
  onIndexChanged(event: { workspace_id?: string; workspaceId?: string }): void {
    const ws = event.workspace_id ?? event.workspaceId;
    if (ws) {
      this.cache.invalidate(ws);
      this.indexedPaths.invalidate(ws);
      this.mentionIndex.invalidate(ws);
    }
  }

  /** File rows change while a job runs (and when it fails), not only when it is done. */
  @OnEvent(IndexEvents.Progress)
  @OnEvent(IndexEvents.Error)
  onIndexProgress(event: { workspace_id?: string }): void {
    if (event.workspace_id) {
      this.indexedPaths.invalidate(event.workspace_id);
      this.mentionIndex.invalidate(event.workspace_id);
    }
  }

  async search(workspaceId: string, asked: ParsedSearchRequest, options: SearchOptions = {}): Promise<SearchResponse> {
    const started = performance.now();
    // A pasted commit message's trailers are not part of the question (stripQueryTrailers); the response and the log keep what was asked.
    const trailers = asked.keyword_mode === 'phrase' ? { text: asked.query, dropped: 0 } : stripQueryTrailers(asked.query);
    const request: ParsedSearchRequest = trailers.dropped ? { ...asked, query: trailers.text } : asked;
    const queryLimits = trailers.dropped ? [`query: ${trailers.dropped} commit trailer line${trailers.dropped === 1 ? '' : 's'} (Signed-off-by, Co-authored-by, …) left out`] : [];
    const queryClass: QueryClass = classifyQuery(request.query);
    const current = await this.weights.current(workspaceId, queryClass);
    const weights: SourceWeights = { ...current.weights, ...(request.weights ?? {}) };
    const sources = (request.sources ?? [...SEARCH_SOURCES]).filter((s) => (weights[s] ?? 1) > 0);
    if (!sources.length) throw new DomainError(DomainErrorCode.InvalidInput, 'Every requested source has weight 0');
    const { filter, repoNames } = await this.buildFilter(workspaceId, request);
    const repoIds = new Set(repoNames.keys());
    // External sources answer live data: a search that has any is never served from (or put in) the cache.
    const externalRuns = await this.externalResults.start(workspaceId, request, options.signal);
    const useCache = options.cache !== false && !options.onPartial && !externalRuns.length;
    const model = options.ranker !== 'off' && isDefaultRequest(request) ? await this.ranker.current(workspaceId) : null;
    const cacheKey = this.cache.key(workspaceId, { ...request, sources }, { weights, version: current.version, ranker: model?.version ?? 0 });

    if (useCache) {
      const hit = this.cache.get(cacheKey);
      if (hit) {
        const search_id = randomUUID();
        if (options.log !== false) this.log(workspaceId, search_id, options.principal, asked, queryClass, weights, current.version, hit.response.results, hit.rankings, performance.now() - started);
        this.searchDuration.observe({ strategy: request.strategy, cached: 'true' }, (performance.now() - started) / 1000);
        this.resultsReturned.observe({ strategy: request.strategy }, hit.response.results.length);
        // Cached without what this asking left out (the same search may have been asked without trailers).
        return { ...hit.response, query: asked.query, limits: [...queryLimits, ...hit.response.limits], search_id, cached: true, timings_ms: { total: round(performance.now() - started) } };
      }
    }

    const timings: Record<string, number> = {};
    // Embedded once, used by both dense sources and to pick evidence chunks for symbol/task-only files.
    const vectorStarted = performance.now();
    const vectorPromise: Promise<Float32Array> | null = this.embedder.embedQuery(request.query, options.signal).then((v) => ((timings.embed = round(performance.now() - vectorStarted)), v));
    vectorPromise.catch(() => undefined);

    const timeoutMs = request.timeout_ms ?? DEFAULT_SOURCE_TIMEOUT_MS;
    const outcomes = new Map<SearchSource, SourceOutcome>();
    const limits: string[] = [...queryLimits];
    const plan = await this.planQuery(workspaceId, request, filter, repoIds, limits);
    // External MCP sources (`mcp.<name>`) fuse with their priority as weight; their other hits are external results.
    const fusionWeights: SourceWeights = { ...weights, ...Object.fromEntries(externalRuns.map((r) => [r.source, r.priority])) };
    const externalBySource = new Map<string, ExternalResult[]>();
    const done: string[] = [];
    const emitPartial = (source: string) => {
      done.push(source);
      if (!options.onPartial || options.signal?.aborted) return;
      const fused = this.fuseOutcomes([...outcomes.values()], request, fusionWeights, plan);
      options.onPartial({
        source,
        results: this.buildResults(fused.slice(0, request.top_k), outcomes, repoNames, null, request),
        ...(externalRuns.length ? { external: this.externalResults.preview([...externalBySource.values()].flat()) } : {}),
        sources_done: [...done],
        sources_pending: [...sources, ...externalRuns.map((r) => r.source)].filter((s) => !done.includes(s)),
        limits: [...limits],
        elapsed_ms: round(performance.now() - started),
      });
    };
    const record = (source: SearchSource) => (outcome: SourceOutcome) => {
      outcomes.set(source, outcome);
      timings[source] = round(outcome.ms);
      if (outcome.error) limits.push(`${source}: ${outcome.error}`);
      if (outcome.result) limits.push(...outcome.result.limits);
      emitPartial(source);
    };
    // Multi-paragraph queries are also searched by their first paragraph alone (docs/evaluation.md).
    const title = model && !externalRuns.length ? firstParagraph(request.query) : null;
    const titlePass = title ? this.titleRanking(workspaceId, request, title, filter, repoIds, weights, model!, timeoutMs, options.signal) : null;
    titlePass?.catch(() => undefined);
    const runs = sources.filter((s) => s !== GRAPH_SOURCE).map((source) => this.runSource(source, workspaceId, request, plan, filter, vectorPromise, timeoutMs, options.signal, repoIds).then(record(source)));
    if (sources.includes(GRAPH_SOURCE)) runs.push(Promise.all(runs).then(() => this.runGraphStage(workspaceId, request, plan, filter, fusionWeights, outcomes, timeoutMs, options.signal, repoIds).then(record(GRAPH_SOURCE))));
    const externalFailures: string[] = [];
    const externalDone = externalRuns.map((run) =>
      run.outcome.then(async (outcome) => {
        const split = await this.externalResults.split(workspaceId, outcome).catch(() => ({ files: { files: [], limits: [] }, external: outcome.results }));
        if (split.files.files.length) outcomes.set(outcome.source as SearchSource, { source: outcome.source as SearchSource, result: split.files, ms: outcome.ms });
        externalBySource.set(outcome.source, split.external);
        timings[outcome.source] = round(outcome.ms);
        this.sourceDuration.observe({ source: outcome.source, outcome: !outcome.error ? 'ok' : outcome.error.startsWith('timed out') ? 'timeout' : 'failed' }, outcome.ms / 1000);
        if (outcome.error) {
          limits.push(`${outcome.source}: ${outcome.error}; dropped from this search`);
          externalFailures.push(`${outcome.source}: ${outcome.error}`);
        }
        emitPartial(outcome.source);
      }),
    );
    await Promise.all([...runs, ...externalDone]);
    if (options.signal?.aborted) throw new DomainError(DomainErrorCode.Unavailable, 'search cancelled');
    if (externalFailures.length && !this.externalResults.fallback) throw new DomainError(DomainErrorCode.Unavailable, `External source failed and fallback is off (SEXTANT_MCP_FALLBACK=false): ${externalFailures.join('; ')}`);

    const fusionStarted = performance.now();
    let fused = this.fuseOutcomes([...outcomes.values()], request, fusionWeights, plan);
    if (model && fused.length) fused = await this.rankWithModel(workspaceId, model, fused, outcomes, plan, filter, repoIds, { pass: 'full', query: request.query });
    if (titlePass) {
      const titleStarted = performance.now();
      const byTitle = await titlePass.catch((err: Error) => (limits.push(`title search: ${err.message}`), [] as RankedFile[]));
      timings.title_wait = round(performance.now() - titleStarted);
      if (byTitle.length) {
        const text = new Map(fused.map((f) => [f.id, f]));
        const byId = new Map(byTitle.map((f) => [f.id, f]));
        // The all-changed probabilities are merged the same way, for the places below the top ones.
        const merged = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : ((a ?? 0) + TITLE_WEIGHT * (b ?? 0)) / (1 + TITLE_WEIGHT));
        fused = mergeByScore(fused, byTitle, TITLE_WEIGHT).map((f) =>
          Object.assign({}, f, {
            titleSearch: { title: byId.get(f.id)?.score ?? 0, text: text.get(f.id)?.score ?? 0 },
            allChangedScore: merged(text.get(f.id)?.allChangedScore, byId.get(f.id)?.allChangedScore),
          }),
        );
      }
    }
    // A report (code block, traceback, error line, prompt) asks where the faulty code is; the model, fitted on commits that change tests and docs with the code, cannot tell.
    if (isDefaultRequest(request) && plan.report) fused = liftCodeFirst(fused);
    if (model?.allChanged) fused = placeBelowTop(fused);
    // "where is loadConfig" asks for the definition; the model, fitted on commits, cannot tell a lookup from a change.
    const symbolHits = outcomes.get('file.symbol')?.result?.files;
    if (isDefaultRequest(request) && symbolHits?.length && asksWhereDefined(request.query)) fused = liftDefinitionFirst(fused, definingFiles(queryIdentifiers(request.query), symbolHits));
    if (model && plan.template && fused.length > ROUTINE_PLACES) fused = keepRoutineInTop(fused, (await this.ranker.history(workspaceId)).routineChanges(plan.template));
    let { match, reason: matchReason } = matchStrength(fused, outcomes, plan);
    // The ranker's scores are calibrated on past tasks, which always had answers: a query of words the workspace never saw still gets a confident top file.
    const unknownTerms = model && match !== 'none' ? await this.mostlyUnknownWords(workspaceId, plan.keywordQuery) : undefined;
    if (unknownTerms && match === 'strong') [match, matchReason] = ['weak', 'unknown_terms'];
    const topFiles = fused.slice(0, request.granularity === 'chunk' ? Math.max(request.top_k, 10) : request.top_k);
    timings.fusion = round(performance.now() - fusionStarted);
    const hydrateStarted = performance.now();
    const vector = vectorPromise ? await vectorPromise.catch(() => null) : null;
    const evidence = await this.hydrateEvidence(workspaceId, topFiles, outcomes, vector);
    let results = this.buildResults(topFiles, outcomes, repoNames, evidence, request);
    if (request.granularity === 'chunk') results = toChunkResults(results, request.top_k);
    timings.hydrate = round(performance.now() - hydrateStarted);
    let external: ExternalResult[] = [];
    if (externalRuns.length) {
      const mergeStarted = performance.now();
      ({ results, external } = await this.externalResults.merge(results, [...externalBySource.values()].flat(), limits, options.signal));
      timings.external_merge = round(performance.now() - mergeStarted);
    }
    if ((request.rerank ?? this.reranking.byDefault) === true) {
      const rerankStarted = performance.now();
      ({ results, external } = await this.reranking.rerank(request, results, external, limits, options.signal));
      timings.rerank = round(performance.now() - rerankStarted);
    }
    timings.total = round(performance.now() - started);

    const rankings = this.rankingsOf([...outcomes.values()]).filter((r) => !r.source.startsWith('mcp.'));
    const response: Omit<SearchResponse, 'search_id' | 'cached'> = {
      query: asked.query,
      query_class: queryClass,
      strategy: request.strategy,
      granularity: request.granularity,
      weights: weights as SearchResponse['weights'],
      weights_version: current.version,
      match,
      ...(matchReason ? { match_reason: matchReason } : {}),
      ...(unknownTerms ? { unknown_terms: unknownTerms } : {}),
      results,
      ...(externalRuns.length ? { external } : {}),
      limits: [...new Set(limits)],
      timings_ms: timings,
    };
    const allFailed = [...outcomes.values()].every((o) => o.error);
    if (useCache && !allFailed && !limits.some((l) => /timed out|failed|skipped/.test(l))) this.cache.set(cacheKey, { response: { ...response, limits: response.limits.slice(queryLimits.length) }, rankings });
    const search_id = randomUUID();
    this.searchDuration.observe({ strategy: request.strategy, cached: 'false' }, timings.total / 1000);
    this.resultsReturned.observe({ strategy: request.strategy }, results.length);
    if (options.log !== false) this.log(workspaceId, search_id, options.principal, asked, queryClass, weights, current.version, results, rankings, timings.total);
    return { ...response, search_id, cached: false };
  }

  // --- sources ------------------------------------------------------------------------------

  private async runSource(
    source: SearchSource,
    workspaceId: string,
    request: ParsedSearchRequest,
    plan: QueryPlan,
    filter: IndexFilter,
    vectorPromise: Promise<Float32Array> | null,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    repoIds: ReadonlySet<string>,
  ): Promise<SourceOutcome> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = this.execute(source, workspaceId, request, filter, vectorPromise, signal, repoIds, plan);
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new SourceTimeoutError(`timed out after ${timeoutMs} ms`)), timeoutMs)));
      const value = await Promise.race([work, timeout]);
      this.sourceDuration.observe({ source, outcome: 'ok' }, (performance.now() - started) / 1000);
      return { source, ...value, ms: performance.now() - started };
    } catch (err) {
      const message = err instanceof SourceTimeoutError ? err.message : `failed: ${(err as Error).message}`;
      if (!(err instanceof SourceTimeoutError)) this.logger.warn({ err, source }, 'Search source failed');
      this.sourceDuration.observe({ source, outcome: err instanceof SourceTimeoutError ? 'timeout' : 'failed' }, (performance.now() - started) / 1000);
      return { source, error: message, ms: performance.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }

  /** `file.graph`, seeded with the strongest fused hits of the sources that have answered. */
  private runGraphStage(
    workspaceId: string,
    request: ParsedSearchRequest,
    plan: QueryPlan,
    filter: IndexFilter,
    weights: SourceWeights,
    outcomes: ReadonlyMap<SearchSource, SourceOutcome>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    repoIds: ReadonlySet<string>,
  ): Promise<SourceOutcome> {
    const head = this.fuseOutcomes([...outcomes.values()], request, weights, plan).slice(0, GRAPH_SEEDS);
    const top = head[0]?.score ?? 0;
    plan.graphSeeds = top > 0 ? head.filter((f) => f.score > 0).map((f) => ({ repoId: f.id.slice(5, 41), path: f.path, score: f.score / top })) : [];
    return this.runSource(GRAPH_SOURCE, workspaceId, request, plan, filter, null, timeoutMs, signal, repoIds);
  }

  /** Test seam: replaced in degradation tests to make a source throw or hang. */
  protected async execute(
    source: SearchSource,
    workspaceId: string,
    request: ParsedSearchRequest,
    filter: IndexFilter,
    vectorPromise: Promise<Float32Array> | null,
    signal?: AbortSignal,
    /** The workspace's repositories when the search started. */
    repoIds?: ReadonlySet<string>,
    plan: Pick<QueryPlan, 'keywordQuery' | 'keywordMode' | 'cutoff' | 'graphSeeds'> = { keywordQuery: request.query, keywordMode: request.keyword_mode },
  ): Promise<{ result: RetrieverResult; relatedTasks?: Map<string, RelatedTask[]> }> {
    switch (source) {
      case 'file.dense':
        return { result: await this.fileSearch.dense(await vectorPromise!, filter, { rescore: request.rerank !== false }) };
      case 'file.keyword':
        return { result: await this.fileSearch.keyword(plan.keywordQuery, filter, plan.keywordMode) };
      case 'file.symbol':
        return { result: await this.fileSearch.symbol(request.query, filter) };
      case 'file.graph':
        return { result: await this.graphExpansion.expand(workspaceId, plan.graphSeeds ?? [], filter) };
      case 'task.dense':
      case 'task.keyword': {
        const via = source === 'task.dense' ? 'dense' : 'keyword';
        const similar = await this.tasks.findSimilarTasks(workspaceId, via === 'keyword' ? plan.keywordQuery : request.query, { k: TASK_DEPTH, via, mode: 'or', queryVector: via === 'dense' ? await vectorPromise! : undefined, signal, fromIndex: true, hidden: plan.cutoff?.hiddenTasks });
        return this.filesOfTasks(workspaceId, similar, filter, source, repoIds);
      }
    }
  }

  /** Similar tasks -> the indexed files they touched, each explained by its tasks. */
  private async filesOfTasks(
    workspaceId: string,
    similar: Array<{ id: string; external_id: string; title: string; score: number; files: string[]; created_at: string | null; repository_id: string | null }>,
    filter: IndexFilter,
    source: SearchSource,
    repoIds: ReadonlySet<string> | undefined,
  ): Promise<{ result: RetrieverResult; relatedTasks: Map<string, RelatedTask[]> }> {
    const ranked = filesFromTasks(similar.map((t) => ({ taskId: t.id, score: t.score, files: t.files, createdAt: t.created_at, title: t.title })));
    const wanted = filter.repoIds?.length ? new Set(filter.repoIds) : repoIds;
    const cached = await this.indexedPaths.lookup(workspaceId, ranked.map((r) => r.path), (paths) => this.files.findIndexedByPaths(workspaceId, paths));
    // Cached rows cover every repository: keep those of repositories that (still) exist and were asked for.
    const rows = wanted ? cached.filter((r) => wanted.has(r.repositoryId)) : cached;
    const byPath = new Map<string, typeof rows>();
    for (const r of rows) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
    const taskById = new Map(similar.map((t) => [t.id, t]));
    const files: FileHit[] = [];
    const related = new Map<string, RelatedTask[]>();
    for (const f of ranked) {
      for (const row of byPath.get(f.path) ?? []) {
        const preferred = f.tasks.some((t) => taskById.get(t.taskId)?.repository_id === row.repositoryId) || f.tasks.every((t) => !taskById.get(t.taskId)?.repository_id);
        if (!preferred) continue;
        if (filter.langs?.length && !filter.langs.includes(row.lang ?? '')) continue;
        if (!pathAllowed(row.path, filter)) continue;
        const id = fileItemId(row.repositoryId, row.path);
        const tasks = f.tasks.map((t) => ({ task_id: taskById.get(t.taskId)!.external_id, title: taskById.get(t.taskId)!.title, score: round(t.taskScore, 4), created_at: taskById.get(t.taskId)!.created_at }));
        related.set(id, tasks);
        const reasons = [`${source === 'task.dense' ? 'task:similar' : 'task:keywords'}:${tasks[0]?.task_id ?? ''}`, ...(row.historyOnly ? [HISTORY_ONLY_REASON] : [])];
        files.push({ id, repoId: row.repositoryId, path: row.path, lang: row.lang, score: f.score, chunks: [], reasons });
      }
    }
    return { result: { files, limits: [] }, relatedTasks: related };
  }

  // --- learned ranking -------------------------------------------------------------------------

  /** The default ranking of `title` alone: every source, fusion and the model, with the request's filters; nothing streamed or logged. */
  private async titleRanking(workspaceId: string, request: ParsedSearchRequest, title: string, filter: IndexFilter, repoIds: ReadonlySet<string>, weights: SourceWeights, model: ActiveRanker, timeoutMs: number, signal?: AbortSignal): Promise<RankedFile[]> {
    const asked = { ...request, query: title };
    const plan = await this.planQuery(workspaceId, asked, filter, repoIds, []);
    const { outcomes, fused } = await this.retrieveAndFuse(workspaceId, asked, plan, filter, repoIds, weights, timeoutMs, signal);
    return fused.length ? this.rankWithModel(workspaceId, model, fused, outcomes, plan, filter, repoIds, { pass: 'title', query: request.query }) : [];
  }

  /** Every source, then the graph stage on their answers, then fusion: the search without streaming, cache or log. */
  private async retrieveAndFuse(workspaceId: string, request: ParsedSearchRequest, plan: QueryPlan, filter: IndexFilter, repoIds: ReadonlySet<string>, weights: SourceWeights, timeoutMs: number, signal?: AbortSignal): Promise<{ outcomes: Map<SearchSource, SourceOutcome>; fused: RankedFile[] }> {
    const vectorPromise = this.embedder.embedQuery(request.query, signal);
    vectorPromise.catch(() => undefined);
    const outcomes = new Map<SearchSource, SourceOutcome>();
    await Promise.all(
      SEARCH_SOURCES.filter((s) => s !== GRAPH_SOURCE).map(async (source) => {
        outcomes.set(source, await this.runSource(source, workspaceId, request, plan, filter, vectorPromise, timeoutMs, signal, repoIds));
      }),
    );
    outcomes.set(GRAPH_SOURCE, await this.runGraphStage(workspaceId, request, plan, filter, weights, outcomes, timeoutMs, signal, repoIds));
    return { outcomes, fused: this.fuseOutcomes([...outcomes.values()], request, weights, plan) };
  }

  /**
   * The candidates of a past task asked as a query at its own place in the history (task
   * sources see only older tasks), with the features the learned ranker uses, in fused order.
   * What ranker training learns from; nothing is cached or logged.
   */
  async rankingExample(workspaceId: string, query: string, cutoff: HistoryCutoff, signal?: AbortSignal): Promise<RankingCandidate[]> {
    const request = SearchRequestSchema.parse({ query: query.slice(0, MAX_QUERY_CHARS), top_k: MAX_TOP_K });
    const current = await this.weights.current(workspaceId, classifyQuery(request.query));
    const { filter, repoNames } = await this.buildFilter(workspaceId, request);
    const repoIds = new Set(repoNames.keys());
    const plan = { ...(await this.planQuery(workspaceId, request, filter, repoIds, [])), cutoff };
    const { outcomes, fused } = await this.retrieveAndFuse(workspaceId, request, plan, filter, repoIds, current.weights, 30_000, signal);
    const { candidates, features } = await this.candidateEvidence(workspaceId, fused.slice(0, RANKER_DEPTH), outcomes, plan, filter, repoIds, cutoff.position);
    return candidates.map((f, i) => ({ path: f.path, features: features[i] }));
  }

  /**
   * The learned ranker's candidates and their features: the fused head, plus the files whose
   * history profile matches the query best (a file's past changes were described in the
   * query's words) that no source returned.
   */
  private async candidateEvidence(
    workspaceId: string,
    head: readonly RankedFile[],
    outcomes: ReadonlyMap<SearchSource, SourceOutcome>,
    plan: QueryPlan,
    filter: IndexFilter,
    repoIds: ReadonlySet<string>,
    position: number | null,
  ): Promise<{ candidates: RankedFile[]; features: Float64Array[] }> {
    const [history, fileIndex] = await Promise.all([this.ranker.history(workspaceId), this.ranker.fileIndex(workspaceId)]);
    const at = position ?? history.size;
    const terms = queryTermSet(plan.keywordQuery);
    const profile = history.profile(terms, at);
    const fileBm25 = fileIndex?.search(terms, BM25_DEPTH) ?? [];
    const fileBm25Rank = new Map(fileBm25.map((f, i) => [f.path, { rank: i + 1, score: f.score }]));
    const taskBm25 = history.taskBm25Evidence(terms, at, BM25_DEPTH);
    const taskBm25Rank = new Map(taskBm25.files.slice(0, BM25_DEPTH).map((p, i) => [p, i + 1]));
    const candidates = [...head];
    const present = new Set(head.map((f) => f.path));
    const extra = [
      ...new Set([
        ...profile.top(PROFILE_CANDIDATES),
        ...fileBm25.slice(0, BM25_CANDIDATES).map((f) => f.path),
        ...[...taskBm25Rank.keys()].slice(0, BM25_CANDIDATES),
      ]),
    ].filter((p) => !present.has(p));
    if (extra.length) {
      const index = await this.mentionIndex.get(workspaceId, () => this.files.listIndexed(workspaceId, { historyOnly: true }));
      const wanted = filter.repoIds?.length ? new Set(filter.repoIds) : repoIds;
      for (const path of extra) {
        if (!pathAllowed(path, filter)) continue;
        for (const repoId of index.repositoriesOf.get(path) ?? []) if (wanted.has(repoId)) candidates.push({ id: fileItemId(repoId, path), path, score: 0, contributions: [], prior: this.priors.priorFor(path), scoreBeforePrior: 0 });
      }
    }
    const sourceMax: Partial<Record<string, number>> = {};
    for (const [source, o] of outcomes) sourceMax[source] = (o.result?.files ?? []).reduce((m, f) => Math.max(m, f.score), 0);
    let taskVoteMax = 0;
    for (const v of taskBm25.votes.values()) if (v > taskVoteMax) taskVoteMax = v;
    const context = { terms, sourceMax, topFusedScore: head.reduce((m, f) => Math.max(m, f.score), 0), history, position: at, profileMax: profile.max, fileBm25Max: fileBm25[0]?.score ?? 0, taskVoteMax };
    const paths = candidates.map((f) => f.path);
    const coverage = fileIndex?.coverage(terms, paths) ?? new Float64Array(paths.length);
    const tokens = fileIndex?.tokenCounts(paths) ?? new Float64Array(paths.length);
    const profileRanks = profile.ranks(paths);
    const coChanges = history.coChangeTop(paths, head.slice(0, 3).map((f) => f.path), at);
    const coChangesBm25 = history.coChangeTop(paths, fileBm25.slice(0, 3).map((f) => f.path), at);
    const coChangesTask = history.coChangeTop(paths, taskBm25.files.slice(0, 3), at);
    const relatedBySource = TASK_SOURCES.flatMap((s) => outcomes.get(s)?.relatedTasks ?? []);
    // One buffer for every candidate's vector instead of a small typed array each.
    const width = FEATURE_NAMES.length;
    const matrix = new Float64Array(candidates.length * width);
    const features: Float64Array[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const f = candidates[i];
      const sources: CandidateEvidence['sources'] = {};
      for (const c of f.contributions) sources[c.source] = c;
      let relatedTasks = 0;
      for (const related of relatedBySource) relatedTasks = Math.max(relatedTasks, related.get(f.id)?.length ?? 0);
      const fileBm25Hit = fileBm25Rank.get(f.path);
      const evidence: CandidateEvidence = { path: f.path, sources, fusedRank: i < head.length ? i + 1 : 0, fusedScore: f.score, mention: f.mention, prior: f.prior, relatedTasks, profileScore: profile.score(f.path), profileRank: profileRanks[i], coChange: coChanges[i], fileBm25Rank: fileBm25Hit?.rank ?? 0, fileBm25Score: fileBm25Hit?.score ?? 0, taskBm25Rank: taskBm25Rank.get(f.path) ?? 0, taskVote: taskBm25.votes.get(f.path) ?? 0, taskBest: taskBm25.best.get(f.path) ?? 0, fileCoverage: coverage[i], coChangeBm25: coChangesBm25[i], coChangeTask: coChangesTask[i], fileTokens: tokens[i] };
      features.push(candidateFeatures(evidence, context, matrix.subarray(i * width, (i + 1) * width)));
    }
    return { candidates, features };
  }

  /** A short query's words that no indexed file and no past task holds, when they are more than half of its words (the ranker's whole-file index and history know every term). */
  private async mostlyUnknownWords(workspaceId: string, query: string): Promise<string[] | undefined> {
    const [history, fileIndex] = await Promise.all([this.ranker.history(workspaceId), this.ranker.fileIndex(workspaceId)]);
    if (!fileIndex) return undefined;
    return mostlyUnknownWords(query, (term) => fileIndex.hasTerm(term) || history.hasTerm(term));
  }

  /** Re-orders the fused top {@link RANKER_DEPTH} (and history-profile candidates) with the model; scores become calibrated relevance probabilities. */
  private async rankWithModel(workspaceId: string, active: ActiveRanker, fused: RankedFile[], outcomes: ReadonlyMap<SearchSource, SourceOutcome>, plan: QueryPlan, filter: IndexFilter, repoIds: ReadonlySet<string>, asked: { pass: 'full' | 'title'; query: string }): Promise<RankedFile[]> {
    const { candidates: head, features } = await this.candidateEvidence(workspaceId, fused.slice(0, RANKER_DEPTH), outcomes, plan, filter, repoIds, null);
    if (this.featureLog.enabled) this.featureLog.write({ kind: 'search', ...asked, candidates: loggedCandidates(head.map((f) => f.path), features) });
    const raw = scoreCandidates(active.model, features);
    const rawAllChanged = active.allChanged ? scoreCandidates(active.allChanged, features) : null;
    const ranked = head
      .map((f, i) => ({ f, i, raw: raw[i] }))
      .sort((a, b) => b.raw - a.raw || a.i - b.i)
      .map(({ f, i, raw: r }) =>
        Object.assign({}, f, {
          score: calibratedScore(active.model, r),
          ranker: new RankerExplanation(active, r, rawAllChanged?.[i], features[i]),
          allChangedScore: rawAllChanged ? calibratedScore(active.allChanged!, rawAllChanged[i]) : undefined,
        }),
      );
    const floor = ranked.length ? Math.min(...ranked.map((r) => r.score)) : 0;
    // Files past the ranker's depth stay below everything it ranked; no response shows more than MAX_TOP_K of them.
    const rankedIds = new Set(ranked.map((r) => r.id));
    const tail: RankedFile[] = [];
    for (let j = RANKER_DEPTH; j < fused.length && tail.length < MAX_TOP_K; j++) {
      if (!rankedIds.has(fused[j].id)) tail.push(Object.assign({}, fused[j], { score: floor * (1 - (tail.length + 1) / (fused.length + 1)) }));
    }
    return [...ranked, ...tail];
  }

  // --- fusion and results ---------------------------------------------------------------------

  private rankingsOf(outcomes: SourceOutcome[]): SourceRanking[] {
    return outcomes
      .filter((o) => o.result)
      .map((o) => ({ source: o.source, items: o.result!.files.map((f) => ({ id: f.id, score: f.score })) }));
  }

  private fuseOutcomes(outcomes: SourceOutcome[], request: ParsedSearchRequest, weights: SourceWeights, plan: QueryPlan): RankedFile[] {
    const beforeFusion = PRIOR_BEFORE_FUSION.has(request.strategy);
    const rankings = beforeFusion ? orderRankingsByPrior(this.rankingsOf(outcomes), this.priors, pathOfId) : this.rankingsOf(outcomes);
    const fused = rankings.length ? fuse(request.strategy, rankings, { weights, primary: ['file.dense', 'file.keyword', 'file.symbol'], secondary: ['task.dense', 'task.keyword', 'file.graph'] }) : [];
    const boosted = boostMentionedFiles(fused, plan.mentioned, (id) => ({ id, score: 0, contributions: [] }));
    return applyPriors(boosted, this.priors, (f) => pathOfId(f.id), { scale: !beforeFusion });
  }

  /**
   * How each source gets the query: the keyword sources leave out what an issue report pastes
   * beside its problem (version lists, timestamped logs, frame directories: stripReportNoise),
   * long queries are keyword-searched with their strongest terms instead of OR-ing every word,
   * and the files the query names (traceback frames, paths, dotted modules) are looked up among
   * the indexed files.
   */
  private async planQuery(workspaceId: string, request: ParsedSearchRequest, filter: IndexFilter, repoIds: ReadonlySet<string>, limits: string[]): Promise<QueryPlan> {
    const plan: QueryPlan = { keywordQuery: request.query, keywordMode: request.keyword_mode, mentioned: new Map(), template: changeTemplate(request.query) };
    const prose = request.keyword_mode === 'phrase' ? null : stripReportNoise(request.query);
    const words = prose?.text ?? request.query;
    if (prose && (prose.droppedLines || prose.shortenedFrames)) {
      plan.keywordQuery = words;
      const left = [prose.droppedLines ? `${prose.droppedLines} lines of version lists, logs and environment` : '', prose.shortenedFrames ? `the directories of ${prose.shortenedFrames} stack frames` : ''].filter(Boolean);
      limits.push(`query: ${left.join(' and ')} left out of the keyword terms`);
    }
    const weighted = weightQueryTerms(words, { maxTerms: LONG_QUERY_TERMS });
    if (weighted.distinctTerms > LONG_QUERY_TERMS && request.keyword_mode !== 'phrase') {
      plan.keywordQuery = weighted.terms.join(' ');
      plan.keywordMode = 'or';
      limits.push(`query: ${weighted.distinctTerms} distinct terms; the keyword sources searched the ${LONG_QUERY_TERMS} strongest (OR); dense search used the whole text`);
    }
    const { mentions } = extractQueryEvidence(request.query);
    plan.report = isProblemReport(request.query, mentions);
    if (!mentions.length) return plan;
    const index = await this.mentionIndex.get(workspaceId, () => this.files.listIndexed(workspaceId, { historyOnly: true }));
    const wanted = filter.repoIds?.length ? new Set(filter.repoIds) : repoIds;
    for (const file of index.paths.resolve(mentions)) {
      if (!pathAllowed(file.path, filter)) continue;
      for (const repoId of index.repositoriesOf.get(file.path) ?? []) {
        if (!wanted.has(repoId)) continue;
        plan.mentioned.set(fileItemId(repoId, file.path), { kind: file.kind, strength: file.strength, mention: file.mention });
      }
    }
    return plan;
  }

  /** The chunks shown with each file: what the chunk sources matched, else the file's best chunks for the query. */
  private async hydrateEvidence(workspaceId: string, top: RankedFile[], outcomes: Map<SearchSource, SourceOutcome>, vector: Float32Array | null): Promise<Map<string, Array<ScoredPoint<ChunkPayload>>>> {
    const out = new Map<string, Array<ScoredPoint<ChunkPayload>>>();
    const missing: Array<{ id: string; repoId: string; path: string }> = [];
    for (const item of top) {
      const chunks = new Map<string, ScoredPoint<ChunkPayload>>();
      for (const o of outcomes.values()) for (const f of o.result?.files ?? []) if (f.id === item.id) for (const c of f.chunks) if (!chunks.has(c.id)) chunks.set(c.id, c);
      if (chunks.size) out.set(item.id, [...chunks.values()].sort((a, b) => b.score - a.score).slice(0, 3));
      else missing.push({ id: item.id, repoId: item.id.slice(5, 41), path: item.path });
    }
    if (vector && missing.length) {
      // One filtered dense search for all files without evidence, grouped back per file.
      const hits = await this.fileSearch.bestChunksOfFiles(vector, workspaceId, missing, 3).catch(() => []);
      for (const h of hits) {
        const id = fileItemId(h.payload.repoId, h.payload.path);
        const list = out.get(id) ?? [];
        if (list.length < 3) out.set(id, [...list, h]);
      }
    }
    return out;
  }

  private buildResults(
    top: RankedFile[],
    outcomes: Map<SearchSource, SourceOutcome>,
    repoNames: Map<string, string>,
    evidence: Map<string, Array<ScoredPoint<ChunkPayload>>> | null,
    request: ParsedSearchRequest,
  ): SearchResult[] {
    return top.map((item, i) => {
      const repoId = item.id.slice(5, 41);
      const reasons = new Set<string>();
      let lang: string | null = null;
      let relatedTasks: RelatedTask[] = [];
      const partialChunks: Array<ScoredPoint<ChunkPayload>> = [];
      for (const o of outcomes.values()) {
        const hit = o.result?.files.find((f) => f.id === item.id);
        if (!hit) continue;
        hit.reasons.forEach((r) => reasons.add(r));
        lang ??= hit.lang;
        partialChunks.push(...hit.chunks);
        const rel = o.relatedTasks?.get(item.id);
        if (rel) relatedTasks = mergeTasks(relatedTasks, rel);
      }
      if (item.mention) reasons.add(`mention:${item.mention.kind}:${item.mention.mention}`);
      if (item.prior !== 1) reasons.add(`prior:${item.prior}`);
      if (item.liftedFrom !== undefined) reasons.add(`${CODE_FIRST_REASON}${item.liftedFrom}`);
      if (item.routine) reasons.add(routineReason(item.routine));
      if (item.definition) reasons.add(definitionReason(item.definition));
      if (request.filters?.langs?.length) reasons.add(`filter:lang=${request.filters.langs.join(',')}`);
      const chunks = (evidence?.get(item.id) ?? partialChunks.sort((a, b) => b.score - a.score).slice(0, 3)).map(toEvidence);
      lang ??= evidence?.get(item.id)?.[0]?.payload.lang ?? null;
      return {
        id: item.id,
        kind: 'file' as const,
        rank: i + 1,
        score: round(item.score, 6),
        repo_id: repoId,
        repo_name: repoNames.get(repoId) ?? null,
        path: item.path,
        lang,
        chunk: chunks[0] ?? null,
        evidence: chunks,
        explain: {
          sources: item.contributions.map((c) => ({ source: c.source, rank: c.rank, score: round(c.score, 6), share: round(c.share, 4) })),
          hit_reasons: [...reasons],
          related_tasks: relatedTasks.slice(0, 5),
          prior: item.prior,
          score_before_prior: round(item.scoreBeforePrior, 6),
          prior_applied: PRIOR_BEFORE_FUSION.has(request.strategy) ? ('sources' as const) : ('fused' as const),
          ...(item.ranker
            ? { ranker: { model_version: item.ranker.version, ...(item.ranker.placedBy ? { placed_by: item.ranker.placedBy } : {}), rank_score: round(item.ranker.rankScore, 4), contributions: item.ranker.contributions.map((c) => ({ feature: c.feature, value: round(c.value, 4) })) } }
            : {}),
          ...(item.titleSearch ? { title_search: { title_score: round(item.titleSearch.title, 6), text_score: round(item.titleSearch.text, 6), title_weight: TITLE_WEIGHT } } : {}),
        },
      };
    });
  }

  private async buildFilter(workspaceId: string, request: ParsedSearchRequest): Promise<{ filter: IndexFilter; repoNames: Map<string, string> }> {
    const repos = await this.repos.list(workspaceId);
    const repoNames = new Map(repos.map((r) => [r.id, r.name]));
    const f = request.filters ?? {};
    let repoIds: string[] | undefined;
    if (f.repos?.length) {
      repoIds = f.repos.map((ref) => repos.find((r) => r.id === ref || r.name === ref)?.id).filter((x): x is string => Boolean(x));
      if (!repoIds.length) throw new DomainError(DomainErrorCode.InvalidInput, `No repository named ${f.repos.join(', ')} in this workspace`);
    }
    return {
      filter: { workspaceId, repoIds, langs: f.langs, chunkTypes: f.chunk_types, include: f.include, exclude: f.exclude, symbols: f.symbols },
      repoNames,
    };
  }

  private log(
    workspaceId: string,
    searchId: string,
    principal: string | undefined,
    request: ParsedSearchRequest,
    queryClass: QueryClass,
    weights: SourceWeights,
    version: number,
    results: SearchResult[],
    rankings: SourceRanking[],
    latencyMs: number,
  ): void {
    // Chunk results are also pooled under the sources of their file, so chunk ratings can be credited.
    const extra = request.granularity === 'chunk' ? results.flatMap((r) => r.explain.sources.map((s) => ({ source: s.source, itemId: r.id, rank: s.rank, score: s.score }))) : [];
    this.logs.recordInBackground(
      { searchId, workspaceId, principal: principal ?? 'local', query: request.query, queryClass, strategy: request.strategy, granularity: request.granularity, weights: weights as Record<string, number>, weightsVersion: version, resultCount: results.length, latencyMs },
      rankings,
      [...extra, ...shownOnlyPoolItems(results, rankings, extra)],
      (err) => this.logger.error({ err, searchId }, 'Could not write the search pool'),
    );
  }
}

function toEvidence(c: ScoredPoint<ChunkPayload>): ChunkEvidence {
  const lines = c.payload.content.split('\n');
  const snippet = lines.slice(0, SNIPPET_LINES).join('\n') + (lines.length > SNIPPET_LINES ? '\n…' : '');
  return { id: c.id, chunk_type: c.payload.chunkType, symbol: c.payload.symbol, start_line: c.payload.startLine, end_line: c.payload.endLine, start_byte: c.payload.startByte, end_byte: c.payload.endByte, score: round(c.score, 6), snippet };
}

/**
 * File results -> chunk results: each file's best chunk in file order, then each file's second
 * chunk, and so on, so the first results point at different files instead of one file's windows.
 */
function toChunkResults(files: SearchResult[], topK: number): SearchResult[] {
  const out: SearchResult[] = [];
  for (let depth = 0; out.length < topK; depth++) {
    const layer = files.filter((f) => f.evidence.length > depth);
    if (!layer.length) break;
    for (const f of layer) {
      if (out.length >= topK) break;
      const c = f.evidence[depth];
      out.push({ ...f, id: c.id, kind: 'chunk', rank: out.length + 1, chunk: c, evidence: [c] });
    }
  }
  return out;
}

function mergeTasks(a: RelatedTask[], b: RelatedTask[]): RelatedTask[] {
  const byId = new Map(a.map((t) => [t.task_id, t]));
  for (const t of b) if (!byId.has(t.task_id) || byId.get(t.task_id)!.score < t.score) byId.set(t.task_id, t);
  return [...byId.values()].sort((x, y) => y.score - x.score);
}

const pathOfId = (id: string) => id.slice(id.indexOf(':', 5) + 1);

/**
 * Whether a result list answers the query: `none` when it is empty; `weak` when nothing but
 * embedding similarity connects it to the query (no keyword, symbol or task-keyword hit, no
 * file named in the query) or its best fused score is tiny; else `strong`. Dense search
 * always returns neighbours, so a nonsense query gets results, flagged weak.
 */
export function matchStrength(
  fused: readonly { score: number; ranker?: unknown }[],
  outcomes: ReadonlyMap<SearchSource, { result?: { files: readonly unknown[] } }>,
  plan: { mentioned: ReadonlyMap<string, unknown> },
): { match: SearchResponse['match']; reason?: WeakMatchReason } {
  if (!fused.length) return { match: 'none' };
  const lexical = (['file.keyword', 'file.symbol', 'task.keyword'] as const).some((s) => (outcomes.get(s)?.result?.files.length ?? 0) > 0);
  if (!lexical && plan.mentioned.size === 0) return { match: 'weak', reason: 'embedding_only' };
  // Only the learned ranker's scores are calibrated probabilities; fused scores are not comparable across queries.
  return fused[0].ranker && fused[0].score < WEAK_MATCH_BELOW ? { match: 'weak', reason: 'low_relevance' } : { match: 'strong' };
}

/** The ranker's part of `explain`; contributions are worked out only for the results a response shows. */
class RankerExplanation {
  private explained: Array<{ feature: string; value: number }> | undefined;

  readonly version: number;

  constructor(
    private readonly active: ActiveRanker,
    private readonly codeFirstScore: number,
    /** The all-changed model's raw score (versions that have it). */
    readonly allChangedScore: number | undefined,
    private readonly features: Float64Array,
    /** Which model placed the file; reported only for versions with both. */
    readonly placedBy: 'code_first' | 'all_changed' | undefined = allChangedScore === undefined ? undefined : 'code_first',
  ) {
    this.version = active.version;
  }

  get rankScore(): number {
    return this.placedBy === 'all_changed' ? this.allChangedScore! : this.codeFirstScore;
  }

  get contributions(): Array<{ feature: string; value: number }> {
    return (this.explained ??= explainScore(this.placedBy === 'all_changed' ? this.active.allChanged! : this.active.model, this.features));
  }

  placedByAllChanged(): RankerExplanation {
    return new RankerExplanation(this.active, this.codeFirstScore, this.allChangedScore, this.features, 'all_changed');
  }
}

/**
 * The final list with the places below the code-first model's top ones re-ordered by the
 * all-changed model (reorderBelowTop): after the title merge and the code-first lift, so the top
 * places are exactly the code-first ranking's. Scores stay in place order (each slot keeps its
 * score), so they keep decreasing.
 */
function placeBelowTop(fused: RankedFile[]): RankedFile[] {
  const reordered = reorderBelowTop(fused, (f) => f.allChangedScore);
  return reordered.map((f, j) => (j < CODE_FIRST_PLACES || f.allChangedScore === undefined || !f.ranker ? f : Object.assign({}, f, { score: fused[j].score, ranker: f.ranker.placedByAllChanged() })));
}

/** The learned ranker stands in for the default fusion only: requests that choose a strategy, sources or weights get exactly what they asked for. */
function isDefaultRequest(request: ParsedSearchRequest): boolean {
  return request.strategy === 'weighted' && !request.sources && !request.weights;
}

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
