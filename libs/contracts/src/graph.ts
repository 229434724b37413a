import { z } from 'zod';
import { NextCursorSchema, pageQueryShape } from './pagination';
import { RepositoryPathSchema } from './repository-path';

/**
 * The code graph over REST (`/v1/symbols…`, `/v1/files/dependencies|dependents`) and its MCP
 * tools (`find_references`, `find_callers`, `find_callees`). Lines and columns are 0-based, as
 * everywhere in the API (seed 004).
 *
 * @example
 * const q = SymbolSearchQuerySchema.parse({ query: 'save_rec' }); // limit 50
 * const page: SymbolEdgesResponse = SymbolEdgesResponseSchema.parse(await res.json());
 */

const RepositoryRef = z.string().trim().min(1).max(200).describe('repository name or id');

export const GRAPH_SYMBOL_KINDS = ['class', 'interface', 'enum', 'struct', 'trait', 'impl', 'module', 'type', 'function', 'method'] as const;
export const GRAPH_EDGE_KINDS = ['call', 'reference', 'import'] as const;
export type GraphEdgeKindName = (typeof GRAPH_EDGE_KINDS)[number];

/** 0-based, inclusive line bounds and UTF-8 byte bounds (end exclusive) of a definition. */
export const GraphRangeSchema = z.object({
  start_line: z.number().int(),
  end_line: z.number().int(),
  start_byte: z.number().int(),
  end_byte: z.number().int(),
});

export const GraphSymbolSchema = z.object({
  /** Stable while the file keeps defining the symbol; pass it to `/v1/symbols/:id/…`. */
  id: z.string(),
  repository_id: z.string(),
  path: z.string(),
  name: z.string(),
  /** `path:Class.method` */
  qualified_name: z.string(),
  kind: z.string(),
  range: GraphRangeSchema,
});
export type GraphSymbol = z.infer<typeof GraphSymbolSchema>;

/** `GET /v1/symbols?query=`: definitions whose name is `query` or starts with it (case-insensitive). */
export const SymbolSearchQuerySchema = z
  .object({
    query: z.string().trim().min(1, 'query must not be empty').max(300),
    repository: RepositoryRef.optional(),
    kind: z.enum(GRAPH_SYMBOL_KINDS).optional(),
    ...pageQueryShape(50, 200),
  })
  .strict();
export type SymbolSearchQuery = z.infer<typeof SymbolSearchQuerySchema>;

export const SymbolSearchResponseSchema = z.object({ query: z.string(), symbols: z.array(GraphSymbolSchema), next_cursor: NextCursorSchema });
export type SymbolSearchResponse = z.infer<typeof SymbolSearchResponseSchema>;

/** `GET /v1/symbols/:id/references|callers|callees`: one page of edges. */
export const SymbolEdgesQuerySchema = z
  .object({ ...pageQueryShape(100, 500) })
  .strict();
export type SymbolEdgesQuery = z.infer<typeof SymbolEdgesQuerySchema>;

/** One end of an edge: where the call/reference/import is written, and the symbol at the other end. */
export const GraphSiteSchema = z.object({
  kind: z.enum(GRAPH_EDGE_KINDS),
  /** 1: certain; 1/n: one of n equally likely targets; lower: matched by name only. */
  confidence: z.number(),
  /** The file containing the call (or import). */
  path: z.string(),
  /** 0-based position of the call's name (imports: of the import statement, column 0). */
  line: z.number().int(),
  column: z.number().int(),
  /** References/callers: the calling definition (`null` for top-level code and imports); callees: the called definition. */
  symbol: GraphSymbolSchema.nullable(),
});
export type GraphSite = z.infer<typeof GraphSiteSchema>;

export const SymbolEdgesResponseSchema = z.object({
  symbol: GraphSymbolSchema,
  edges: z.array(GraphSiteSchema),
  next_cursor: NextCursorSchema,
});
export type SymbolEdgesResponse = z.infer<typeof SymbolEdgesResponseSchema>;

/** `GET /v1/files/symbols|dependencies|dependents?repository=&path=`: the path is a query parameter because it contains slashes. */
export const FileGraphQuerySchema = z
  .object({
    repository: RepositoryRef,
    path: RepositoryPathSchema,
    ...pageQueryShape(200, 1000),
  })
  .strict();
export type FileGraphQuery = z.infer<typeof FileGraphQuerySchema>;

/** `GET /v1/files/symbols?repository=&path=`: the definitions of one file, in file order. */
export const FileSymbolsResponseSchema = z.object({
  repository_id: z.string(),
  path: z.string(),
  symbols: z.array(GraphSymbolSchema),
  next_cursor: NextCursorSchema,
});
export type FileSymbolsResponse = z.infer<typeof FileSymbolsResponseSchema>;

export const FileDependencySchema = z.object({
  /** The other file; `null` for a module outside the repository (dependencies only). */
  path: z.string().nullable(),
  /** The import as written (`./store`, `pkg.store`, `crate::a::b`). */
  source: z.string(),
  /** 0-based line of the import statement, in the importing file. */
  line: z.number().int(),
});
export const FileDependenciesResponseSchema = z.object({
  repository_id: z.string(),
  path: z.string(),
  files: z.array(FileDependencySchema),
  next_cursor: NextCursorSchema,
});
export type FileDependenciesResponse = z.infer<typeof FileDependenciesResponseSchema>;

// --- MCP: find_references, find_callers, find_callees ------------------------------------------

export const McpGraphInputSchema = z
  .object({
    symbol: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe('a symbol id from an earlier result, a qualified name ("src/auth/session.ts:SessionStore.refresh"), or a bare name ("refresh")'),
    repos: z.array(z.string().min(1).max(200)).max(20).optional().describe('only symbols in these repositories, by name or id'),
    top_k: z.number().int().min(1).max(100).default(20).describe('how many sites to return (1-100)'),
  })
  .strict();
export type McpGraphInput = z.input<typeof McpGraphInputSchema>;

/** One call site or definition, seed-004 style: 0-indexed line bounds in `metadata`. */
export const McpGraphResultSchema = z.object({
  /** Symbol id of the definition at the other end (callers: the caller; callees: the callee); pass it back as `symbol`. */
  id: z.string(),
  title: z.string(),
  /** `repo://<repository>/<path>#L<a>-L<b>` */
  url: z.string(),
  snippet: z.string(),
  /** The edge's confidence. */
  score: z.number(),
  source: z.literal('file.graph'),
  metadata: z.object({
    uri: z.string(),
    start_line: z.number().int(),
    end_line: z.number().int(),
    start_byte: z.number().int().optional(),
    end_byte: z.number().int().optional(),
    lang: z.string().nullable(),
    symbols: z.array(z.string()),
    explain: z.object({ hit_reason: z.array(z.string()), edge_kind: z.enum(GRAPH_EDGE_KINDS), confidence: z.number() }),
  }),
});
export type McpGraphResult = z.infer<typeof McpGraphResultSchema>;

export const McpGraphOutputSchema = z.object({
  /** The definition(s) the query named. */
  symbols: z.array(GraphSymbolSchema),
  results: z.array(McpGraphResultSchema),
  queryEcho: z.string(),
  top_k: z.number().int(),
  limits: z.array(z.string()),
});
export type McpGraphOutput = z.infer<typeof McpGraphOutputSchema>;
