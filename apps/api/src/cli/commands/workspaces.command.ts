import type { Command } from 'commander';
import { DomainError } from '../../common/domain-error';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

/** `sextant workspaces create|list`: workspaces are created by the operator. */
export function registerWorkspaces(program: Command): void {
  const workspaces = program.command('workspaces').description('Manage workspaces (each team or tenant has its own repositories, tasks and keys)');

  workspaces
    .command('create <slug>')
    .description('Create a workspace; then give it a key with `sextant keys create --workspace <slug> --role admin --name <name>`')
    .option('--name <name>', 'display name (default: the slug)')
    .option('--json', 'print the workspace as JSON')
    .action(async (slug: string, opts: { name?: string; json?: boolean }) => {
      await withWorkspaces(async (service) => {
        const ws = await service.create(slug, opts.name);
        if (opts.json) process.stdout.write(`${JSON.stringify(ws)}\n`);
        else process.stdout.write(`Created workspace ${ws.slug} (${ws.id}). Next: sextant keys create --workspace ${ws.slug} --role admin --name <name>\n`);
      });
    });

  workspaces
    .command('list')
    .description('List workspaces')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      await withWorkspaces(async (service) => {
        const list = await service.list();
        if (opts.json) process.stdout.write(`${JSON.stringify({ workspaces: list })}\n`);
        else process.stdout.write(`${list.map((w) => `${w.slug.padEnd(24)} ${w.id}  ${w.name}`).join('\n')}\n`);
      });
    });
}

async function withWorkspaces(run: (service: WorkspacesService) => Promise<void>): Promise<void> {
  const ctx = await createCliContext(loadConfigOrExit());
  try {
    await run(ctx.get(WorkspacesService));
  } catch (err) {
    await ctx.close().catch(() => undefined);
    if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
    throw err;
  }
  await ctx.close();
}
