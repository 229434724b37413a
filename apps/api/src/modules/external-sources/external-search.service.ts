import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ExternalResult, McpSourceTestResult } from '@sextant/contracts';
import { redactSecrets } from '@sextant/indexer';
import { normalizeToolResult, textOf, type ExternalItem, type ToolCallResult } from '@sextant/retrieval';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { McpConnectionPool, type McpConnection } from './mcp-connection.pool';
import { toSourceConfig, type McpSourceConfig } from './mcp-source.mapper';
import { McpSourcesRepository } from './mcp-sources.repository';
import { SourceSecrets } from './source-secrets';

/** What one external source answered for one search. */
export interface ExternalSourceOutcome {
  source: string;
  priority: number;
  results: ExternalResult[];
  /** `timed out after N ms` or `failed: …` when the source gave nothing. */
  error?: string;
  ms: number;
}

/** One enabled source of a search, running. */
export interface ExternalSourceRun {
  source: string;
  priority: number;
  outcome: Promise<ExternalSourceOutcome>;
}

class ExternalTimeoutError extends Error {}

/**
 * Queries a workspace's external MCP servers (seed 002): the chosen search tool with the
 * query, the server's file tool for full contents of file hits (within a byte budget), every
 * text redacted like indexed code. A source never throws into search: its outcome carries the
 * error, and a failed or timed-out connection is evicted so the next search restarts it.
 */
@Injectable()
export class ExternalSearchService {
  private readonly logger = new Logger(ExternalSearchService.name);

  constructor(
    private readonly rows: McpSourcesRepository,
    private readonly pool: McpConnectionPool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SourceSecrets,
  ) {}

  get settings(): AppConfig['externalSources'] {
    return this.config.externalSources;
  }

  /** Starts every enabled source of the workspace at once. */
  async start(workspaceId: string, query: string, signal?: AbortSignal): Promise<ExternalSourceRun[]> {
    return (await this.rows.listEnabled(workspaceId)).map((row) => {
      let source: McpSourceConfig;
      try {
        source = toSourceConfig(row, (stored) => this.secrets.open(stored));
      } catch (err) {
        const name = `mcp.${row.name}`;
        return { source: name, priority: Number(row.priority), outcome: Promise.resolve({ source: name, priority: Number(row.priority), results: [], error: `failed: ${(err as Error).message}`, ms: 0 }) };
      }
      return { source: source.source, priority: source.priority, outcome: this.run(source, query, signal) };
    });
  }

  async run(source: McpSourceConfig, query: string, signal?: AbortSignal): Promise<ExternalSourceOutcome> {
    const started = performance.now();
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new ExternalTimeoutError(`timed out after ${source.timeoutMs} ms`));
        }, source.timeoutMs);
      });
      const results = await Promise.race([this.query(source, query, controller.signal), timeout]);
      return { source: source.source, priority: source.priority, results, ms: performance.now() - started };
    } catch (err) {
      const message = err instanceof ExternalTimeoutError ? err.message : `failed: ${(err as Error).message}`;
      if (!(err instanceof ExternalTimeoutError)) this.logger.warn({ err, source: source.source }, 'External MCP source failed');
      // A hung or broken server is restarted on the next search.
      void this.pool.evict(source.id);
      return { source: source.source, priority: source.priority, results: [], error: message, ms: performance.now() - started };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** `sources mcp test`: connect, list tools, pick the search tool, run one query. */
  async probe(source: McpSourceConfig, query: string): Promise<McpSourceTestResult> {
    const started = performance.now();
    let conn: McpConnection | null = null;
    try {
      conn = await this.pool.get(source);
    } catch (err) {
      return { ok: false, tools: [], search_tool: null, results: [], error: `could not connect: ${(err as Error).message}`, elapsed_ms: Math.round(performance.now() - started) };
    }
    const outcome = await this.run(source, query);
    return { ok: !outcome.error, tools: conn.tools, search_tool: conn.searchTool?.name ?? null, results: outcome.results, error: outcome.error ?? null, elapsed_ms: Math.round(performance.now() - started) };
  }

  private async query(source: McpSourceConfig, query: string, signal: AbortSignal): Promise<ExternalResult[]> {
    const conn = await this.pool.get(source);
    const tool = conn.searchTool;
    if (!tool) throw new Error(`the server has no search tool (tools: ${conn.tools.join(', ') || 'none'})`);
    const args: Record<string, unknown> = { [tool.queryArgument]: query };
    if (tool.limitArgument) args[tool.limitArgument] = source.resultLimit;
    const answer = (await conn.client.callTool({ name: tool.name, arguments: args }, undefined, { signal, timeout: source.timeoutMs })) as ToolCallResult;
    const items = normalizeToolResult(answer, tool.name).slice(0, source.resultLimit);
    if (conn.fileTool) await this.hydrate(conn, conn.fileTool, items, source, signal);
    return items.map((item, i) => this.toResult(item, i + 1, source, tool.name));
  }

  /** Full file contents for file hits through the server's file tool, best first, until the byte budget is spent. */
  private async hydrate(conn: McpConnection, fileTool: string, items: ExternalItem[], source: McpSourceConfig, signal: AbortSignal): Promise<void> {
    const files = items.filter((i) => i.repository && i.path && i.repository.includes('/'));
    if (!files.length || this.config.externalSources.hydrateBytes <= 0) return;
    const contents = await Promise.all(
      files.map(async (item) => {
        const [owner, repo] = item.repository!.split('/');
        try {
          const res = (await conn.client.callTool({ name: fileTool, arguments: { owner, repo, path: item.path } }, undefined, { signal, timeout: source.timeoutMs })) as ToolCallResult;
          return res.isError ? null : textOf(res);
        } catch (err) {
          if (signal.aborted) throw err;
          return null;
        }
      }),
    );
    let budget = this.config.externalSources.hydrateBytes;
    files.forEach((item, i) => {
      const text = contents[i];
      if (!text || budget <= 0) return;
      const cut = Buffer.byteLength(text) > budget ? Buffer.from(text).subarray(0, budget).toString('utf8').replace(/\n[^\n]*$/, '\n') : text;
      budget -= Buffer.byteLength(cut);
      item.text = cut;
    });
  }

  private toResult(item: ExternalItem, rank: number, source: McpSourceConfig, tool: string): ExternalResult {
    const clean = (s: string) => redactSecrets(s).text;
    let raw: unknown = undefined;
    try {
      raw = item.item === undefined ? undefined : JSON.parse(clean(JSON.stringify(item.item)));
    } catch {
      raw = undefined;
    }
    return {
      id: `mcp:${source.name}:${item.url ?? item.title}`,
      kind: 'external',
      rank,
      search_source: source.source,
      priority: source.priority,
      title: clean(item.title),
      text: clean(item.text),
      source: item.url ? clean(item.url) : null,
      sourceType: 'mcp',
      metadata: { mcp_server: source.name, mcp_tool: tool, ...(item.repository ? { repository: item.repository } : {}), ...(item.path ? { path: item.path } : {}), ...(raw !== undefined ? { item: raw } : {}) },
    };
  }
}
