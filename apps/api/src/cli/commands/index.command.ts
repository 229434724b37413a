import type { Command } from 'commander';
import { EventEmitter2 } from '@nestjs/event-emitter';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IndexJob, IndexProgressEvent, Repository } from '@sextant/contracts';
import type { AppConfig } from '../../config/config.schema';
import { DomainError } from '../../common/domain-error';
import { IndexingService } from '../../modules/indexing/services/indexing.service';
import { IndexEvents } from '../../modules/indexing/services/indexing.tokens';
import { RepositoryWatcherService } from '../../modules/indexing/services/repository-watcher.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';
import { formatJobSummary, ProgressReporter } from '../progress-reporter';
import { ServerClient, viaServer, withDataDirLease } from '../server-client';
import { fitRankerIfDue } from './ranker.command';

export function registerIndex(program: Command): void {
  program
    .command('index <path>')
    .description('Index a local repository (registering it on first use); resumes an interrupted job')
    .option('--full', 're-chunk every file (the embedding cache still avoids re-embedding)')
    .option('--watch', 'keep running and re-index files as they change')
    .option('--name <name>', 'repository name (default: the directory name)')
    .option('--workspace <slug>', 'workspace to index into', 'default')
    .option('--json', 'print the final job as JSON on stdout')
    .option('--no-train', 'do not fit the learned ranker afterwards (without a server, indexing fits it when the task history calls for it)')
    .action(async (target: string, opts: { full?: boolean; watch?: boolean; name?: string; workspace: string; json?: boolean; train?: boolean }) => {
      const config = loadConfigOrExit();
      const server = ServerClient.find(config, opts.workspace);
      if (server) return indexThroughServer(server, target, opts);
      await withDataDirLease(config, `sextant index ${target}`, () => indexHere(config, target, opts));
    });
}

/** A server owns the data dir: register and index through its API, following the job's progress. */
async function indexThroughServer(server: ServerClient, target: string, opts: { full?: boolean; watch?: boolean; name?: string; json?: boolean }): Promise<void> {
  const reporter = new ProgressReporter();
  process.stderr.write(`Indexing through the server at ${server.url} (it owns this data dir)\n`);
  const root = fs.realpathSync(path.resolve(target));
  const job = await viaServer(async () => {
    const repositories = await server.listAll<Repository>('/v1/repos', 'repositories');
    let repo = repositories.find((r) => r.root_path === root);
    if (!repo) repo = await server.request<Repository>('POST', '/v1/repos', { path: root, ...(opts.name ? { name: opts.name } : {}), index: false });
    let current = await server.request<IndexJob>('POST', `/v1/repos/${repo.id}/index`, { kind: opts.full ? 'full' : 'incremental' });
    try {
      while (!TERMINAL.has(current.status)) {
        reporter.update(current);
        await new Promise((r) => setTimeout(r, 300));
        current = await server.request<IndexJob>('GET', `/v1/jobs/${current.id}`);
      }
      reporter.finish(current);
    } finally {
      reporter.stop();
    }
    if (current.status === 'succeeded' && opts.watch && !repo.watch) {
      await server.request('PATCH', `/v1/repos/${repo.id}`, { watch: true });
      process.stderr.write(`The server now watches ${repo.root_path}: edits are searchable moments after you save.\n`);
    }
    return current;
  });
  process.stdout.write(opts.json ? `${JSON.stringify(job)}\n` : `${formatJobSummary(job)}\n`);
  if (job.status !== 'succeeded') process.exit(ExitCode.Failure);
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

async function indexHere(config: AppConfig, target: string, opts: { full?: boolean; watch?: boolean; name?: string; workspace: string; json?: boolean; train?: boolean }): Promise<void> {
  const ctx = await createCliContext(config);
  const indexing = ctx.get(IndexingService);
  const events = ctx.get(EventEmitter2);
  const reporter = new ProgressReporter();
  try {
    const ws = (await ctx.get(WorkspacesService).getBySlug(opts.workspace)).id;
    const repo = (await indexing.findByRoot(ws, target)) ?? (await indexing.register(ws, { path: target, name: opts.name }));
    const runOnce = async (job: IndexJob) => {
      const onProgress = (e: IndexProgressEvent) => e.job.id === job.id && reporter.update(e.job);
      events.on(IndexEvents.Progress, onProgress);
      try {
        const final = await indexing.waitForJob(ws, job.id);
        reporter.finish(final);
        return final;
      } finally {
        events.off(IndexEvents.Progress, onProgress);
        reporter.stop();
      }
    };
    const final = await runOnce(await indexing.startJob(ws, repo.id, opts.full ? 'full' : 'incremental'));
    if (opts.json) process.stdout.write(`${JSON.stringify(final)}\n`);
    else process.stdout.write(`${formatJobSummary(final)}\n`);
    if (final.status !== 'succeeded') {
      await ctx.close();
      process.exit(ExitCode.Failure);
    }
    if (opts.train !== false) await fitRankerIfDue(ctx, ws);
    if (!opts.watch) {
      await ctx.close();
      return;
    }
    const watcher = ctx.get(RepositoryWatcherService);
    watcher.onJobStarted = (job, paths) => {
      void indexing.waitForJob(ws, job.id).then((done) => {
        const c = done.counts;
        process.stdout.write(`${new Date().toISOString()} ${paths} changed path(s): ${c.indexed} re-indexed, ${c.removed} removed, ${c.unchanged} unchanged (${done.status})\n`);
      });
    };
    await watcher.watch(ws, repo.id);
    process.stderr.write(`Watching ${repo.root_path} — edits are searchable moments after you save. Ctrl-C to stop.\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await ctx.close();
  } catch (err) {
    reporter.stop();
    await ctx.close().catch(() => undefined);
    if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
    throw err;
  }
}
