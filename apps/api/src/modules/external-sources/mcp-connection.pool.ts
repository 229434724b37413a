import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { chooseSearchTool, type ChosenSearchTool } from '@sextant/retrieval';
import { mcpSdk } from '../../common/mcp-sdk';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import type { McpSourceConfig } from './mcp-source.mapper';
import { checkOutboundUrl } from './outbound-url';
import { ProcessGroupStdioTransport } from './process-group-stdio.transport';

/** A live client of one source, with the tools it listed when it connected. */
export interface McpConnection {
  client: Client;
  transport: Transport;
  tools: string[];
  searchTool: ChosenSearchTool | null;
  /** The server's file tool (`get_file_contents`), for hydrating file hits. */
  fileTool: string | null;
  /** Child pid for stdio sources. */
  pid?: number;
}

/** Version tag of the Sextant client in MCP `initialize`. */
const CLIENT_INFO = { name: 'sextant', version: '0.1.0' };

/**
 * One connection per configured source, opened on first use and reused by every search.
 * A failed or timed-out call evicts it (the next search reconnects; a stdio server is killed
 * with its process group and started again); changed or removed sources are closed the same way.
 */
@Injectable()
export class McpConnectionPool implements OnApplicationShutdown {
  private readonly logger = new Logger(McpConnectionPool.name);
  private readonly connections = new Map<string, { version: number; pending: Promise<McpConnection> }>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get(source: McpSourceConfig): Promise<McpConnection> {
    const version = source.updatedAt.getTime();
    const existing = this.connections.get(source.id);
    if (existing && existing.version === version) return existing.pending;
    if (existing) void this.evict(source.id);
    const pending = this.open(source);
    const entry = { version, pending };
    this.connections.set(source.id, entry);
    pending.catch(() => {
      if (this.connections.get(source.id) === entry) this.connections.delete(source.id);
    });
    return pending;
  }

  /** Closes a source's connection (after a failure, a change or its removal). */
  async evict(sourceId: string): Promise<void> {
    const entry = this.connections.get(sourceId);
    if (!entry) return;
    this.connections.delete(sourceId);
    const conn = await entry.pending.catch(() => null);
    if (conn) await closeQuietly(conn);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.connections.keys()].map((id) => this.evict(id)));
  }

  private async open(source: McpSourceConfig): Promise<McpConnection> {
    const t = source.transport;
    let transport: Transport;
    if (t.type === 'http') {
      await checkOutboundUrl(t.url, this.config.indexing.cloneAllowedHosts);
      // Only the headers configured for this source: nothing of the caller's request is forwarded.
      transport = new (mcpSdk().StreamableHTTPClientTransport)(new URL(t.url), { requestInit: { headers: { ...t.headers } } });
    } else {
      transport = new ProcessGroupStdioTransport({ command: t.command, args: t.args, env: t.env, path: this.config.externalSources.childPath, onStderr: (line) => this.logger.debug({ source: source.source, line }, 'MCP server stderr') });
    }
    const client = new (mcpSdk().Client)(CLIENT_INFO, { capabilities: {} });
    const conn: McpConnection = { client, transport, tools: [], searchTool: null, fileTool: null };
    client.onclose = () => {
      const entry = this.connections.get(source.id);
      if (entry) void entry.pending.then((c) => c === conn && this.connections.get(source.id) === entry && this.connections.delete(source.id)).catch(() => undefined);
    };
    try {
      await client.connect(transport, { timeout: source.timeoutMs });
      const listed = await client.listTools(undefined, { timeout: source.timeoutMs });
      conn.tools = listed.tools.map((tool) => tool.name);
      conn.searchTool = chooseSearchTool(listed.tools as Parameters<typeof chooseSearchTool>[0]);
      conn.fileTool = conn.tools.includes('get_file_contents') ? 'get_file_contents' : null;
      conn.pid = transport instanceof ProcessGroupStdioTransport ? transport.pid : undefined;
      return conn;
    } catch (err) {
      await closeQuietly(conn);
      throw err;
    }
  }
}

async function closeQuietly(conn: McpConnection): Promise<void> {
  await conn.client.close().catch(() => undefined);
  await conn.transport.close().catch(() => undefined);
}
