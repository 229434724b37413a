import type { INestApplicationContext } from '@nestjs/common';
import type { Command } from 'commander';
import type { RankerStatus } from '@sextant/contracts';
import { DomainError } from '../../common/domain-error';
import { LearnedRankerService } from '../../modules/fusion/learned-ranker.service';
import { MIN_HISTORY_TASKS, RankerTrainingService, type TrainingProgress } from '../../modules/fusion/ranker-training.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import type { AppConfig } from '../../config/config.schema';
import { createCliContext } from '../cli-app';
import { ServerClient, viaServer, withDataDirLease } from '../server-client';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

/** The status a person reads: state, validation against fusion, what it weighs most. */
export function formatRankerStatus(s: RankerStatus): string {
  const lines = [`Learned ranker: ${s.state}${s.model_version !== null ? ` (model v${s.model_version}, trained ${s.trained_at})` : ''}`, `  history: ${s.history_tasks} tasks${s.trained_on_tasks !== null ? ` (${s.trained_on_tasks} when fitted, ${s.examples} training queries${s.rated_searches ? ` + ${s.rated_searches} rated searches` : ''})` : ''}`];
  if (s.validation) lines.push(`  held-out newest ${s.validation.queries} tasks: ranker MRR ${s.validation.ranker.mrr} R@10 ${s.validation.ranker.r10}  vs fusion MRR ${s.validation.fusion.mrr} R@10 ${s.validation.fusion.r10}`);
  const cc = s.validation?.cross_check;
  if (cc) lines.push(`  cross-checked on all ${cc.queries} tasks (${cc.folds} folds): ranker MRR ${cc.ranker.mrr} R@10 ${cc.ranker.r10}  vs fusion MRR ${cc.fusion.mrr} R@10 ${cc.fusion.r10}`);
  if (s.top_weights.length) lines.push(`  weighs most: ${s.top_weights.map((w) => `${w.feature} ${w.weight > 0 ? '+' : ''}${w.weight}`).join(', ')}`);
  lines.push(`  ${s.message}`);
  return lines.join('\n');
}

export function registerRanker(program: Command): void {
  const ranker = program.command('ranker').description('The learned ranker fitted from the task history (it orders default searches once it beats plain fusion)');

  ranker
    .command('status')
    .description('Show whether a model is active, how it did against fusion on held-out past tasks, and what it weighs')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'machine-readable output')
    .action(async (opts: { workspace: string; json?: boolean }) => {
      const ctx = await createCliContext(loadConfigOrExit());
      try {
        const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace);
        const status = await ctx.get(LearnedRankerService).status(ws.id, `Not trained yet: run \`sextant ranker train\` once the history has ${MIN_HISTORY_TASKS} tasks.`);
        process.stdout.write(`${opts.json ? JSON.stringify(status) : formatRankerStatus(status)}\n`);
      } catch (err) {
        if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
        throw err;
      } finally {
        await ctx.close();
      }
    });

  ranker
    .command('train')
    .description('Fit the ranker from the task history now (newest past tasks as queries, the files they touched as answers)')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'machine-readable output')
    .action(async (opts: { workspace: string; json?: boolean }) => {
      const config = loadConfigOrExit();
      const server = ServerClient.find(config, opts.workspace);
      if (server) {
        process.stderr.write(`Training in the server at ${server.url} (it owns this data dir)\n`);
        const status = await viaServer(() => server.request<RankerStatus>('POST', '/v1/ranker/train'));
        return void process.stdout.write(`${opts.json ? JSON.stringify(status) : formatRankerStatus(status)}\n`);
      }
      await withDataDirLease(config, 'sextant ranker train', () => trainHere(config, opts));
    });
}

/** Training progress on stderr, at most every 2 s; `intro` is written once, before the first line. */
function trainingProgress(intro?: (total: number) => string): (p: TrainingProgress) => void {
  let last = 0;
  let started = false;
  return (p) => {
    if (!started && intro) process.stderr.write(`${intro(p.total)}\n`);
    started = true;
    if (p.done === p.total || Date.now() - last > 2000) {
      last = Date.now();
      process.stderr.write(`Training: ${p.done}/${p.total} past tasks asked\n`);
    }
  };
}

/**
 * What a standalone import or index run does last: fits the learned ranker when the history
 * calls for it (no model yet with enough history, or the history grew since the last fit), as
 * a server does a few seconds after the same change. Progress and the outcome go to stderr;
 * stdout keeps the command's own result.
 */
export async function fitRankerIfDue(ctx: INestApplicationContext, workspaceId: string): Promise<void> {
  const status = await ctx.get(RankerTrainingService).trainIfDue(workspaceId, {
    onProgress: trainingProgress((total) => `Fitting the learned ranker: ${total} past tasks asked as queries (skip with --no-train)`),
  });
  if (status) process.stderr.write(`${formatRankerStatus(status)}\n`);
}

async function trainHere(config: AppConfig, opts: { workspace: string; json?: boolean }): Promise<void> {
  const ctx = await createCliContext(config);
  try {
    const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace);
    const status = await ctx.get(RankerTrainingService).train(ws.id, { onProgress: trainingProgress() });
    process.stdout.write(`${opts.json ? JSON.stringify(status) : formatRankerStatus(status)}\n`);
  } catch (err) {
    if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
    throw err;
  } finally {
    await ctx.close();
  }
}
