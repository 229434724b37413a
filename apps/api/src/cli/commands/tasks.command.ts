import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import type { TaskImportResult } from '@sextant/contracts';
import { DomainError } from '../../common/domain-error';
import { IndexingService } from '../../modules/indexing/services/indexing.service';
import { TaskHistoryService } from '../../modules/task-history/task-history.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

function printImport(result: TaskImportResult & { noise?: number }, json?: boolean): void {
  if (json) return void process.stdout.write(`${JSON.stringify(result)}\n`);
  const lines = [`Tasks: ${result.imported} imported, ${result.updated} updated, ${result.skipped} skipped${result.noise !== undefined ? `, ${result.noise} noise commits ignored` : ''}`];
  for (const e of result.errors.slice(0, 20)) lines.push(`  ! ${e.line !== undefined ? `line ${e.line}: ` : ''}${e.id ? `${e.id}: ` : ''}${e.message}`);
  if (result.errors.length > 20) lines.push(`  … and ${result.errors.length - 20} more`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('Task history: import past issues, tickets and commits');

  tasks
    .command('import <file>')
    .description('Import tasks from JSONL (shared/eval/FORMAT.md) or CSV; bad lines are reported, the rest imported')
    .option('--format <fmt>', 'jsonl | csv (default: from the file extension)')
    .option('--source <name>', 'source label for these tasks (e.g. jira, github)', 'import')
    .option('--csv-id <column>', 'CSV column with the task id', 'id')
    .option('--csv-title <column>', 'CSV column with the title', 'title')
    .option('--csv-body <column>', 'CSV column with the body', 'body')
    .option('--csv-files <column>', 'CSV column with the touched files', 'files')
    .option('--csv-status <column>', 'CSV column with the status')
    .option('--csv-created-at <column>', 'CSV column with the creation date')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, opts: Record<string, string | boolean | undefined>) => {
      if (!fs.existsSync(file)) fail(`no such file: ${file}`, ExitCode.BadInput);
      const format = (opts.format as string | undefined) ?? (/\.csv$/i.test(file) ? 'csv' : 'jsonl');
      if (!['jsonl', 'csv'].includes(format)) fail(`--format must be jsonl or csv, got ${format}`, ExitCode.BadInput);
      const content = fs.readFileSync(file, 'utf8');
      const ctx = await createCliContext(loadConfigOrExit());
      try {
        const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace as string);
        const svc = ctx.get(TaskHistoryService);
        const defaults = { source: opts.source as string };
        const result =
          format === 'jsonl'
            ? await svc.importJsonl(ws.id, content, defaults)
            : await svc.importCsv(
                ws.id,
                content,
                { id: opts.csvId as string, title: opts.csvTitle as string, body: opts.csvBody as string, files: opts.csvFiles as string, status: opts.csvStatus as string | undefined, created_at: opts.csvCreatedAt as string | undefined },
                defaults,
              );
        printImport(result, opts.json as boolean);
      } catch (err) {
        if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
        throw err;
      } finally {
        await ctx.close();
      }
    });

  tasks
    .command('import-git <repo>')
    .description('Import git history as tasks: each non-merge commit (or merged PR) with its files; bots, version bumps and lockfile-only commits skipped')
    .option('--since <date>', 'only commits on or after this ISO date')
    .option('--until <date>', 'only commits on or before this ISO date')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'print the result as JSON')
    .action(async (repoRef: string, opts: { since?: string; until?: string; workspace: string; json?: boolean }) => {
      const ctx = await createCliContext(loadConfigOrExit());
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
      } catch (err) {
        if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
        throw err;
      } finally {
        await ctx.close();
      }
    });
}
