import { z } from 'zod';
import { NextCursorSchema, pageQueryShape } from './pagination';
import { RerankVerdictSchema } from './rerank';

/** A source's name is part of its search source id `mcp.<name>`. */
export const McpSourceNameSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'name: 1-40 lowercase letters, digits, - or _, starting with a letter or digit');

const EnvMap = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'env names are letters, digits and _'), z.string().max(4000)).refine((m) => Object.keys(m).length <= 50, 'at most 50 variables');
const HeaderMap = z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'not a valid header name'), z.string().max(8000)).refine((m) => Object.keys(m).length <= 30, 'at most 30 headers');

/** How Sextant reaches the server: a child process over stdio, or Streamable HTTP. */
export const McpSourceTransportSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('stdio'),
      command: z.string().trim().min(1).max(1000),
      args: z.array(z.string().max(4000)).max(50).default([]),
      /** The server's whole environment (plus PATH): nothing of Sextant's own environment is passed on. */
      env: EnvMap.default({}),
    })
    .strict(),
  z
    .object({
      type: z.literal('http'),
      url: z.string().trim().url().refine((u) => /^https?:\/\//i.test(u), 'url must be http:// or https://'),
      /** Sent as-is on every request to this server (e.g. its own Authorization); never the caller's. */
      headers: HeaderMap.default({}),
    })
    .strict(),
]);
export type McpSourceTransport = z.output<typeof McpSourceTransportSchema>;

/** Seed 002's defaults: priority 2 (the index is 1), 5 results per server, 15 s timeout. */
export const MCP_SOURCE_DEFAULTS = { priority: 2, result_limit: 5, timeout_ms: 15_000 } as const;

/** `POST /v1/sources/mcp`. */
export const McpSourceCreateSchema = z
  .object({
    name: McpSourceNameSchema,
    transport: McpSourceTransportSchema,
    enabled: z.boolean().default(true),
    /** Merge priority: higher comes first and wins duplicates (the indexed code is 1). */
    priority: z.number().min(0).max(100).default(MCP_SOURCE_DEFAULTS.priority),
    result_limit: z.number().int().min(1).max(50).default(MCP_SOURCE_DEFAULTS.result_limit),
    timeout_ms: z.number().int().min(100).max(120_000).default(MCP_SOURCE_DEFAULTS.timeout_ms),
  })
  .strict();
export type McpSourceCreate = z.input<typeof McpSourceCreateSchema>;

/** `PATCH /v1/sources/mcp/:id`: any subset; a transport replaces the old one whole. */
export const McpSourceUpdateSchema = z
  .object({
    transport: McpSourceTransportSchema.optional(),
    enabled: z.boolean().optional(),
    priority: z.number().min(0).max(100).optional(),
    result_limit: z.number().int().min(1).max(50).optional(),
    timeout_ms: z.number().int().min(100).max(120_000).optional(),
  })
  .strict();

/** The masked value shown instead of every env value and header value. */
export const MASKED_SECRET = '********';

/** A configured source as the API shows it: env and header values are always masked. */
export const McpSourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The search source id results carry in `explain`. */
  source: z.string(),
  transport: McpSourceTransportSchema,
  enabled: z.boolean(),
  priority: z.number(),
  result_limit: z.number().int(),
  timeout_ms: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type McpSource = z.infer<typeof McpSourceSchema>;

/** One result from an external MCP server, normalised to seed 002's shape. */
export const ExternalResultSchema = z.object({
  /** `mcp:<source name>:<url or title>`. */
  id: z.string(),
  kind: z.literal('external'),
  rank: z.number().int(),
  /** `mcp.<name>`. */
  search_source: z.string(),
  priority: z.number(),
  title: z.string(),
  text: z.string(),
  /** Where the result lives (the server's URL for it), when it has one. */
  source: z.string().nullable(),
  sourceType: z.literal('mcp'),
  metadata: z
    .object({
      mcp_server: z.string(),
      mcp_tool: z.string(),
      repository: z.string().optional(),
      path: z.string().optional(),
      /** The server's own item (e.g. GitHub's search hit), secrets redacted. */
      item: z.unknown().optional(),
    })
    .passthrough(),
  rerank: RerankVerdictSchema.optional(),
});
export type ExternalResult = z.infer<typeof ExternalResultSchema>;

/** `POST /v1/sources/mcp/:id/test` (and `sextant sources mcp test`): connect, pick the tool, run one query. */
export const McpSourceTestRequestSchema = z.object({ query: z.string().trim().min(1).max(2000).default('readme') }).strict();
export const McpSourceTestResultSchema = z.object({
  ok: z.boolean(),
  tools: z.array(z.string()),
  search_tool: z.string().nullable(),
  results: z.array(ExternalResultSchema),
  error: z.string().nullable(),
  elapsed_ms: z.number(),
});
export type McpSourceTestResult = z.infer<typeof McpSourceTestResultSchema>;

/** `GET /v1/sources/mcp`: oldest first. */
// Not strict: the route took no query before paging, so parameters it ignored must stay harmless.
export const ListMcpSourcesQuerySchema = z.object({ ...pageQueryShape(100, 500) });
export type ListMcpSourcesQuery = z.infer<typeof ListMcpSourcesQuerySchema>;

export const McpSourceListResponseSchema = z.object({ sources: z.array(McpSourceSchema), next_cursor: NextCursorSchema });
export type McpSourceListResponse = z.infer<typeof McpSourceListResponseSchema>;
