import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { InvalidFilterError, MissingWorkspaceError } from '@sextant/retrieval';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { mcpSdk } from '../../common/mcp-sdk';
import { roleAtLeast, type AuthContext } from '../auth/auth-context';
import { MetricsService } from '../metrics/metrics.service';
import { MCP_TOOLS, McpToolError, type McpCallContext, type McpTool } from './mcp-tool';

const VERSION = (require('../../../package.json') as { version: string }).version;
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SEARCH_TOOLS = new Set(['search', 'search_files_by_content', 'search_functions', 'search_classes', 'search_similar_tasks', 'search_docs']);
/** `_meta` key under which search tools also return their search id. */
export const SEARCH_ID_META = 'dev.sextant/search_id';

const INSTRUCTIONS = [
  'Sextant searches this team\'s code and its task history (issues, commits) together.',
  'Start with `search` for "where/how is X" questions, then `fetch` the chunk ids you need.',
  'Use `search_similar_tasks` to learn what past work touched; `search_functions` / `search_classes` for definitions;',
  '`search_docs` for READMEs and guides. If results look stale, call `index_status` and `refresh_index`.',
  'Rate results you used (or that were wrong) with `rate_result`.',
].join(' ');

/** Outcome label of `sextant_mcp_tool_calls_total`. */
type CallOutcome = 'ok' | 'error' | 'forbidden' | 'invalid';

/**
 * Builds one MCP server with every tool for one caller. The HTTP endpoint builds a fresh
 * server per request (a shared one leaks between clients, GHSA-345p-7cg4-v4c7); stdio
 * builds one per process. Each call is role-checked, measured, logged (start/finish with
 * the search id) and turned into `isError` results with a hint when it fails.
 *
 * @example
 * const server = factory.create(auth, 'http');
 * await server.connect(transport);
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('Mcp');
  private readonly calls;
  private readonly duration;
  private readonly searchLatency;
  private readonly fetchLatency;
  private listing?: ListToolsResult;
  private readonly byName: Map<string, McpTool>;
  /** Each Server would otherwise build its own Ajv instance (a large share of a request's CPU); it holds no per-client state. Built with the first server. */
  private jsonSchemaValidator?: AjvJsonSchemaValidator;

  constructor(
    @Inject(MCP_TOOLS) private readonly tools: McpTool[],
    metrics: MetricsService,
  ) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    this.calls = metrics.counter('mcp_tool_calls_total', 'MCP tool calls by tool and outcome (ok, error, forbidden, invalid arguments or unknown tool)', ['tool', 'outcome']);
    this.duration = metrics.histogram('mcp_tool_duration_seconds', 'MCP tool call latency by tool', ['tool'], LATENCY_BUCKETS);
    this.searchLatency = metrics.histogram('mcp_search_latency_seconds', 'End-to-end latency of MCP search tools', ['tool'], LATENCY_BUCKETS);
    this.fetchLatency = metrics.histogram('mcp_fetch_latency_seconds', 'End-to-end latency of the MCP fetch tool', [], LATENCY_BUCKETS);
  }

  /** The tools every server registers (for listings and tests). */
  get toolNames(): string[] {
    return this.tools.map((t) => t.name);
  }

  /**
   * The SDK's low-level `Server` with two handlers: tools/list answers the listing built once, and
   * tools/call validates the arguments with the tool's zod schema (the same "Input validation error"
   * result McpServer gives) and runs it. McpServer would register ten tools and re-validate every
   * result against its output schema on each request; our results are built from those schemas,
   * and SDK clients validate `structuredContent` against the listed output schema themselves.
   */
  create(auth: AuthContext, transport: McpCallContext['transport']): Server {
    const { Server, AjvJsonSchemaValidator, ListToolsRequestSchema, CallToolRequestSchema } = mcpSdk();
    this.jsonSchemaValidator ??= new AjvJsonSchemaValidator();
    const server: Server = new Server({ name: 'sextant', title: 'Sextant', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: this.jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, () => this.toolListing());
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.callTool(request.params.name, request.params.arguments, { auth, transport, callId: randomUUID(), signal: extra.signal }));
    return server;
  }

  private callTool(name: string, args: unknown, ctx: McpCallContext): Promise<CallToolResult> | CallToolResult {
    const tool = this.byName.get(name);
    if (!tool) {
      // Not labelled with the requested name: clients choose it, and every label value is a new series.
      this.calls.inc({ tool: '(unknown)', outcome: 'invalid' });
      return { content: [{ type: 'text', text: `Tool ${name} not found. Available tools: ${this.toolNames.join(', ')}.` }], isError: true };
    }
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) {
      this.calls.inc({ tool: name, outcome: 'invalid' });
      return { content: [{ type: 'text', text: `Input validation error: Invalid arguments for tool ${name}: ${mcpSdk().getParseErrorMessage(parsed.error)}` }], isError: true };
    }
    return this.call(tool, parsed.data, ctx);
  }

  /** The tools/list answer, built once with the SDK's own converter (identical to what McpServer would list). */
  private toolListing(): ListToolsResult {
    const { toJsonSchemaCompat } = mcpSdk();
    this.listing ??= {
      tools: this.tools.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: toJsonSchemaCompat(t.input, { strictUnions: true, pipeStrategy: 'input' }) as ListToolsResult['tools'][number]['inputSchema'],
        outputSchema: toJsonSchemaCompat(t.output, { strictUnions: true, pipeStrategy: 'output' }) as ListToolsResult['tools'][number]['outputSchema'],
        annotations: t.annotations,
      })),
    };
    return this.listing;
  }

  private async call(tool: McpTool, args: unknown, ctx: McpCallContext): Promise<CallToolResult> {
    const started = performance.now();
    const base = { event: 'mcp.tool', tool: tool.name, call_id: ctx.callId, transport: ctx.transport, workspace_id: ctx.auth.workspaceId, principal: ctx.auth.principal };
    this.logger.log({ ...base, phase: 'start' }, `MCP ${tool.name} started`);
    let outcome: CallOutcome = 'ok';
    let searchId: string | undefined;
    let resultCount: number | undefined;
    let result: CallToolResult;
    try {
      if (!roleAtLeast(ctx.auth.role, tool.role)) {
        outcome = 'forbidden';
        throw new McpToolError(`${tool.name} needs the ${tool.role} role; this key has the ${ctx.auth.role} role.`, `Use a ${tool.role} (or admin) API key for this tool; the read-only tools still work with this key.`);
      }
      const out = await tool.run(args as never, ctx);
      searchId = out.searchId;
      resultCount = out.resultCount;
      result = { content: [{ type: 'text', text: out.text }], structuredContent: out.structured as Record<string, unknown>, ...(searchId ? { _meta: { [SEARCH_ID_META]: searchId } } : {}) };
    } catch (err) {
      if (outcome === 'ok') outcome = 'error';
      result = this.errorResult(tool.name, err, ctx.callId);
    }
    const seconds = (performance.now() - started) / 1000;
    this.calls.inc({ tool: tool.name, outcome });
    this.duration.observe({ tool: tool.name }, seconds);
    if (tool.name === 'fetch') this.fetchLatency.observe(seconds);
    else if (SEARCH_TOOLS.has(tool.name)) this.searchLatency.observe({ tool: tool.name }, seconds);
    this.logger.log({ ...base, phase: 'finish', outcome, search_id: searchId, results: resultCount, ms: Math.round(seconds * 100000) / 100 }, `MCP ${tool.name} finished (${outcome})`);
    return result;
  }

  /** A failure as a tool result the model can act on; internals are logged, never returned. */
  private errorResult(tool: string, err: unknown, callId: string): CallToolResult {
    let text: string;
    if (err instanceof McpToolError) text = `${err.message} ${err.hint}`;
    else if (err instanceof InvalidFilterError) text = `Invalid filter: ${err.message}. Simplify or remove the glob/filter and call ${tool} again.`;
    else if (err instanceof DomainError) text = `${err.message}. ${(err.code === DomainErrorCode.NotFound && NOT_FOUND_HINTS[tool]) || DOMAIN_HINTS[err.code]}`;
    else if (err instanceof MissingWorkspaceError) text = 'This credential is not bound to a workspace. Use an API key created with `sextant keys create --workspace <slug>`.';
    else {
      this.logger.error({ err, tool, call_id: callId }, 'MCP tool failed');
      text = `${tool} failed with an internal error (call ${callId}). Try again; if it keeps failing, simplify the request or report the call id.`;
    }
    return { content: [{ type: 'text', text }], isError: true };
  }
}

/** What "not found" means for the tools whose arguments name things (the hint says where correct values come from). */
const NOT_FOUND_HINTS: Partial<Record<string, string>> = {
  rate_result: 'Pass the search_id printed at the end of a search / search_files_by_content / search_functions / search_classes response and the id of one of its results.',
  fetch: 'Ids come from search or the other search tools; search again for current ids.',
  search: 'Check the repository names in filters.repos (index_status lists them).',
  refresh_index: 'Check the repository name or id (index_status lists repositories) and try again.',
  index_status: 'Check the repository name or id (call index_status without arguments to list them) and try again.',
};

const DOMAIN_HINTS: Record<DomainErrorCode, string> = {
  [DomainErrorCode.NotFound]: 'Check the ids and names in the arguments and try again.',
  [DomainErrorCode.InvalidInput]: 'Fix the arguments as described and call the tool again.',
  [DomainErrorCode.Conflict]: 'The operation conflicts with the current state; check index_status and retry later.',
  [DomainErrorCode.Forbidden]: 'This key may not do that; use a key with a stronger role.',
  [DomainErrorCode.Unauthenticated]: 'Use a valid API key.',
  [DomainErrorCode.PathNotAllowed]: 'That path is outside the allowed roots.',
  [DomainErrorCode.Unavailable]: 'The service is busy or a dependency is down; retry in a few seconds.',
};
