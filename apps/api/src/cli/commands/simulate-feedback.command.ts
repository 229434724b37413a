import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { Command } from 'commander';
import { readDataset, readMeta, readQueries, readTasks, type EvalDataset } from '@sextant/eval';
import { DEFAULT_LEARNER_PARAMS, type LearnerParams } from '@sextant/retrieval';
import { DataSource } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { EvaluationService } from '../../modules/evaluation/evaluation.service';
import { FeedbackService } from '../../modules/feedback/feedback.service';
import { FeedbackSimulation } from '../../modules/feedback/simulation/feedback-simulation';
import { SIM_METRICS, type SimMetric } from '../../modules/feedback/simulation/offline-ranker';
import { renderDocSection, renderSimulationMarkdown, renderSummaryRow, renderTrajectorySvg } from '../../modules/feedback/simulation/simulation-report';
import { FusionWeightsService } from '../../modules/fusion/fusion-weights.service';
import { SearchLogService } from '../../modules/fusion/search-log.service';
import { SearchService } from '../../modules/fusion/search.service';
import { IndexingService } from '../../modules/indexing/services/indexing.service';
import { TaskHistoryService } from '../../modules/task-history/task-history.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

interface SimulateOpts {
  dataset?: string;
  corpus?: string;
  tasks?: string;
  queries?: string;
  raters: string;
  noise: string;
  rateTop: string;
  badShare: string;
  gridStep: string;
  metric: string;
  epochs: string;
  seed: string;
  learningRate?: string;
  floor?: string;
  decay?: string;
  temperature?: string;
  anneal?: string;
  json?: string;
  report?: string;
  section?: string;
}

const err = (line: string) => process.stderr.write(`${line}\n`);

function number(name: string, raw: string, min: number, max: number, integer = false): number {
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) fail(`--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${raw}"`, ExitCode.BadInput);
  return v;
}

/** `sextant eval simulate-feedback`: offline proof that learning from ratings helps (docs/feedback.md). */
export function registerSimulateFeedback(evalCmd: Command): void {
  evalCmd
    .command('simulate-feedback')
    .description('Simulate raters on a dataset: learn fusion weights from ratings of the training half, report held-out R@10/MRR/NDCG@10 before and after, from default and from deliberately bad weights')
    .option('--dataset <dir>', 'dataset folder (shorthand for --corpus DIR/corpus --tasks DIR/tasks.jsonl --queries DIR/queries.jsonl)')
    .option('--corpus <dir>', 'source tree to index')
    .option('--tasks <file>', 'tasks.jsonl (task history)')
    .option('--queries <file>', 'queries.jsonl (queries with relevant files)')
    .option('--raters <n>', 'simulated raters taking turns', '3')
    .option('--noise <p[,p…]>', 'probability a rating is wrong; a comma list runs each level (0 is always run as the reference)', '0.2')
    .option('--rate-top <n>', 'results rated per training search', '10')
    .option('--bad-share <x>', 'normalised weight the deliberately bad start puts on one source', '0.9')
    .option('--grid-step <x>', 'simplex step of the fixed-weights grid search', '0.1')
    .option('--metric <name>', `metric for the grid search and the recovery (${SIM_METRICS.join(', ')})`, 'ndcg10')
    .option('--epochs <n>', 'passes over the training queries', '1')
    .option('--seed <n>', 'seed of the split and the noise', '1')
    .option('--learning-rate <x>', `override η (default ${DEFAULT_LEARNER_PARAMS.learningRate})`)
    .option('--floor <x>', `override the floor (default ${DEFAULT_LEARNER_PARAMS.floor})`)
    .option('--decay <x>', `override the decay (default ${DEFAULT_LEARNER_PARAMS.decay})`)
    .option('--temperature <x>', `override the pair-weight temperature T (default ${DEFAULT_LEARNER_PARAMS.temperature})`)
    .option('--anneal <n>', `override the step schedule's n₀ in ratings, 0 = constant step (default ${DEFAULT_LEARNER_PARAMS.annealRatings})`)
    .option('--json <file>', 'write every number (scenarios, trajectories, grid) as JSON')
    .option('--report <file>', 'write the Markdown report, with the weights chart as <name>.svg beside it')
    .option('--section <file>', "write this repository's block of the results section of docs/feedback.md (and its summary row)")
    .action(async (opts: SimulateOpts) => {
      const noiseLevels = [...new Set([0, ...opts.noise.split(',').map((p) => number('noise', p.trim(), 0, 0.5))])].sort((a, b) => a - b);
      if (!(SIM_METRICS as readonly string[]).includes(opts.metric)) fail(`--metric must be one of ${SIM_METRICS.join(', ')}`, ExitCode.BadInput);
      const params: LearnerParams = {
        ...DEFAULT_LEARNER_PARAMS,
        ...(opts.learningRate ? { learningRate: number('learning-rate', opts.learningRate, 0, 10) } : {}),
        ...(opts.floor ? { floor: number('floor', opts.floor, 0, 0.2) } : {}),
        ...(opts.decay ? { decay: number('decay', opts.decay, 0, 1) } : {}),
        ...(opts.temperature ? { temperature: number('temperature', opts.temperature, 0.001, 10) } : {}),
        ...(opts.anneal ? { annealRatings: number('anneal', opts.anneal, 0, 1e6) } : {}),
      };
      const dataset = await loadDataset(opts);
      const tempDir = mkdtempSync(join(tmpdir(), 'sextant-simfb-'));
      const config = loadConfigOrExit({ SEXTANT_DATA_DIR: tempDir, SEXTANT_ALLOWED_ROOTS: realpathSync(dataset.corpusDir), DATABASE_URL: '', QDRANT_URL: '', SEXTANT_WATCH: 'false' });
      const ctx = await createCliContext(config);
      const started = Date.now();
      try {
        const search = ctx.get(SearchService);
        const weights = ctx.get(FusionWeightsService);
        const logs = ctx.get(SearchLogService);
        const feedback = new FeedbackService(ctx.get(DataSource), ctx.get(TransactionRunner), logs, weights, ctx.get(EventEmitter2), params, search.priors);
        const evaluation = new EvaluationService(ctx.get(WorkspacesService), ctx.get(IndexingService), ctx.get(TaskHistoryService), search);
        const sim = new FeedbackSimulation(evaluation, search, logs, weights, feedback);
        const result = await sim.run({
          dataset,
          raters: number('raters', opts.raters, 1, 100, true),
          noiseLevels,
          rateTop: number('rate-top', opts.rateTop, 1, 50, true),
          badShare: number('bad-share', opts.badShare, 0.2, 0.99),
          gridStep: number('grid-step', opts.gridStep, 0.05, 0.5),
          metric: opts.metric as SimMetric,
          epochs: number('epochs', opts.epochs, 1, 20, true),
          seed: number('seed', opts.seed, 0, 2 ** 31, true),
          onProgress: err,
        });
        err(`Simulated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        const title = `Feedback simulation — ${repoLabel(dataset.meta?.repo ?? resolve(dataset.dir))}`;
        process.stdout.write(renderSimulationMarkdown(result, { title }));
        if (opts.json) {
          await mkdir(dirname(resolve(opts.json)), { recursive: true });
          await writeFile(resolve(opts.json), JSON.stringify({ dataset: dataset.meta, ...result }, null, 1) + '\n', 'utf8');
          err(`JSON: ${resolve(opts.json)}`);
        }
        if (opts.section) {
          const heading = repoLabel(dataset.meta?.repo ?? resolve(dataset.dir));
          const block = renderDocSection(result, { heading });
          await mkdir(dirname(resolve(opts.section)), { recursive: true });
          await writeFile(resolve(opts.section), `${block}\n<!-- summary row -->\n${renderSummaryRow(result, heading)}\n`, 'utf8');
          err(`Section: ${resolve(opts.section)}`);
        }
        if (opts.report) {
          const reportPath = resolve(opts.report);
          const chartPath = join(dirname(reportPath), `${basename(reportPath, extname(reportPath))}.svg`);
          await mkdir(dirname(reportPath), { recursive: true });
          await writeFile(reportPath, renderSimulationMarkdown(result, { title, chartFile: basename(chartPath) }), 'utf8');
          await writeFile(chartPath, renderTrajectorySvg(result), 'utf8');
          err(`Report: ${reportPath} (chart ${chartPath})`);
        }
      } finally {
        await ctx.close().catch(() => undefined);
        rmSync(tempDir, { recursive: true, force: true });
      }
    });
}

/** `owner/name` for a mirror path (`…/owner+name/repo`) or a URL, else the folder name. */
function repoLabel(repo: string): string {
  const mirror = /([^/+]+)\+([^/]+)\/repo\/?$/.exec(repo);
  if (mirror) return `${mirror[1]}/${mirror[2]}`;
  const url = /([^/:]+)\/([^/]+?)(\.git)?\/?$/.exec(repo);
  return url && /^(https?:|git@)/.test(repo) ? `${url[1]}/${url[2]}` : basename(repo);
}

async function loadDataset(opts: SimulateOpts): Promise<EvalDataset> {
  try {
    if (opts.dataset) return await readDataset(resolve(opts.dataset));
    if (!opts.corpus || !opts.tasks || !opts.queries) fail('simulate-feedback needs --corpus, --tasks and --queries (or --dataset DIR)', ExitCode.BadInput);
    const corpusDir = resolve(opts.corpus);
    if (!existsSync(corpusDir) || !statSync(corpusDir).isDirectory()) fail(`--corpus ${opts.corpus}: not a directory`, ExitCode.BadInput);
    const metaPath = join(dirname(resolve(opts.queries)), 'meta.json');
    return {
      dir: dirname(resolve(opts.queries)),
      corpusDir,
      tasks: await readTasks(resolve(opts.tasks)),
      queries: await readQueries(resolve(opts.queries)),
      meta: existsSync(metaPath) ? await readMeta(metaPath).catch(() => null) : null,
      warnings: [],
    };
  } catch (e) {
    fail((e as Error).message, ExitCode.BadInput);
  }
}
