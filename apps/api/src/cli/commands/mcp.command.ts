import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DomainError } from '../../common/domain-error';
import { McpServerFactory } from '../../modules/mcp/mcp-server.factory';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

/**
 * `sextant mcp --stdio`: the MCP tools of `POST /mcp` over stdin/stdout for a local agent
 * that starts Sextant itself. No API key: whoever can start the process owns its data
 * directory, so the session acts as admin of the chosen workspace. stdout carries only
 * JSON-RPC; logs go to stderr.
 */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('Serve the MCP tools over stdio for a local AI agent (over HTTP they are at POST /mcp of `sextant serve`)')
    .option('--stdio', 'speak MCP over stdin/stdout')
    .option('--workspace <slug>', 'workspace the tools search', 'default')
    .action(async (opts: { stdio?: boolean; workspace: string }) => {
      if (!opts.stdio) fail('choose a transport: `sextant mcp --stdio` (for HTTP, run `sextant serve` and connect to POST /mcp)', ExitCode.BadInput);
      const config = loadConfigOrExit();
      const ctx = await createCliContext(config);
      let workspaceId: string;
      try {
        workspaceId = (await ctx.get(WorkspacesService).getBySlug(opts.workspace)).id;
      } catch (err) {
        await ctx.close();
        if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
        throw err;
      }
      const server = ctx.get(McpServerFactory).create({ workspaceId, role: 'admin', principal: 'local:stdio' }, 'stdio');
      const transport = new StdioServerTransport();
      let closing = false;
      const shutdown = async () => {
        if (closing) return;
        closing = true;
        await server.close().catch(() => undefined);
        await ctx.close();
        process.exit(0);
      };
      transport.onclose = () => void shutdown();
      process.stdin.once('end', () => void shutdown());
      process.once('SIGTERM', () => void shutdown());
      process.once('SIGINT', () => void shutdown());
      await server.connect(transport);
    });
}
