import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { SearchRequestSchema, type EvalQuery, type EvalRunFile, type IndexJob, type RankerStatus, type TaskImportResult } from '@sextant/contracts';
import { taskFiles, taskImportInput, type EvalDataset } from '@sextant/eval';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { RankerTrainingService } from '../fusion/ranker-training.service';
import { SearchService } from '../fusion/search.service';
import { IndexingService } from '../indexing/services/indexing.service';
import { TaskHistoryService } from '../task-history/task-history.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { Bm25RrfBaseline } from './bm25-rrf-baseline';
import { readBaselineCorpus } from './fts5-file-baseline';
import { BASELINE_LEGS, BASELINE_RUNS, BASELINE_STRATEGY, RAW_BASELINE_STRATEGY, searchRequestFor, type EvalStrategySpec } from './eval-strategies';

/** Progress of an evaluation, for the CLI's status line. */
export type EvaluationProgress =
  | { phase: 'index'; job: IndexJob }
  | { phase: 'tasks'; result: TaskImportResult }
  | { phase: 'ranker'; done: number; total: number }
  | { phase: 'ranker-done'; status: RankerStatus }
  | { phase: 'ratings'; done: number; total: number }
  | { phase: 'ratings-done'; ratings: number; status: RankerStatus }
  | { phase: 'queries'; done: number; total: number }
  | { phase: 'baseline'; files: number };

/** Options for {@link EvaluationService.run}. */
export interface EvaluationRunOptions {
  dataset: EvalDataset;
  strategies: readonly EvalStrategySpec[];
  /** Files each search returns (default 50, the API's maximum; the metrics use the top 10, MRR the whole list). */
  topK?: number;
  /** Also run the BM25 + RRF baseline and its two legs (default true). */
  baseline?: boolean;
  onProgress?: (p: EvaluationProgress) => void;
  signal?: AbortSignal;
  /**
   * Before scoring, ask the first `searches` queries as a user would (default search, top 10),
   * rate every relevant file among the results +1 through `rate` (a perfect rater), and refit the
   * ranker; those queries are then left out of the scores. Measures what ratings add.
   */
  simulateRatings?: { searches: number; rate: (workspaceId: string, searchId: string, itemId: string) => Promise<unknown> };
}

/** What {@link EvaluationService.run} produced. */
export interface EvaluationRun {
  /** The FORMAT.md run file: ranked paths per strategy and query, latency per strategy and query. */
  runFile: EvalRunFile;
  workspaceId: string;
  index: IndexJob;
  tasks: TaskImportResult;
  /** Searches that threw (the query is scored as an empty list for that strategy). */
  errors: Array<{ strategy: string; queryId: string; message: string }>;
  /** Degradations searches reported (`limits`), counted by message. */
  limits: Record<string, number>;
  baselineFiles: number | null;
  /** Wall-clock seconds per phase: index, tasks (import), ranker (training), ratings (simulated, with the refit), queries (all strategies), baseline. */
  phases: Record<'index' | 'tasks' | 'ranker' | 'queries' | 'baseline', number> & { ratings?: number };
  /** The queries the run file scores (all with relevant files, less those rated in a simulation). */
  scoredQueries: EvalQuery[];
  /** Set when ratings were simulated: how many, on how many searches. */
  simulatedRatings: { searches: number; ratings: number } | null;
  /** The learned ranker fitted on the dataset's tasks (what the default strategy then uses). */
  ranker: RankerStatus;
}

/**
 * `sextant eval run` as a use case: index a dataset's corpus and import its task history
 * into a fresh workspace, then ask every query of every strategy through the real
 * `SearchService` (no caching, no pool logging) and return the ranked files as a
 * FORMAT.md run file. The caller owns the data directory (the CLI uses a temporary one).
 * It has no HTTP surface, so it is not a provider of the app module: the CLI builds it
 * from the context's services.
 */
export class EvaluationService {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly indexing: IndexingService,
    private readonly taskHistory: TaskHistoryService,
    private readonly search: SearchService,
    /** Without it no ranker is trained and the default strategy is plain fusion (the feedback simulation measures fusion weights alone). */
    private readonly rankerTraining?: RankerTrainingService,
  ) {}

  async run(options: EvaluationRunOptions): Promise<EvaluationRun> {
    const { dataset, strategies, topK = 50, baseline = true, onProgress, signal } = options;
    const ws = await this.workspaces.create(`eval-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`, `Evaluation of ${dataset.meta?.repo ?? dataset.dir}`);

    const phases: EvaluationRun['phases'] = { index: 0, tasks: 0, ranker: 0, queries: 0, baseline: 0 };
    let phaseStarted = performance.now();
    const endPhase = (phase: 'index' | 'tasks' | 'ranker' | 'ratings' | 'queries' | 'baseline') => {
      phases[phase] = Math.round((performance.now() - phaseStarted) / 10) / 100;
      phaseStarted = performance.now();
    };
    // The corpus is the repository's tree at the cutoff (FORMAT.md): every file in it is tracked, and git
    // applies .gitignore to untracked files only, so a rule such as `types` must not hide `src/types/`.
    const repo = await this.indexing.register(ws.id, { path: dataset.corpusDir, name: 'corpus' }, { gitignore: false });
    const started = await this.indexing.startJob(ws.id, repo.id, 'full');
    const job = await this.indexing.waitForJob(ws.id, started.id);
    endPhase('index');
    onProgress?.({ phase: 'index', job });
    if (job.status !== 'succeeded') throw new DomainError(DomainErrorCode.Unavailable, `Indexing the corpus ${dataset.corpusDir} ended ${job.status}${job.error ? `: ${job.error}` : ''}`);

    const tasks = await this.taskHistory.importTasks(ws.id, dataset.tasks.map(taskImportInput), { source: 'git', repositoryId: repo.id });
    // A run whose history was refused would measure code search alone under the default's name.
    if (dataset.tasks.length > 0 && tasks.imported + tasks.updated === 0) {
      const first = tasks.errors[0];
      throw new DomainError(DomainErrorCode.InvalidInput, `None of the ${dataset.tasks.length} tasks could be imported${first ? ` (line ${first.line}${first.id ? `, ${first.id}` : ''}: ${first.message})` : ''}`);
    }
    endPhase('tasks');
    onProgress?.({ phase: 'tasks', result: tasks });
    // As a server would after this import: the default strategy uses the ranker when the history allows one.
    let ranker: RankerStatus = this.rankerTraining
      ? await this.rankerTraining.train(ws.id, { signal, onProgress: (p) => onProgress?.({ phase: 'ranker', ...p }) })
      : { state: 'none', model_version: null, trained_at: null, history_tasks: dataset.tasks.length, trained_on_tasks: null, examples: 0, rated_searches: 0, validation: null, top_weights: [], message: 'Not trained (this run measures fusion alone).' };
    endPhase('ranker');
    onProgress?.({ phase: 'ranker-done', status: ranker });

    let queries = dataset.queries.filter((q) => q.relevant.length > 0);
    let simulatedRatings: EvaluationRun['simulatedRatings'] = null;
    if (options.simulateRatings && this.rankerTraining) {
      const rated = queries.slice(0, options.simulateRatings.searches);
      queries = queries.slice(rated.length);
      let ratings = 0;
      for (const [i, q] of rated.entries()) {
        signal?.throwIfAborted();
        // Logged like a user's search, so the rating finds its pool; the rater sees the first page.
        const request = SearchRequestSchema.safeParse({ query: q.query, top_k: 10 });
        if (!request.success) continue; // refused (e.g. too long): this query is simply not rated
        const response = await this.search.search(ws.id, request.data, { cache: false, signal });
        const relevant = new Set(q.relevant);
        for (const r of response.results) {
          if (!relevant.has(r.path)) continue;
          await options.simulateRatings.rate(ws.id, response.search_id, r.id);
          ratings += 1;
        }
        onProgress?.({ phase: 'ratings', done: i + 1, total: rated.length });
      }
      ranker = await this.rankerTraining.train(ws.id, { signal });
      simulatedRatings = { searches: rated.length, ratings };
      endPhase('ratings');
      onProgress?.({ phase: 'ratings-done', ratings, status: ranker });
    }

    const runs: EvalRunFile['runs'] = {};
    const latency: NonNullable<EvalRunFile['latency_ms']> = {};
    for (const s of strategies) {
      runs[s.name] = {};
      latency[s.name] = {};
    }
    const errors: EvaluationRun['errors'] = [];
    const limits: Record<string, number> = {};
    for (const [qi, q] of queries.entries()) {
      signal?.throwIfAborted();
      // Rotate the order per query so no strategy always pays first-call costs (query embedding).
      for (let j = 0; j < strategies.length; j++) {
        const s = strategies[(qi + j) % strategies.length];
        const t0 = performance.now();
        try {
          // A query the API refuses (say, over MAX_QUERY_CHARS) is one failed search, not the end of the run.
          const parsed = SearchRequestSchema.safeParse(searchRequestFor(s, q.query, topK));
          if (!parsed.success) throw new Error(`refused: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
          const request = parsed.data;
          const response = await this.search.search(ws.id, request, { log: false, cache: false, signal });
          latency[s.name][q.id] = Math.round((performance.now() - t0) * 1000) / 1000;
          runs[s.name][q.id] = uniquePaths(response.results.map((r) => r.path));
          for (const l of response.limits) limits[l] = (limits[l] ?? 0) + 1;
        } catch (err) {
          signal?.throwIfAborted();
          errors.push({ strategy: s.name, queryId: q.id, message: (err as Error).message });
        }
      }
      onProgress?.({ phase: 'queries', done: qi + 1, total: queries.length });
    }

    endPhase('queries');

    let baselineFiles: number | null = null;
    if (baseline) {
      const baselineTasks = dataset.tasks.map((t) => ({ title: t.title, body: t.body, files: taskFiles(t) }));
      const corpus = await readBaselineCorpus(dataset.corpusDir);
      const bm25 = await Bm25RrfBaseline.build(corpus, baselineTasks);
      const raw = await Bm25RrfBaseline.build(corpus, baselineTasks, 'unicode61');
      baselineFiles = bm25.files;
      onProgress?.({ phase: 'baseline', files: bm25.files });
      for (const name of BASELINE_RUNS) {
        runs[name] = {};
        latency[name] = {};
      }
      try {
        for (const q of queries) {
          const t0 = performance.now();
          const ranking = bm25.search(q.query, topK);
          const ms = Math.round((performance.now() - t0) * 1000) / 1000;
          runs[BASELINE_STRATEGY][q.id] = ranking.fused;
          runs[BASELINE_LEGS.files][q.id] = ranking.files;
          runs[BASELINE_LEGS.tasks][q.id] = ranking.tasks;
          for (const name of [BASELINE_STRATEGY, ...Object.values(BASELINE_LEGS)]) latency[name][q.id] = ms;
          const t1 = performance.now();
          runs[RAW_BASELINE_STRATEGY][q.id] = raw.search(q.query, topK).fused;
          latency[RAW_BASELINE_STRATEGY][q.id] = Math.round((performance.now() - t1) * 1000) / 1000;
        }
      } finally {
        bm25.close();
        raw.close();
      }
      endPhase('baseline');
    }
    return { runFile: { runs, latency_ms: latency }, workspaceId: ws.id, index: job, tasks, errors, limits, baselineFiles, phases: inTimeOrder(phases), ranker, scoredQueries: queries, simulatedRatings };
  }
}

/** A file can come back once per repository; the dataset has one repository, so keep first occurrences. */
function uniquePaths(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

/** The phases in the order they ran (a simulation's ratings come between ranker and queries). */
function inTimeOrder(p: EvaluationRun['phases']): EvaluationRun['phases'] {
  return { index: p.index, tasks: p.tasks, ranker: p.ranker, ...(p.ratings !== undefined ? { ratings: p.ratings } : {}), queries: p.queries, baseline: p.baseline };
}
