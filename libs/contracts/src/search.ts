import { z } from 'zod';
import { PathGlobListSchema } from './path-glob';
import { ExternalResultSchema } from './external-sources';
import { RerankModeSchema, RerankVerdictSchema } from './rerank';

/** The retrieval sources a search fans out to; `file.graph` expands the others' strongest hits through the code graph (callers, callees, imports), so it answers after them. */
export const SEARCH_SOURCES = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword', 'file.graph'] as const;
export const SearchSourceSchema = z.enum(SEARCH_SOURCES);
export type SearchSource = z.infer<typeof SearchSourceSchema>;

export const FusionStrategySchema = z.enum(['rrf', 'weighted', 'cascade', 'vote', 'concat']);
export type FusionStrategyName = z.infer<typeof FusionStrategySchema>;

export const QueryClassSchema = z.enum(['specific', 'conceptual']);
export type QueryClassName = z.infer<typeof QueryClassSchema>;

export const KeywordModeSchema = z.enum(['and', 'or', 'phrase']);

/**
 * The longest query a search takes: a whole GitHub issue fits (title up to 256 characters, a
 * blank line, body up to 65,536), tracebacks and logs included; longer is refused, never cut.
 */
export const MAX_QUERY_CHARS = 66_000;
/** The most results one search returns. */
export const MAX_TOP_K = 100;


export const SearchFiltersSchema = z
  .object({
    repos: z.array(z.string().min(1).max(200)).max(50).optional().describe('repository ids or names'),
    langs: z.array(z.string().min(1).max(32)).max(20).optional(),
    chunk_types: z.array(z.enum(['file', 'class', 'method', 'function', 'section', 'window'])).max(6).optional(),
    include: PathGlobListSchema.optional(),
    exclude: PathGlobListSchema.optional(),
    symbols: z.array(z.string().min(1).max(300)).max(50).optional(),
  })
  .strict();
export type SearchFilters = z.infer<typeof SearchFiltersSchema>;

export const SourceWeightsSchema = z.partialRecord(SearchSourceSchema, z.number().min(0).max(100));
export type SourceWeightMap = z.infer<typeof SourceWeightsSchema>;

/** `POST /v1/search` (also the `options` of socket `search:start` and the SSE query). */
export const SearchRequestSchema = z
  .object({
    query: z.string().trim().min(1, 'query must not be empty').max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters`),
    top_k: z.number().int().min(1).max(MAX_TOP_K).default(10),
    /** weighted is the default: on the evaluation repositories it beat task-only, file-only and BM25 on R@10 and MRR everywhere (docs/evaluation.md). */
    strategy: FusionStrategySchema.default('weighted'),
    weights: SourceWeightsSchema.optional().describe('override the learned weights for this search'),
    sources: z.array(SearchSourceSchema).min(1).max(SEARCH_SOURCES.length).optional().describe('default: all of them'),
    filters: SearchFiltersSchema.optional(),
    granularity: z.enum(['file', 'chunk']).default('file'),
    keyword_mode: KeywordModeSchema.optional().describe('default: and, falling back to or when and finds nothing'),
    rerank: z.boolean().optional().describe('true: rerank the results on the 0–4 scale (seed 002 bands) after exact float rescoring; false: neither; unset: exact rescoring only'),
    rerank_threshold: z.number().min(0).max(4).optional().describe('reranker threshold (default RERANK_THRESHOLD, 2.5)'),
    rerank_mode: RerankModeSchema.optional().describe('drop or flag results under the threshold (default RERANK_MODE, flag)'),
    external: z.boolean().optional().describe('query the workspace\'s external MCP sources (default true)'),
    timeout_ms: z.number().int().min(50).max(30000).optional().describe('per-source timeout'),
  })
  .strict();
export type SearchRequest = z.input<typeof SearchRequestSchema>;
export type ParsedSearchRequest = z.output<typeof SearchRequestSchema>;

export const SourceExplainSchema = z.object({
  source: z.string(),
  rank: z.number().int(),
  score: z.number(),
  share: z.number(),
});

export const RelatedTaskSchema = z.object({
  task_id: z.string(),
  title: z.string(),
  score: z.number(),
  created_at: z.string().nullable().optional(),
});
export type RelatedTask = z.infer<typeof RelatedTaskSchema>;

export const ChunkEvidenceSchema = z.object({
  id: z.string(),
  chunk_type: z.string(),
  symbol: z.string().nullable(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  start_byte: z.number().int(),
  end_byte: z.number().int(),
  score: z.number(),
  snippet: z.string(),
});
export type ChunkEvidence = z.infer<typeof ChunkEvidenceSchema>;

/** The learned ranker's part of a result's explanation: model version, raw score, the features that weighed most. */
export const RankerExplainSchema = z.object({
  model_version: z.number().int(),
  /** Which of the version's two models placed the file: `code_first` holds the top places; `all_changed`, fitted with tests, docs and changelogs graded like code, orders the places below them. Absent from models without the second. */
  placed_by: z.enum(['code_first', 'all_changed']).optional(),
  rank_score: z.number(),
  contributions: z.array(z.object({ feature: z.string(), value: z.number() })),
});

/**
 * Present when the query was also searched by its title (a multi-line issue report with the
 * learned ranker active): the file's calibrated score for the title alone and for the whole
 * text (0 where that search did not rank it); `score` is their mean weighted 1 : title_weight.
 */
export const TitleSearchExplainSchema = z.object({ title_score: z.number(), text_score: z.number(), title_weight: z.number() });

/** Hit reason of a problem report's code file lifted to the top: `report:code-first:<its rank before>`. */
export const CODE_FIRST_REASON = 'report:code-first:';

/** The rank a result was lifted from because its query reads as a problem report, or null. */
export function codeFirstLiftedFrom(hitReasons: readonly string[]): number | null {
  const reason = hitReasons.find((h) => h.startsWith(CODE_FIRST_REASON));
  return reason ? Number(reason.slice(CODE_FIRST_REASON.length)) : null;
}

/** Hit reason of a file kept in the top places as part of the query's routine: `history:routine:<touched>/<window>:<rank before>:<template>`. */
export const ROUTINE_REASON = 'history:routine:';

/** Why a routine file was kept in the top places: of the newest `window` past changes with the query's `template`, `touched` changed it; it was at rank `from`. */
export interface RoutineHit {
  touched: number;
  window: number;
  from: number;
  template: string;
}

export function routineReason(hit: RoutineHit): string {
  return `${ROUTINE_REASON}${hit.touched}/${hit.window}:${hit.from}:${hit.template}`;
}

/** The routine a result was kept in the top places for, or null. */
export function routineHit(hitReasons: readonly string[]): RoutineHit | null {
  const reason = hitReasons.find((h) => h.startsWith(ROUTINE_REASON));
  const parts = reason ? /^(\d+)\/(\d+):(\d+):(.*)$/s.exec(reason.slice(ROUTINE_REASON.length)) : null;
  return parts ? { touched: Number(parts[1]), window: Number(parts[2]), from: Number(parts[3]), template: parts[4] } : null;
}

/** One line on a routine hit, as the CLI and MCP print it. */
export function describeRoutineHit(hit: RoutineHit): string {
  return `routine change: ${hit.touched} of the last ${hit.window} past changes like "${hit.template}" touched it (was #${hit.from})`;
}

/** Hit reason of a file put first for defining an identifier a lookup names ("where is loadConfig"): `definition:<name>:from_rank_<rank before>`. */
export const DEFINITION_REASON = 'definition:';

/** The identifier a result defines, which the query asked for, and the rank it had before it was put first (1 = already first). */
export interface DefinitionHit {
  name: string;
  from: number;
}

export function definitionReason(hit: DefinitionHit): string {
  return `${DEFINITION_REASON}${hit.name}:from_rank_${hit.from}`;
}

/** The definition a result was put first for, or null. */
export function definitionHit(hitReasons: readonly string[]): DefinitionHit | null {
  const reason = hitReasons.find((h) => h.startsWith(DEFINITION_REASON));
  const parts = reason ? /^(.+):from_rank_(\d+)$/.exec(reason.slice(DEFINITION_REASON.length)) : null;
  return parts ? { name: parts[1], from: Number(parts[2]) } : null;
}

/** One line on a definition hit, as the CLI and MCP print it. */
export function describeDefinitionHit(hit: DefinitionHit): string {
  return `defines ${hit.name}, which the query asks for${hit.from > 1 ? ` (was #${hit.from}, behind files that use it)` : ''}`;
}

/** Hit reason of a file known from the task history only: past tasks changed it, its content is not indexed (a lockfile, build output, a file too large to read). */
export const HISTORY_ONLY_REASON = 'file:history-only';

/** One line on a history-only result, as the CLI prints it. */
export const HISTORY_ONLY_NOTE = 'history only: past tasks changed this file; its content is not indexed (lockfile, build output or too large)';

/**
 * Why a result list is only a weak match:
 * - `embedding_only`: nothing but embedding similarity links it to the query (no keyword,
 *   symbol or task-keyword hit, no file named in the query);
 * - `unknown_terms`: more than half of a short query's words occur in no indexed file and no
 *   past task (`unknown_terms` lists them), so the results match only the rest;
 * - `low_relevance`: words matched, but the learned ranker's calibrated relevance of the best
 *   result is under the weak-match threshold.
 */
export const WeakMatchReasonSchema = z.enum(['embedding_only', 'unknown_terms', 'low_relevance']);
export type WeakMatchReason = z.infer<typeof WeakMatchReasonSchema>;

/** The one-line warning every surface (dashboard, CLI, MCP) shows for a weak match; `topScore` is the best result's score. */
export function describeWeakMatch(reason: WeakMatchReason | undefined, topScore?: number, unknownTerms: readonly string[] = []): string {
  if (reason === 'low_relevance') {
    const chance = topScore === undefined ? 'a low' : `only a ${(topScore * 100).toFixed(1)} %`;
    return `Weak match: words matched, but the learned ranker gives the best result ${chance} chance of being a file a past task like this changed.`;
  }
  if (reason === 'unknown_terms') {
    const words = unknownTerms.length ? ` (${unknownTerms.join(', ')})` : '';
    return `Weak match: most of the query's words${words} appear nowhere in the indexed code or its history; the results match only the rest.`;
  }
  return 'Weak match: no keyword, symbol or past-task hit; these are only the nearest embeddings.';
}

export const SearchResultSchema = z.object({
  /** `file:<repo_id>:<path>` for files, the chunk id for chunks — what feedback and fetch refer to. */
  id: z.string(),
  kind: z.enum(['file', 'chunk']),
  rank: z.number().int(),
  score: z.number(),
  repo_id: z.string(),
  repo_name: z.string().nullable(),
  path: z.string(),
  lang: z.string().nullable(),
  chunk: ChunkEvidenceSchema.nullable(),
  evidence: z.array(ChunkEvidenceSchema),
  explain: z.object({
    sources: z.array(SourceExplainSchema),
    hit_reasons: z.array(z.string()),
    related_tasks: z.array(RelatedTaskSchema),
    prior: z.number(),
    score_before_prior: z.number(),
    /**
     * `fused`: score = score_before_prior × prior. `sources` (the rank fusions rrf, cascade,
     * concat): the prior weighed each source's own score before fusing, so the score already holds it.
     */
    prior_applied: z.enum(['fused', 'sources']).optional(),
    /** Present when the workspace's learned ranker ordered the results: its raw score and the features that weighed most. */
    ranker: RankerExplainSchema.optional(),
    title_search: TitleSearchExplainSchema.optional(),
  }),
  /** The reranker's 0–4 score and band, when the search asked for `rerank: true`. */
  rerank: RerankVerdictSchema.optional(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

/** Validation of a ranker against the fused ranking it would replace, on the newest held-out past tasks. */
export const RankerValidationSchema = z.object({
  queries: z.number().int(),
  ranker: z.object({ mrr: z.number(), r10: z.number() }),
  fusion: z.object({ mrr: z.number(), r10: z.number() }),
  /** A long history's second check, made when the newest tasks alone did not show the ranker beating fusion: every training list ranked by a model fitted without it. */
  cross_check: z
    .object({
      queries: z.number().int(),
      folds: z.number().int(),
      ranker: z.object({ mrr: z.number(), r10: z.number() }),
      fusion: z.object({ mrr: z.number(), r10: z.number() }),
    })
    .optional(),
});

/** `GET /v1/ranker`, `POST /v1/ranker/train`: the workspace's learned ranker. */
export const RankerStatusSchema = z.object({
  /** `active`: ranks default searches; `rejected`: the last fit did not beat fusion; `none`: never trained (too little history). */
  state: z.enum(['active', 'rejected', 'none']),
  model_version: z.number().int().nullable(),
  trained_at: z.string().nullable(),
  /** Past tasks in the workspace now, and when the shown model was fitted. */
  history_tasks: z.number().int(),
  trained_on_tasks: z.number().int().nullable(),
  examples: z.number().int(),
  /** Rated searches the shown model also trained on (people's ratings of past results). */
  rated_searches: z.number().int(),
  validation: RankerValidationSchema.nullable(),
  /** The largest weights (standardised features), for a human reading what it learned. */
  top_weights: z.array(z.object({ feature: z.string(), weight: z.number() })),
  message: z.string(),
});
export type RankerStatus = z.infer<typeof RankerStatusSchema>;

export const SearchResponseSchema = z.object({
  search_id: z.string(),
  query: z.string(),
  query_class: QueryClassSchema,
  strategy: FusionStrategySchema,
  granularity: z.enum(['file', 'chunk']),
  weights: SourceWeightsSchema,
  weights_version: z.number().int(),
  /**
   * Whether the results answer the query: `strong`; `weak` when only embedding similarity links
   * them to it or the learned ranker rates the best of them unlikely (`match_reason` says which);
   * `none` when empty.
   */
  match: z.enum(['strong', 'weak', 'none']),
  /** Why a `weak` match is weak (absent otherwise); {@link describeWeakMatch} words it. */
  match_reason: WeakMatchReasonSchema.optional(),
  /** Words of a short query that occur in no indexed file and no past task (set with a learned ranker active, when more than half are). */
  unknown_terms: z.array(z.string()).optional(),
  results: z.array(SearchResultSchema),
  /** Results of external MCP sources that are not files of an indexed repository, merged by priority. */
  external: z.array(ExternalResultSchema).optional(),
  /** Degradations: sources that failed or timed out, keyword fallbacks, filters that emptied a source. */
  limits: z.array(z.string()),
  timings_ms: z.record(z.string(), z.number()),
  cached: z.boolean(),
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

/** One streamed step: the fused ranking so far, after `source` answered. */
export const SearchPartialSchema = z.object({
  source: z.string(),
  results: z.array(SearchResultSchema),
  external: z.array(ExternalResultSchema).optional(),
  sources_done: z.array(z.string()),
  sources_pending: z.array(z.string()),
  limits: z.array(z.string()),
  /** Server-side milliseconds since the search started. */
  elapsed_ms: z.number(),
});
export type SearchPartial = z.infer<typeof SearchPartialSchema>;
