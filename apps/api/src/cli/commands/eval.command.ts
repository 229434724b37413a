import { createWriteStream, existsSync, mkdtempSync, realpathSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import type { Command } from 'commander';
import { MAX_TOP_K } from '@sextant/contracts';
import { runGitOutside } from '@sextant/indexer';
import { FEATURE_NAMES } from '@sextant/retrieval';
import { makeDataset, readDataset, readIssues, readQueries, readTasks, writeRunFile, type EvalDataset } from '@sextant/eval';
import { DomainError } from '../../common/domain-error';
import { BASELINE_RUNS, BASELINE_STRATEGY, DEFAULT_EVAL_STRATEGY, RAW_BASELINE_STRATEGY, selectStrategies, type EvalStrategySpec } from '../../modules/evaluation/eval-strategies';
import { buildEvaluationReport, publishableReport } from '../../modules/evaluation/evaluation-report';
import { EvalReportsService } from '../../modules/evaluation/eval-reports.service';
import { EvaluationService, type EvaluationProgress } from '../../modules/evaluation/evaluation.service';
import { FeedbackService } from '../../modules/feedback/feedback.service';
import { RankerFeatureLog } from '../../modules/fusion/ranker-feature-log';
import { RankerTrainingService } from '../../modules/fusion/ranker-training.service';
import { SearchService } from '../../modules/fusion/search.service';
import { IndexingService } from '../../modules/indexing/services/indexing.service';
import { TaskHistoryService } from '../../modules/task-history/task-history.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { registerSimulateFeedback } from './simulate-feedback.command';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

interface MakeDatasetOpts {
  git: string;
  out: string;
  cutoff?: string;
  maxFiles: string;
  minQueryChars: string;
  issues?: string;
  codeOnly?: boolean;
  overwrite?: boolean;
  json?: boolean;
}

interface RunOpts {
  dataset?: string;
  corpus?: string;
  tasks?: string;
  queries?: string;
  strategies?: string;
  json?: string;
  report?: string;
  metricsJson?: string;
  topK: string;
  baseline: boolean;
  fused: string;
  dataDir?: string;
  keepData?: boolean;
  publish?: string | boolean;
  simulateRatings?: string;
  rankerFeatures?: string;
}

const err = (line: string) => process.stderr.write(`${line}\n`);

export function registerEval(program: Command): void {
  const evalCmd = program.command('eval').description('Build evaluation datasets from git history and score search strategies on them (docs/eval-format.md)');

  evalCmd
    .command('make-dataset')
    .description('Mine a git history: commits before the cutoff become tasks, later commits become queries whose ground truth is the files they modified')
    .requiredOption('--git <repo>', 'local git repository (or a URL to clone)')
    .requiredOption('--out <dir>', 'dataset folder to write (corpus/, tasks.jsonl, queries.jsonl, meta.json)')
    .option('--cutoff <sha|ref|date>', 'cutoff commit, or an ISO date (default: the mainline commit at 70 % of history)')
    .option('--max-files <n>', 'later commits touching more files are not queries', '15')
    .option('--min-query-chars <n>', 'later commits with a shorter message are not queries (long messages stand in for issue reports)', '0')
    .option('--issues <file>', 'issue reports as queries instead of later commits: JSONL of {"id", "title", "body", "fixed_by": [commit shas]}; answers are the files the fixes modified (default cutoff: just before the oldest fix)')
    .option('--code-only', 'answers are code files only (no tests, docs or changelogs): the "gold file" of issue evaluations')
    .option('--overwrite', 'replace an existing corpus/ folder')
    .option('--json', 'print meta.json on stdout')
    .action(async (opts: MakeDatasetOpts) => {
      const maxFiles = Number(opts.maxFiles);
      if (!Number.isInteger(maxFiles) || maxFiles < 1) fail(`--max-files must be a positive integer, got "${opts.maxFiles}"`, ExitCode.BadInput);
      const minQueryChars = Number(opts.minQueryChars);
      if (!Number.isInteger(minQueryChars) || minQueryChars < 0) fail(`--min-query-chars must be a non-negative integer, got "${opts.minQueryChars}"`, ExitCode.BadInput);
      let repoPath = opts.git;
      let cloneDir: string | null = null;
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(opts.git) || /^[^/\s]+@[^:\s]+:/.test(opts.git)) {
        cloneDir = mkdtempSync(join(tmpdir(), 'sextant-eval-clone-'));
        err(`Cloning ${opts.git} …`);
        try {
          await runGitOutside(['clone', '--quiet', '--bare', '--', opts.git, cloneDir], { maxBuffer: 16 * 1024 * 1024 });
        } catch (e) {
          rmSync(cloneDir, { recursive: true, force: true });
          fail(`cannot clone ${opts.git}: ${(e as Error).message.split('\n')[0]}`, ExitCode.BadInput);
        }
        repoPath = cloneDir;
      } else if (!existsSync(opts.git)) fail(`--git ${opts.git}: no such directory`, ExitCode.BadInput);
      try {
        const issues = opts.issues ? await readIssues(resolve(opts.issues)) : undefined;
        const made = await makeDataset({ repoPath: resolve(repoPath), outDir: resolve(opts.out), cutoff: opts.cutoff, maxFilesPerQuery: maxFiles, minQueryChars, overwrite: opts.overwrite, issues, codeOnly: opts.codeOnly });
        if (opts.json) process.stdout.write(`${JSON.stringify(made.meta)}\n`);
        else {
          const c = made.meta.counts;
          process.stdout.write(
            `Dataset ${made.dir}\n  repo ${made.meta.repo}, cutoff ${made.meta.cutoff_sha.slice(0, 12)} (${made.meta.cutoff_date})\n` +
              `  ${c.corpus_files} corpus files, ${c.tasks} tasks, ${c.queries} queries ${JSON.stringify(c.query_types)}\n  skipped queries: ${JSON.stringify(c.skipped_queries)}\n`,
          );
          for (const w of made.meta.warnings ?? []) process.stderr.write(`warning: ${w}\n`);
        }
      } catch (e) {
        fail((e as Error).message, ExitCode.BadInput);
      } finally {
        if (cloneDir) rmSync(cloneDir, { recursive: true, force: true });
      }
    });

  evalCmd
    .command('run')
    .description(`Index a dataset into a throw-away workspace and score every strategy (P@5/10, R@5/10, MRR, NDCG@10, Acc@1/5, significance vs ${BASELINE_STRATEGY} — task_only with --no-baseline —, latency)`)
    .option('--dataset <dir>', 'dataset folder (shorthand for --corpus DIR/corpus --tasks DIR/tasks.jsonl --queries DIR/queries.jsonl)')
    .option('--corpus <dir>', 'source tree to index')
    .option('--tasks <file>', 'tasks.jsonl (task history)')
    .option('--queries <file>', 'queries.jsonl (queries with relevant files)')
    .option('--strategies <list>', `comma-separated subset (default: all, plus ${BASELINE_STRATEGY})`)
    .option('--json <file>', 'write the run file (FORMAT.md) here')
    .option('--report <file>', 'write a Markdown report here, with its bar chart as <name>.svg beside it')
    .option('--metrics-json <file>', 'write the computed metrics (scores, significance, latency, overlap) as JSON')
    .option('--top-k <n>', `files per search (max ${MAX_TOP_K})`, '50')
    .option('--no-baseline', `skip the BM25 + RRF baseline (${BASELINE_STRATEGY}), its legs and ${RAW_BASELINE_STRATEGY}`)
    .option('--fused <strategy>', 'the fused strategy the complementarity/coverage metrics use', DEFAULT_EVAL_STRATEGY)
    .option('--data-dir <dir>', 'data directory for the throw-away workspace (default: a new folder under $SEXTANT_DATA_DIR/eval-runs/, deleted afterwards)')
    .option('--keep-data', 'keep the temporary data directory')
    .option('--simulate-ratings <n>', 'before scoring, search the first n queries as a user would, rate each relevant file in the top 10 +1 (a perfect rater), refit the ranker, and score only the remaining queries')
    .option('--ranker-features <file>', "log the learned ranker's lists as JSONL: its training examples, every default search's candidates, each with its feature vector, and the fitted model (docs/evaluation.md, \"Feature logging\")")
    .option('--publish [workspace]', "store the scores and chart in a workspace of this server's database (SEXTANT_DATA_DIR / DATABASE_URL) for the dashboard's Insights page (default workspace: default)")
    .action(async (opts: RunOpts) => {
      const topK = Number(opts.topK);
      if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) fail(`--top-k must be an integer from 1 to ${MAX_TOP_K}, got "${opts.topK}"`, ExitCode.BadInput);
      let strategies: EvalStrategySpec[] = [];
      const names = opts.strategies?.split(',').map((s) => s.trim()).filter(Boolean);
      try {
        strategies = selectStrategies(names);
      } catch (e) {
        fail((e as Error).message, ExitCode.BadInput);
      }
      const simulated = opts.simulateRatings === undefined ? 0 : Number(opts.simulateRatings);
      if (opts.simulateRatings !== undefined && (!Number.isInteger(simulated) || simulated < 1)) fail(`--simulate-ratings must be a whole number of searches from 1, got "${opts.simulateRatings}"`, ExitCode.BadInput);
      const withBaseline = opts.baseline && (!names || BASELINE_RUNS.some((b) => names.includes(b)));
      const dataset = await loadDatasetOrExit(opts);
      const answerable = dataset.queries.filter((q) => q.relevant.length > 0).length;
      if (simulated >= answerable && simulated > 0) fail(`--simulate-ratings ${simulated} leaves no query to score (${answerable} have relevant files)`, ExitCode.BadInput);
      // The workspace to publish to is checked before the (long) evaluation.
      const publishTo = opts.publish ? await openPublishTarget(typeof opts.publish === 'string' ? opts.publish : 'default') : null;
      // Opened before the evaluation so a path that cannot be written fails at once.
      const featureFile = opts.rankerFeatures ? await openFeatureFile(resolve(opts.rankerFeatures)) : null;
      for (const w of dataset.warnings.slice(0, 10)) err(`warning: ${w}`);
      if (dataset.warnings.length > 10) err(`warning: … and ${dataset.warnings.length - 10} more`);

      // Like every command, the run lives in the data dir (SEXTANT_DATA_DIR), in a folder of its own that is deleted afterwards.
      let tempDir: string | null = null;
      if (!opts.dataDir) {
        const runsDir = join(loadConfigOrExit().storage.dataDir, 'eval-runs');
        await mkdir(runsDir, { recursive: true, mode: 0o700 });
        tempDir = mkdtempSync(join(runsDir, 'run-'));
      }
      const dataDir = resolve(opts.dataDir ?? tempDir!);
      err(`Data dir: ${dataDir}`);
      // Embedded stores in the data dir, whatever the environment points at: the workspace is thrown away.
      const config = loadConfigOrExit({ SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: realpathSync(dataset.corpusDir), DATABASE_URL: '', QDRANT_URL: '', SEXTANT_WATCH: 'false' });
      const ctx = await createCliContext(config);
      const started = Date.now();
      try {
        if (featureFile) ctx.get(RankerFeatureLog).start((record) => featureFile.write(`${JSON.stringify(record)}\n`));
        const evaluation = new EvaluationService(ctx.get(WorkspacesService), ctx.get(IndexingService), ctx.get(TaskHistoryService), ctx.get(SearchService), ctx.get(RankerTrainingService));
        const feedback = ctx.get(FeedbackService);
        const simulateRatings = simulated
          ? { searches: simulated, rate: (workspaceId: string, searchId: string, itemId: string) => feedback.rate({ workspaceId, role: 'member', principal: 'eval:simulated-rater' }, { search_id: searchId, item_id: itemId, rating: 1 }) }
          : undefined;
        const run = await evaluation.run({ dataset, strategies, topK, baseline: withBaseline, onProgress: reportProgress, simulateRatings });
        err(`Evaluated ${run.scoredQueries.length} queries × ${strategies.length + (withBaseline ? BASELINE_RUNS.length : 0)} strategies in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        err(`Phases: ${Object.entries(run.phases).map(([phase, s]) => `${phase} ${s.toFixed(2)} s`).join(', ')}`);
        if (run.errors.length) {
          err(`${run.errors.length} searches failed (scored as empty lists), e.g.:`);
          for (const e of run.errors.slice(0, 5)) err(`  ${e.strategy} ${e.queryId}: ${e.message}`);
        }
        const degradations = Object.entries(run.limits).sort((a, b) => b[1] - a[1]);
        if (degradations.length) err(`Search limits reported: ${degradations.slice(0, 5).map(([m, n]) => `${m} (${n}×)`).join('; ')}`);

        const c = run.index.counts;
        const notes = [
          `Index: ${c.indexed} files, ${c.chunks} chunks; embedder ${config.embeddings.provider}${config.embeddings.provider === 'openai' ? ` (${config.embeddings.model})` : ` (${config.embeddings.dimensions} dims)`}; embedded store (SQLite + in-memory int8).`,
          `Tasks: ${run.tasks.imported + run.tasks.updated} imported, ${run.tasks.skipped} skipped${run.tasks.paths_followed ? `, ${run.tasks.paths_followed} moved paths followed to today's files` : ''}. Each search asks for the top ${topK} files.`,
          ...(run.baselineFiles !== null ? [`Baseline: ${run.baselineFiles} files in FTS5, ${dataset.tasks.length} tasks.`] : []),
          ...(run.simulatedRatings ? [`Simulated ratings: the first ${run.simulatedRatings.searches} queries were searched and their relevant top-10 results rated +1 (${run.simulatedRatings.ratings} ratings) before the ranker was refitted; the scores cover the other ${run.scoredQueries.length}.`] : []),
          `Learned ranker: ${run.ranker.message}`,
          `Phases (s): ${Object.entries(run.phases).map(([phase, s]) => `${phase} ${s.toFixed(2)}`).join(', ')}.`,
        ];
        const title = `Sextant evaluation — ${dataset.meta?.repo ?? basename(resolve(dataset.dir))}`;
        const printed = buildEvaluationReport({ runFile: run.runFile, queries: run.scoredQueries, meta: dataset.meta, fused: opts.fused, title, chart: 'none', notes });
        process.stdout.write(printed.markdown);

        if (opts.json) {
          await writeRunFile(resolve(opts.json), run.runFile);
          err(`Run file: ${resolve(opts.json)}`);
        }
        if (opts.report) {
          const reportPath = resolve(opts.report);
          const chartPath = join(dirname(reportPath), `${basename(reportPath, extname(reportPath))}.svg`);
          const report = buildEvaluationReport({ runFile: run.runFile, queries: run.scoredQueries, meta: dataset.meta, fused: opts.fused, title, chart: { file: basename(chartPath) }, notes });
          await mkdir(dirname(reportPath), { recursive: true });
          await writeFile(reportPath, report.markdown, 'utf8');
          await writeFile(chartPath, report.chartSvg, 'utf8');
          err(`Report: ${reportPath} (chart ${chartPath})`);
        }
        if (opts.metricsJson) {
          const { results, overlap } = printed;
          const out = { dataset: dataset.meta, default_strategy: opts.fused, top_k: topK, index: run.index.counts, tasks: run.tasks, errors: run.errors.length, phases_s: run.phases, ranker: run.ranker, ...results, overlap };
          await mkdir(dirname(resolve(opts.metricsJson)), { recursive: true });
          await writeFile(resolve(opts.metricsJson), JSON.stringify(out, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2) + '\n', 'utf8');
        }
        if (featureFile) {
          ctx.get(RankerFeatureLog).stop();
          await closeStream(featureFile);
          // Without an active model no search is re-ranked, so only training lists (if any) are logged.
          err(`Ranker features: ${resolve(opts.rankerFeatures!)}${run.ranker.state === 'active' ? '' : ` (no active model, so no search lists: ${run.ranker.message})`}`);
        }
        await ctx.close();
        if (tempDir && !opts.keepData) rmSync(tempDir, { recursive: true, force: true });
        else err(`Data kept in ${dataDir}`);
        if (publishTo) {
          const draft = publishableReport(printed, { title, meta: dataset.meta, fused: opts.fused, queries: run.scoredQueries.length });
          const published = await publishTo.ctx.get(EvalReportsService).publish(publishTo.workspaceId, draft, `cli:${osUser()}`);
          await publishTo.ctx.close();
          err(`Published report ${published.id} to workspace ${publishTo.slug} (GET /v1/eval/reports/latest, the dashboard's Insights page)`);
        }
      } catch (e) {
        if (featureFile) await closeStream(featureFile).catch(() => undefined);
        await ctx.close().catch(() => undefined);
        await publishTo?.ctx.close().catch(() => undefined);
        if (tempDir && !opts.keepData) rmSync(tempDir, { recursive: true, force: true });
        if (e instanceof DomainError) fail(e.message, ExitCode.Failure);
        throw e;
      }
    });

  registerSimulateFeedback(evalCmd);
}

/** The feature log's JSONL file, its first line naming the features. */
async function openFeatureFile(file: string): Promise<WriteStream> {
  try {
    await mkdir(dirname(file), { recursive: true });
    const stream = createWriteStream(file, { encoding: 'utf8' });
    await new Promise<void>((ready, failed) => stream.once('open', () => ready()).once('error', failed));
    stream.write(`${JSON.stringify({ kind: 'header', features: FEATURE_NAMES })}\n`);
    return stream;
  } catch (e) {
    return fail(`--ranker-features ${file}: ${(e as Error).message}`, ExitCode.BadInput);
  }
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((done, failed) => stream.end((e?: Error | null) => (e ? failed(e) : done())));
}

/** This server's database (the environment's SEXTANT_DATA_DIR / DATABASE_URL) and the workspace a report goes to. */
async function openPublishTarget(slug: string): Promise<{ ctx: INestApplicationContext; workspaceId: string; slug: string }> {
  const ctx = await createCliContext(loadConfigOrExit());
  try {
    return { ctx, workspaceId: (await ctx.get(WorkspacesService).getBySlug(slug)).id, slug };
  } catch (e) {
    await ctx.close();
    if (e instanceof DomainError) fail(`--publish ${slug}: ${e.message}`, ExitCode.BadInput);
    throw e;
  }
}

/** The OS account running the CLI, for `published_by` (containers may have no passwd entry). */
function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

async function loadDatasetOrExit(opts: RunOpts): Promise<EvalDataset> {
  try {
    if (opts.dataset) {
      if (opts.corpus || opts.tasks || opts.queries) fail('give either --dataset or --corpus/--tasks/--queries, not both', ExitCode.BadInput);
      return await readDataset(resolve(opts.dataset));
    }
    if (!opts.corpus || !opts.tasks || !opts.queries) fail('eval run needs --corpus, --tasks and --queries (or --dataset DIR)', ExitCode.BadInput);
    const corpusDir = resolve(opts.corpus);
    if (!existsSync(corpusDir) || !statSync(corpusDir).isDirectory()) fail(`--corpus ${opts.corpus}: not a directory`, ExitCode.BadInput);
    const tasks = await readTasks(resolve(opts.tasks));
    const queries = await readQueries(resolve(opts.queries));
    // Only the files given are read: a meta.json lying beside them is not part of the input.
    const meta = null;
    const warnings: string[] = [];
    for (const q of queries) {
      const missing = q.relevant.filter((p) => !existsSync(join(corpusDir, p)));
      if (missing.length) warnings.push(`query ${q.id}: relevant file(s) not in corpus: ${missing.join(', ')}`);
    }
    return { dir: dirname(resolve(opts.queries)), corpusDir, tasks, queries, meta, warnings };
  } catch (e) {
    fail((e as Error).message, ExitCode.BadInput);
  }
}

let lastCountLine = 0;
/** A "done/total" line at most every 5 s, and always the last one. */
function countLine(p: { done: number; total: number }, line: string): void {
  const now = Date.now();
  if (p.done !== p.total && now - lastCountLine <= 5000) return;
  lastCountLine = now;
  err(line);
}

function reportProgress(p: EvaluationProgress): void {
  if (p.phase === 'index') {
    const c = p.job.counts;
    err(`Indexed corpus: ${c.indexed} files, ${c.chunks} chunks (${p.job.status})`);
  } else if (p.phase === 'tasks') {
    err(`Imported tasks: ${p.result.imported} new, ${p.result.updated} updated, ${p.result.skipped} skipped${p.result.errors.length ? ` (first error: ${p.result.errors[0].message})` : ''}`);
  } else if (p.phase === 'ranker') countLine(p, `Training the ranker: ${p.done}/${p.total} past tasks`);
  else if (p.phase === 'ranker-done') err(`Learned ranker: ${p.status.message}`);
  else if (p.phase === 'ratings') countLine(p, `Simulated ratings: ${p.done}/${p.total} searches`);
  else if (p.phase === 'ratings-done') err(`Simulated ratings: ${p.ratings} relevant results rated +1; refitted ranker: ${p.status.message}`);
  else if (p.phase === 'queries') countLine(p, `Queries: ${p.done}/${p.total}`);
  else err(`Baseline: ${p.files} files in FTS5`);
}
