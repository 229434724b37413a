import type { Command } from 'commander';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../../common/domain-error';
import { mcpSdk } from '../../common/mcp-sdk';
import { McpServerFactory } from '../../modules/mcp/mcp-server.factory';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { acquireDataDir, DataDirBusyError } from '../../storage/data-dir-writer';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';
import { ServerClient } from '../server-client';

/**
 * `sextant mcp --stdio`: the MCP tools of `POST /mcp` over stdin/stdout for a local agent
 * that starts Sextant itself. No API key: whoever can start the process owns its data
 * directory, so the session acts as admin of the chosen workspace. When a server runs on the
 * data dir the session relays to it; otherwise it holds the data dir while it runs. stdout
 * carries only JSON-RPC; logs go to stderr.
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
      const owner = ServerClient.find(config, opts.workspace);
      if (owner) return relayToServer(owner);
      // No server: this session is the data dir's writer (refresh_index) for as long as it runs.
      try {
        acquireDataDir(config.storage.dataDir, { role: 'mcp', command: 'sextant mcp --stdio' });
      } catch (err) {
        if (err instanceof DataDirBusyError) fail(err.message, ExitCode.Busy);
        throw err;
      }
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
      const transport = new (mcpSdk().StdioServerTransport)();
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

/**
 * A server owns the data dir: relay JSON-RPC between stdio and its `POST /mcp`, so every tool
 * (refresh_index included) runs in the server and sees, and is seen by, everything else.
 */
async function relayToServer(server: ServerClient): Promise<void> {
  const { StdioServerTransport, StreamableHTTPClientTransport } = mcpSdk();
  const local = new StdioServerTransport();
  const upstream = new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: server.headers() } });
  // Requests still waiting for the server: stdin may end (a piped client) before they are answered.
  const pending = new Set<string | number>();
  let ending = false;
  const finish = () => void upstream.close().finally(() => process.exit(0));
  const settle = (id: string | number) => {
    pending.delete(id);
    if (ending && !pending.size) finish();
  };
  local.onmessage = (message: JSONRPCMessage) => {
    const id = 'id' in message && 'method' in message ? message.id : undefined;
    if (id !== undefined) pending.add(id);
    upstream.send(message).catch(async (err: Error) => {
      if (id === undefined) return;
      await local.send({ jsonrpc: '2.0', id, error: { code: -32000, message: `The Sextant server at ${server.url} did not answer: ${err.message}` } });
      settle(id);
    });
  };
  upstream.onmessage = (message) => {
    void local.send(message).then(() => {
      if ('id' in message && !('method' in message) && message.id !== undefined) settle(message.id);
    });
  };
  upstream.onerror = (err) => process.stderr.write(`sextant mcp: ${err.message}\n`);
  const shutdown = () => {
    ending = true;
    if (!pending.size) finish();
  };
  local.onclose = shutdown;
  process.stdin.once('end', shutdown);
  process.once('SIGTERM', finish);
  process.once('SIGINT', finish);
  await upstream.start();
  await local.start();
  process.stderr.write(`sextant mcp: relaying to the server at ${server.url} (it owns this data dir)\n`);
}
