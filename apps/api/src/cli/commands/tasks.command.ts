import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { addImportPiece, importedBefore, taskFilePieces, type Repository, type TaskImportResult } from '@sextant/contracts';
import { DomainError } from '../../common/domain-error';
import { IndexingService } from '../../modules/indexing/services/indexing.service';
import { TaskHistoryService, type CsvColumnMapping } from '../../modules/task-history/task-history.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';
import { ServerClient, ServerRequestError, viaServer, withDataDirLease } from '../server-client';
import { readTextFile } from '../text-file';
import { fitRankerIfDue } from './ranker.command';

function printImport(result: TaskImportResult & { noise?: number }, json?: boolean): void {
  if (json) return void process.stdout.write(`${JSON.stringify(result)}\n`);
  const followed = result.paths_followed ? `, ${result.paths_followed} moved paths followed to today's files` : '';
  const lines = [`Tasks: ${result.imported} imported, ${result.updated} updated, ${result.skipped} skipped${result.noise !== undefined ? `, ${result.noise} noise commits ignored` : ''}${followed}`];
  for (const e of result.errors.slice(0, 20)) lines.push(`  ! ${e.line !== undefined ? `line ${e.line}: ` : ''}${e.id ? `${e.id}: ` : ''}${e.message}`);
  if (result.errors.length > 20) lines.push(`  … and ${result.errors.length - 20} more`);
  for (const w of result.warnings ?? []) lines.push(`  warning: ${w}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('Task history: import past issues, tickets and commits');

  tasks
    .command('import <file>')
    .description('Import tasks from JSONL (docs/eval-format.md) or CSV; bad lines are reported, the rest imported')
    .option('--format <fmt>', 'jsonl | csv (default: from the file extension)')
    .option('--source <name>', 'source label for these tasks (e.g. jira, github)', 'import')
    .option('--csv-id <column>', 'CSV column with the task id (default: id)')
    .option('--csv-title <column>', 'CSV column with the title (default: title)')
    .option('--csv-body <column>', 'CSV column with the body (default: body, when the file has it)')
    .option('--csv-files <column>', 'CSV column with the touched files (default: files, when the file has it)')
    .option('--csv-status <column>', 'CSV column with the status (default: status, when the file has it)')
    .option('--csv-created-at <column>', 'CSV column with the creation date (default: created_at, when the file has it)')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'print the result as JSON')
    .option('--no-train', 'do not fit the learned ranker afterwards (without a server, the import fits it when the history calls for it)')
    .action(async (file: string, opts: Record<string, string | boolean | undefined>) => {
      if (!fs.existsSync(file)) fail(`no such file: ${file}`, ExitCode.BadInput);
      const format = (opts.format as string | undefined) ?? (/\.csv$/i.test(file) ? 'csv' : 'jsonl');
      if (!['jsonl', 'csv'].includes(format)) fail(`--format must be jsonl or csv, got ${format}`, ExitCode.BadInput);
      let content = '';
      try {
        content = readTextFile(file);
      } catch (err) {
        fail((err as Error).message, ExitCode.BadInput);
      }
      const config = loadConfigOrExit();
      const columns: CsvColumnMapping = { id: opts.csvId as string | undefined, title: opts.csvTitle as string | undefined, body: opts.csvBody as string | undefined, files: opts.csvFiles as string | undefined, status: opts.csvStatus as string | undefined, created_at: opts.csvCreatedAt as string | undefined };
      const server = ServerClient.find(config, opts.workspace as string);
      if (server) {
        process.stderr.write(`Importing through the server at ${server.url} (it owns this data dir)\n`);
        return printImport(await viaServer(() => importThroughServer(server, format as 'jsonl' | 'csv', content, opts.source as string, columns)), opts.json as boolean);
      }
      await withDataDirLease(config, `sextant tasks import ${file}`, async () => {
        const ctx = await createCliContext(config);
        try {
          const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace as string);
          const svc = ctx.get(TaskHistoryService);
          const defaults = { source: opts.source as string };
          const result =
            format === 'jsonl'
              ? await svc.importJsonl(ws.id, content, defaults)
              : await svc.importCsv(ws.id, content, columns, defaults);
          printImport(result, opts.json as boolean);
          if (opts.train !== false) await fitRankerIfDue(ctx, ws.id);
        } catch (err) {
          if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
          throw err;
        } finally {
          await ctx.close();
        }
      });
    });

  tasks
    .command('import-git <repo>')
    .description('Import git history as tasks: each non-merge commit (or merged PR) with its files; bots, version bumps and lockfile-only commits skipped')
    .option('--since <date>', 'only commits on or after this ISO date')
    .option('--until <date>', 'only commits on or before this ISO date')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'print the result as JSON')
    .option('--no-train', 'do not fit the learned ranker afterwards (without a server, the import fits it when the history calls for it)')
    .action(async (repoRef: string, opts: { since?: string; until?: string; workspace: string; json?: boolean; train?: boolean }) => {
      const config = loadConfigOrExit();
      const server = ServerClient.find(config, opts.workspace);
      if (server) {
        process.stderr.write(`Importing through the server at ${server.url} (it owns this data dir)\n`);
        return printImport(await viaServer(() => importGitThroughServer(server, repoRef, opts)), opts.json);
      }
      await withDataDirLease(config, `sextant tasks import-git ${repoRef}`, async () => {
        const ctx = await createCliContext(config);
        try {
          const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace);
          const indexing = ctx.get(IndexingService);
          const repos = await indexing.list(ws.id);
          let repo = repos.find((r) => r.id === repoRef || r.name === repoRef) ?? (fs.existsSync(repoRef) ? await indexing.findByRoot(ws.id, path.resolve(repoRef)) : null);
          if (!repo) {
            if (!fs.existsSync(repoRef)) fail(`no repository "${repoRef}" (give a registered name, id or a local path)`, ExitCode.BadInput);
            repo = await indexing.register(ws.id, { path: repoRef });
            process.stderr.write(`Registered ${repo.root_path} as "${repo.name}" (run \`sextant index ${repoRef}\` to index its code)\n`);
          }
          printImport(await ctx.get(TaskHistoryService).importGit(ws.id, repo.id, { since: opts.since, until: opts.until }), opts.json);
          if (opts.train !== false) await fitRankerIfDue(ctx, ws.id);
        } catch (err) {
          if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
          throw err;
        } finally {
          await ctx.close();
        }
      });
    });
}

/** A file too large for one request goes in pieces ({@link taskFilePieces}); errors keep the file's line numbers. */
async function importThroughServer(server: ServerClient, format: 'jsonl' | 'csv', content: string, source: string, columns: CsvColumnMapping): Promise<TaskImportResult> {
  const total: TaskImportResult = { imported: 0, updated: 0, skipped: 0, errors: [] };
  for (const [i, piece] of taskFilePieces(format, content).entries()) {
    try {
      addImportPiece(total, await server.request<TaskImportResult>('POST', '/v1/tasks/import', { format, content: piece.content, source, ...(format === 'csv' ? { columns } : {}) }), piece.lineShift);
    } catch (err) {
      if (i === 0 || !(err instanceof ServerRequestError)) throw err;
      throw new ServerRequestError(err.status, `${err.message} (${importedBefore(format, piece, total)})`, err.code);
    }
  }
  return total;
}

async function importGitThroughServer(server: ServerClient, repoRef: string, opts: { since?: string; until?: string }): Promise<TaskImportResult & { noise?: number }> {
  const repositories = await server.listAll<Repository>('/v1/repos', 'repositories');
  const root = fs.existsSync(repoRef) ? fs.realpathSync(path.resolve(repoRef)) : null;
  let repo = repositories.find((r) => r.id === repoRef || r.name === repoRef || r.root_path === root);
  if (!repo) {
    if (!root) fail(`no repository "${repoRef}" (give a registered name, id or a local path)`, ExitCode.BadInput);
    repo = await server.request<Repository>('POST', '/v1/repos', { path: root, index: false });
    process.stderr.write(`Registered ${repo.root_path} as "${repo.name}" (run \`sextant index ${repoRef}\` to index its code)\n`);
  }
  return server.request('POST', '/v1/tasks/import-git', { repository_id: repo.id, ...(opts.since ? { since: opts.since } : {}), ...(opts.until ? { until: opts.until } : {}) });
}
