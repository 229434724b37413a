import type { Command } from 'commander';
import { DomainError } from '../../common/domain-error';
import { ApiKeysService } from '../../modules/auth/api-keys.service';
import type { ApiKey } from '../../modules/auth/dtos/api-key.dto';
import { RoleSchema } from '../../modules/auth/dtos/api-key.dto';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

/** `sextant keys create|list|revoke`: the operator's way to manage API keys in any workspace. */
export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('Manage API keys (shown once at creation; only a hash is stored)');

  keys
    .command('create')
    .description('Create an API key and print it once')
    .requiredOption('--role <role>', 'admin | member | reader')
    .requiredOption('--name <name>', 'what the key is for, e.g. "ci" or "alice laptop"')
    .option('--workspace <slug>', 'workspace the key belongs to', 'default')
    .option('--json', 'print {id, key, ...} as JSON')
    .action(async (opts: { role: string; name: string; workspace: string; json?: boolean }) => {
      const role = RoleSchema.safeParse(opts.role);
      if (!role.success) fail(`--role must be admin, member or reader (got "${opts.role}")`, ExitCode.BadInput);
      await withServices(async ({ keys: service, workspaces }) => {
        const ws = await workspaces.getBySlug(opts.workspace);
        const created = await service.create(ws.id, { name: opts.name, role: role.data! });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ ...created, workspace: ws.slug })}\n`);
          return;
        }
        process.stdout.write(
          [
            `Created ${created.role} key "${created.name}" (${created.id}) in workspace ${ws.slug}:`,
            '',
            `  ${created.key}`,
            '',
            'Store it now: it is not shown again. Use it as "Authorization: Bearer <key>".',
            '',
          ].join('\n'),
        );
      });
    });

  keys
    .command('list')
    .description('List keys (never their secrets)')
    .option('--workspace <slug>', 'only this workspace (default: every workspace)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { workspace?: string; json?: boolean }) => {
      await withServices(async ({ keys: service, workspaces }) => {
        const slugs = new Map((await workspaces.list()).map((w) => [w.id, w.slug]));
        const list = opts.workspace ? await service.list((await workspaces.getBySlug(opts.workspace)).id) : await service.listAll();
        const rows = list.map((k) => ({ ...k, workspace: slugs.get(k.workspace_id) ?? k.workspace_id }));
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ keys: rows })}\n`);
          return;
        }
        if (!rows.length) {
          process.stdout.write('No API keys yet: create one with `sextant keys create --role admin --name <name>`.\n');
          return;
        }
        process.stdout.write(`${formatKeyTable(rows)}\n`);
      });
    });

  keys
    .command('revoke <id-or-prefix>')
    .description('Revoke a key by id or by its sxt_<prefix>; it stops working on the next request')
    .option('--json', 'print the revoked key as JSON')
    .action(async (target: string, opts: { json?: boolean }) => {
      await withServices(async ({ keys: service }) => {
        const key = await service.findForOperator(target);
        const revoked = await service.revoke(key.workspace_id, key.id);
        if (opts.json) process.stdout.write(`${JSON.stringify(revoked)}\n`);
        else process.stdout.write(`Revoked key "${revoked.name}" (${revoked.prefix}…, ${revoked.id}) at ${revoked.revoked_at}\n`);
      });
    });
}

function formatKeyTable(rows: Array<ApiKey & { workspace: string }>): string {
  const header = ['ID', 'PREFIX', 'WORKSPACE', 'ROLE', 'NAME', 'CREATED', 'LAST USED', 'STATUS'];
  const body = rows.map((k) => [k.id, k.prefix, k.workspace, k.role, k.name, k.created_at, k.last_used_at ?? 'never', k.revoked_at ? `revoked ${k.revoked_at}` : 'active']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  return [header, ...body].map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

async function withServices(run: (services: { keys: ApiKeysService; workspaces: WorkspacesService }) => Promise<void>): Promise<void> {
  const ctx = await createCliContext(loadConfigOrExit());
  try {
    await run({ keys: ctx.get(ApiKeysService), workspaces: ctx.get(WorkspacesService) });
  } catch (err) {
    await ctx.close().catch(() => undefined);
    if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
    throw err;
  }
  await ctx.close();
}
