import { z } from 'zod';
import { ExternalResultSchema } from './external-sources';
import { RerankVerdictSchema } from './rerank';
import { PathGlobListSchema } from './path-glob';

import { MAX_QUERY_CHARS, RankerExplainSchema, TitleSearchExplainSchema, WeakMatchReasonSchema } from './search';
/**
 * Inputs and outputs of the MCP tools served at `POST /mcp` and by `sextant mcp --stdio`.
 * `search` and `fetch` follow seed 004 field for field; the others follow seeds 000
 * (dual task/file search) and 001 (keyword modes, `refresh_index`). Argument names are
 * REST's (`top_k`, `filters.langs`, `chunk_types`); older names stay accepted as deprecated
 * aliases (`filters.lang`, search_docs `limit`, search_files_by_content `chunk_type`).
 *
 * @example
 * const args = McpSearchInputSchema.parse({ query: 'where are sessions refreshed' }); // top_k 12
 * const out: McpSearchOutput = McpSearchOutputSchema.parse(result.structuredContent);
 */

const Query = z.string().trim().min(1, 'query must not be empty').max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters`);
const TopK = (byDefault: number) => z.number().int().min(1).max(50).default(byDefault);

/** Where a chunk is: `repo://` uri, 0-indexed inclusive line bounds, byte bounds, language. Shared by `search` and `fetch`. */
const ChunkLocationSchema = z.object({
  uri: z.string(),
  /** 0-indexed, inclusive chunk bounds. */
  start_line: z.number().int(),
  end_line: z.number().int(),
  start_byte: z.number().int(),
  end_byte: z.number().int(),
  lang: z.string().nullable(),
});

// --- search (seed 004) ---------------------------------------------------------------------

export const McpSearchFiltersSchema = z
  .object({
    repos: z.array(z.string().min(1).max(200)).max(50).optional().describe('only these repositories, by name or id (as `filters.repos` of POST /v1/search)'),
    langs: z.array(z.string().min(1).max(32)).max(20).optional().describe('languages or extension aliases: "typescript", "ts", "python", "py", "go", "markdown", "md" (as `filters.langs` of POST /v1/search)'),
    lang: z.array(z.string().min(1).max(32)).max(20).optional().describe('deprecated alias of `langs` (still accepted)'),
    include: PathGlobListSchema.optional().describe('only paths matching one of these globs, e.g. "src/**"'),
    exclude: PathGlobListSchema.optional().describe('skip paths matching any of these globs, e.g. "**/tests/**"'),
    symbols: z.array(z.string().min(1).max(300)).max(50).optional().describe('only chunks defining one of these qualified symbols (a "symbol:" prefix is accepted)'),
  })
  .strict();

export const McpSearchInputSchema = z
  .object({
    query: Query.describe('natural language ("how do we refresh sessions") or identifiers ("SessionStore.refresh")'),
    top_k: TopK(12).describe('how many chunks to return (1-50)'),
    rerank: z.boolean().optional().describe('true: score every result 0-4 (3.5+ excellent, 2.5+ good, 1.5+ fair, else poor) and order by it; results under the threshold are dropped or flagged'),
    filters: McpSearchFiltersSchema.optional(),
  })
  .strict();
export type McpSearchInput = z.input<typeof McpSearchInputSchema>;

export const McpSearchResultSchema = z.object({
  /** Chunk id: pass it to `fetch` (and as `item_id` to `rate_result`). */
  id: z.string(),
  /** `path: lines a-b` (1-based, inclusive). */
  title: z.string(),
  /** `repo://<repository>/<path>#L<a>-L<b>` */
  url: z.string(),
  snippet: z.string(),
  score: z.number(),
  /** The retrieval source that contributed most to this result's fused score. */
  source: z.string(),
  metadata: ChunkLocationSchema.extend({
    symbols: z.array(z.string()),
    explain: z
      .object({
        hit_reason: z.array(z.string()),
        /** Every source that ranked the result's file, with its rank and share of the fused score. */
        sources: z.array(z.object({ source: z.string(), rank: z.number().int(), score: z.number(), share: z.number() })),
        /** Past tasks that touched this file. */
        related_tasks: z.array(z.object({ task_id: z.string(), title: z.string(), score: z.number() })),
        chunk_type: z.string(),
        /** The chunk follows syntax-tree boundaries (false for plain line windows). */
        ast: z.boolean(),
        /** Why the learned ranker placed the file here, when it ordered the search. */
        ranker: RankerExplainSchema.optional(),
        title_search: TitleSearchExplainSchema.optional(),
      })
      .loose(),
  }),
  /** The reranker's 0–4 score and band (with `rerank: true`). */
  rerank: RerankVerdictSchema.optional(),
});
export type McpSearchResult = z.infer<typeof McpSearchResultSchema>;

export const McpSearchOutputSchema = z.object({
  results: z.array(McpSearchResultSchema),
  queryEcho: z.string(),
  top_k: z.number().int(),
  /** `weak`: nothing but embedding similarity links the results to the query, or the learned ranker rates the best one unlikely (`match_reason`); treat them as guesses. */
  match: z.enum(['strong', 'weak', 'none']).optional(),
  match_reason: WeakMatchReasonSchema.optional(),
  /** Words of the query that occur in no indexed file and no past task. */
  unknown_terms: z.array(z.string()).optional(),
  /** Degradations: sources that failed or timed out, keyword fallbacks. */
  limits: z.array(z.string()),
  /** Results of the workspace's external MCP sources (not files of an indexed repository): title, URL, text, server. */
  external: z.array(ExternalResultSchema).optional(),
});
export type McpSearchOutput = z.infer<typeof McpSearchOutputSchema>;

// --- fetch (seed 004) ----------------------------------------------------------------------

export const McpFetchInputSchema = z
  .object({
    objectIds: z.array(z.string().min(1).max(200)).min(1).max(50).describe('chunk ids from `search` (or the other search tools), in the order you want them'),
    max_tokens: z.number().int().min(256).max(16000).default(4000).describe('budget for the whole response, ~4 characters per token (256-16000)'),
  })
  .strict();
export type McpFetchInput = z.input<typeof McpFetchInputSchema>;

export const McpFetchObjectSchema = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  /** The chunk text; cut on a line boundary with a `… [truncated: N more lines …]` marker when over budget. */
  content: z.string(),
  metadata: ChunkLocationSchema,
});
export type McpFetchObject = z.infer<typeof McpFetchObjectSchema>;

export const McpFetchOutputSchema = z.object({
  objects: z.array(McpFetchObjectSchema),
  /** Requested ids that are not chunks of this workspace (reported, never fatal). */
  missing: z.array(z.string()).optional(),
});
export type McpFetchOutput = z.infer<typeof McpFetchOutputSchema>;

// --- code search (seed 000, MCP server 2) ---------------------------------------------------

export const McpChunkTypeSchema = z.enum(['file', 'class', 'method', 'function', 'section', 'window']);

export const McpFileSearchInputSchema = z
  .object({
    query: Query,
    top_k: TopK(10),
    file_types: z
      .array(z.string().regex(/^\.?[A-Za-z0-9_+-]{1,16}$/, 'a file extension such as ".py" or "ts"'))
      .max(20)
      .optional()
      .describe('file extensions, e.g. [".py", ".ts"]'),
    chunk_types: z.array(McpChunkTypeSchema).min(1).max(6).optional().describe('only chunks of these kinds (as `filters.chunk_types` of POST /v1/search)'),
    chunk_type: McpChunkTypeSchema.optional().describe('deprecated alias: one kind, same as chunk_types: [kind]'),
  })
  .strict();
export type McpFileSearchInput = z.input<typeof McpFileSearchInputSchema>;

export const McpSymbolSearchInputSchema = z
  .object({
    query: Query,
    top_k: TopK(5),
  })
  .strict();
export type McpSymbolSearchInput = z.input<typeof McpSymbolSearchInputSchema>;

export const McpFileMatchSchema = z.object({
  /** Chunk id: pass it to `fetch` for the full text. */
  id: z.string(),
  repository: z.string().nullable(),
  file_path: z.string(),
  url: z.string(),
  chunk_type: z.string(),
  symbol: z.string().nullable(),
  chunk_text: z.string(),
  /** Fused relevance (higher is better; comparable within one response only). */
  similarity: z.number(),
  metadata: z.object({
    start_line: z.number().int(),
    end_line: z.number().int(),
    lang: z.string().nullable(),
    sources: z.array(z.string()),
  }),
});
export type McpFileMatch = z.infer<typeof McpFileMatchSchema>;

export const McpFileSearchOutputSchema = z.object({
  query: z.string(),
  search_id: z.string(),
  results: z.array(McpFileMatchSchema),
  limits: z.array(z.string()),
});
export type McpFileSearchOutput = z.infer<typeof McpFileSearchOutputSchema>;

// --- similar tasks (seed 000, MCP server 1) ---------------------------------------------------

export const McpSimilarTasksInputSchema = z
  .object({
    query: Query.describe('describe the problem or change, e.g. "customers charged twice after a retry"'),
    top_k: TopK(5),
  })
  .strict();
export type McpSimilarTasksInput = z.input<typeof McpSimilarTasksInputSchema>;

export const McpSimilarTaskSchema = z.object({
  task_id: z.string(),
  title: z.string(),
  /** The first ~600 characters of the description. */
  description: z.string(),
  status: z.string().nullable(),
  outcome: z.string().nullable(),
  source: z.string(),
  created_at: z.string().nullable(),
  similarity: z.number(),
  /** Files the task touched (repository-relative paths). */
  files: z.array(z.string()),
});

export const McpSimilarTasksOutputSchema = z.object({
  query: z.string(),
  tasks: z.array(McpSimilarTaskSchema),
});
export type McpSimilarTasksOutput = z.infer<typeof McpSimilarTasksOutputSchema>;

// --- docs (seed 001) ------------------------------------------------------------------------

export const McpDocsInputSchema = z
  .object({
    query: Query,
    mode: z.enum(['AND', 'OR', 'PHRASE']).default('AND').describe('AND: every word (precise); OR: any word (broad); PHRASE: the words consecutively, in order'),
    top_k: z.number().int().min(1).max(50).optional().describe('how many sections to return (1-50, default 10)'),
    limit: z.number().int().min(1).max(50).optional().describe('deprecated alias of `top_k` (still accepted)'),
  })
  .strict();
export type McpDocsInput = z.input<typeof McpDocsInputSchema>;

export const McpDocMatchSchema = z.object({
  id: z.string(),
  repository: z.string().nullable(),
  path: z.string(),
  /** Heading path of the section (`Setup > Docker`), or the file path for text before the first heading. */
  section: z.string(),
  url: z.string(),
  snippet: z.string(),
  score: z.number(),
  start_line: z.number().int(),
  end_line: z.number().int(),
});

export const McpDocsOutputSchema = z.object({
  query: z.string(),
  mode: z.enum(['AND', 'OR', 'PHRASE']),
  results: z.array(McpDocMatchSchema),
});
export type McpDocsOutput = z.infer<typeof McpDocsOutputSchema>;

// --- index (seed 001) ----------------------------------------------------------------------

export const McpRepositoryRefInputSchema = z
  .object({
    repository: z.string().trim().min(1).max(200).optional().describe('repository name or id; omit for every repository of the workspace'),
  })
  .strict();
export type McpRepositoryRefInput = z.input<typeof McpRepositoryRefInputSchema>;

export const McpJobSummarySchema = z.object({
  job_id: z.string(),
  kind: z.string(),
  status: z.string(),
  phase: z.string(),
  files_processed: z.number().int(),
  files_to_index: z.number().int(),
  files_failed: z.number().int(),
  chunks: z.number().int(),
  eta_s: z.number().nullable(),
  error: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const McpRefreshIndexOutputSchema = z.object({
  jobs: z.array(
    z.object({
      repository_id: z.string(),
      repository: z.string(),
      /** True when a job was already queued or running and this call joined it. */
      joined: z.boolean(),
      job: McpJobSummarySchema,
    }),
  ),
  summary: z.string(),
});
export type McpRefreshIndexOutput = z.infer<typeof McpRefreshIndexOutputSchema>;

export const McpIndexStatusOutputSchema = z.object({
  repositories: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      files: z.number().int(),
      chunks: z.number().int(),
      last_indexed_at: z.string().nullable(),
      last_indexed_commit: z.string().nullable(),
      watch: z.boolean(),
      last_job: McpJobSummarySchema.nullable(),
    }),
  ),
  summary: z.string(),
});
export type McpIndexStatusOutput = z.infer<typeof McpIndexStatusOutputSchema>;

// --- feedback ------------------------------------------------------------------------------

export const McpRateResultInputSchema = z
  .object({
    search_id: z.string().uuid().describe('the search id printed by search / search_files_by_content / search_functions / search_classes'),
    item_id: z.string().min(1).max(1200).describe('the id of the result you are rating'),
    rating: z.number().int().min(-1).max(1).describe('1 = relevant / helpful, -1 = not relevant, 0 = neutral'),
  })
  .strict();
export type McpRateResultInput = z.input<typeof McpRateResultInputSchema>;

export const McpRateResultOutputSchema = z.object({
  recorded: z.boolean(),
  search_id: z.string(),
  item_id: z.string(),
  rating: z.number().int(),
});
export type McpRateResultOutput = z.infer<typeof McpRateResultOutputSchema>;

/** Every tool name, as listed by `tools/list`. */
export const MCP_TOOL_NAMES = [
  'search',
  'fetch',
  'search_files_by_content',
  'search_functions',
  'search_classes',
  'search_similar_tasks',
  'search_docs',
  'refresh_index',
  'index_status',
  'rate_result',
  'ask',
  'find_references',
  'find_callers',
  'find_callees',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];
