import type { Command } from 'commander';
import { McpSourceCreateSchema, type McpSource } from '@sextant/contracts';
import { DomainError } from '../../common/domain-error';
import { McpSourcesService } from '../../modules/external-sources/mcp-sources.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `sextant sources mcp add|list|remove|test`: external MCP servers searched beside the index. */
export function registerSources(program: Command): void {
  const sources = program.command('sources').description('External search sources');
  const mcp = sources.command('mcp').description('External MCP servers (e.g. a GitHub MCP server) queried in parallel with the index on every search');

  mcp
    .command('add <name>')
    .description('Add a server: --command (stdio, with --arg/--env) or --url (Streamable HTTP, with --header)')
    .option('--command <command>', 'stdio: the program to start')
    .option('--arg <arg>', 'stdio: one argument (repeat)', collect)
    .option('--env <NAME=value>', 'stdio: one variable of the server\'s environment (repeat); it gets nothing else but PATH', collect)
    .option('--url <url>', 'Streamable HTTP endpoint')
    .option('--header <Name: value>', 'HTTP: one header sent to the server (repeat)', collect)
    .option('--priority <n>', 'merge priority (the index is 1)', '2')
    .option('--limit <n>', 'results per search', '5')
    .option('--timeout-ms <n>', 'per-search timeout', '15000')
    .option('--disabled', 'add it switched off')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'print the source as JSON')
    .action(async (name: string, opts: { command?: string; arg?: string[]; env?: string[]; url?: string; header?: string[]; priority: string; limit: string; timeoutMs: string; disabled?: boolean; workspace: string; json?: boolean }) => {
      if (Boolean(opts.command) === Boolean(opts.url)) fail('give exactly one of --command (stdio) or --url (HTTP)', ExitCode.BadInput);
      const pairs = (list: string[] | undefined, sep: RegExp, what: string) =>
        Object.fromEntries(
          (list ?? []).map((entry) => {
            const m = sep.exec(entry);
            if (!m) fail(`${what} must look like ${what === '--env' ? 'NAME=value' : '"Name: value"'} (got "${entry}")`, ExitCode.BadInput);
            return [m[1].trim(), m[2]];
          }),
        );
      const transport = opts.command ? { type: 'stdio', command: opts.command, args: opts.arg ?? [], env: pairs(opts.env, /^([^=]+)=(.*)$/s, '--env') } : { type: 'http', url: opts.url, headers: pairs(opts.header, /^([^:]+):\s*(.*)$/s, '--header') };
      const parsed = McpSourceCreateSchema.safeParse({ name, transport, enabled: !opts.disabled, priority: Number(opts.priority), result_limit: Number(opts.limit), timeout_ms: Number(opts.timeoutMs) });
      if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join('.') || 'source'}: ${i.message}`).join('; '), ExitCode.BadInput);
      await withSources(opts.workspace, async (service, ws) => {
        const created = await service.create(ws, parsed.data!);
        process.stdout.write(opts.json ? `${JSON.stringify(created)}\n` : `Added ${created.source} (${describe(created)}); check it with: sextant sources mcp test ${created.name}\n`);
      });
    });

  mcp
    .command('list')
    .description('List the workspace\'s MCP sources (env and header values masked)')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'machine-readable output')
    .action(async (opts: { workspace: string; json?: boolean }) => {
      await withSources(opts.workspace, async (service, ws) => {
        const list = await service.list(ws);
        if (opts.json) return void process.stdout.write(`${JSON.stringify({ sources: list })}\n`);
        if (!list.length) return void process.stdout.write('No MCP sources: add one with `sextant sources mcp add <name> --url <url>` or `--command <cmd>`.\n');
        for (const s of list) process.stdout.write(`${s.source.padEnd(24)} ${s.enabled ? 'enabled ' : 'disabled'}  priority ${s.priority}  limit ${s.result_limit}  timeout ${s.timeout_ms} ms  ${describe(s)}\n`);
      });
    });

  mcp
    .command('remove <name>')
    .description('Remove a source and stop its server')
    .option('--workspace <slug>', 'workspace', 'default')
    .action(async (name: string, opts: { workspace: string }) => {
      await withSources(opts.workspace, async (service, ws) => {
        const removed = await service.remove(ws, name);
        process.stdout.write(`Removed ${removed.source}\n`);
      });
    });

  mcp
    .command('test <name>')
    .description('Connect, list the tools, pick the search tool and run one query')
    .option('--query <text>', 'what to search for', 'readme')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'machine-readable output')
    .action(async (name: string, opts: { query: string; workspace: string; json?: boolean }) => {
      await withSources(opts.workspace, async (service, ws) => {
        const res = await service.test(ws, name, opts.query);
        if (opts.json) process.stdout.write(`${JSON.stringify(res)}\n`);
        else {
          process.stdout.write(`${res.ok ? 'ok' : 'FAILED'} in ${res.elapsed_ms} ms; tools: ${res.tools.join(', ') || 'none'}; search tool: ${res.search_tool ?? 'none'}\n`);
          if (res.error) process.stdout.write(`error: ${res.error}\n`);
          for (const r of res.results) process.stdout.write(`  ${r.rank}. ${r.title}${r.source ? `  ${r.source}` : ''}\n`);
        }
        if (!res.ok) process.exitCode = 1;
      });
    });
}

function describe(s: McpSource): string {
  return s.transport.type === 'stdio' ? `stdio: ${[s.transport.command, ...s.transport.args].join(' ')}` : `http: ${s.transport.url}`;
}

async function withSources(slug: string, run: (service: McpSourcesService, workspaceId: string) => Promise<void>): Promise<void> {
  const ctx = await createCliContext(loadConfigOrExit());
  try {
    const ws = await ctx.get(WorkspacesService).getBySlug(slug);
    await run(ctx.get(McpSourcesService), ws.id);
  } catch (err) {
    await ctx.close().catch(() => undefined);
    if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
    throw err;
  }
  await ctx.close();
}
