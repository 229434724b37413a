import type { FusionStrategyName, SearchRequest, SearchSource, SourceWeightMap } from '@sextant/contracts';

/** The task-history sources and the code sources a search fans out to. */
export const TASK_SOURCES: readonly SearchSource[] = ['task.dense', 'task.keyword'];
export const FILE_SOURCES: readonly SearchSource[] = ['file.dense', 'file.keyword', 'file.symbol'];

/** How one evaluation strategy is asked of `SearchService.search`. */
export interface EvalStrategySpec {
  name: string;
  description: string;
  /** Sources that run; undefined = all five. */
  sources?: SearchSource[];
  fusion: FusionStrategyName;
  /** Per-source weight override; undefined = the workspace's (fresh, so default) weights. */
  weights?: SourceWeightMap;
}

/**
 * Weights for "weighted X/Y (task/file)": the task share X is split evenly between the two
 * task sources and the file share Y evenly between the three file sources, so a group's
 * total weight is its share whatever the number of sources in it.
 *
 * @example
 * groupWeights(0.7, 0.3) // { 'task.dense': 0.35, 'task.keyword': 0.35, 'file.dense': 0.1, ... }
 */
export function groupWeights(taskShare: number, fileShare: number): SourceWeightMap {
  const out: SourceWeightMap = {};
  for (const s of TASK_SOURCES) out[s] = taskShare / TASK_SOURCES.length;
  for (const s of FILE_SOURCES) out[s] = fileShare / FILE_SOURCES.length;
  return out;
}

/** The fused strategy Sextant uses when a request names none (the contracts' default). */
export const DEFAULT_EVAL_STRATEGY = 'weighted_default';

/**
 * Every strategy `sextant eval run` knows, in report order: seed 000's A/B variants
 * (task_only … rrf), the other fusion strategies (weighted_default = weighted fusion with
 * the same weights rrf uses, to compare fusion functions alone), and seed 000's ablations. The ablations
 * no_task and no_file ask the same thing as file_only and task_only (seed 000 defines them
 * that way); they are run separately so each row has its own latency measurements.
 */
export const EVAL_STRATEGIES: readonly EvalStrategySpec[] = [
  { name: 'task_only', description: 'task history only (task.dense + task.keyword, RRF between them)', sources: [...TASK_SOURCES], fusion: 'rrf' },
  { name: 'file_only', description: 'code only (file.dense + file.keyword + file.symbol, RRF between them)', sources: [...FILE_SOURCES], fusion: 'rrf' },
  { name: 'weighted_50_50', description: 'weighted score fusion, 50 % task / 50 % file', fusion: 'weighted', weights: groupWeights(0.5, 0.5) },
  { name: 'weighted_70_30', description: 'weighted score fusion, 70 % task / 30 % file', fusion: 'weighted', weights: groupWeights(0.7, 0.3) },
  { name: 'weighted_30_70', description: 'weighted score fusion, 30 % task / 70 % file', fusion: 'weighted', weights: groupWeights(0.3, 0.7) },
  { name: 'rrf', description: 'reciprocal rank fusion of all five sources', fusion: 'rrf' },
  { name: 'cascade', description: 'cascade fusion of all five sources', fusion: 'cascade' },
  { name: 'vote', description: 'vote fusion of all five sources', fusion: 'vote' },
  { name: 'weighted_default', description: "weighted score fusion with the workspace's own per-class weights (the default strategy)", fusion: 'weighted' },
  { name: 'no_task', description: 'ablation: without the task source (= file_only)', sources: [...FILE_SOURCES], fusion: 'rrf' },
  { name: 'no_file', description: 'ablation: without the file source (= task_only)', sources: [...TASK_SOURCES], fusion: 'rrf' },
  { name: 'no_fusion', description: 'ablation: all sources, concatenated instead of fused', fusion: 'concat' },
  // The code graph's share: weighted fusion (default weights, no learned ranker) with and without file.graph.
  { name: 'graph_fusion', description: 'weighted fusion of every source including file.graph (default weights, no learned ranker)', sources: [...FILE_SOURCES, ...TASK_SOURCES, 'file.graph'], fusion: 'weighted' },
  { name: 'no_graph', description: 'ablation: graph_fusion without file.graph', sources: [...FILE_SOURCES, ...TASK_SOURCES], fusion: 'weighted' },
];

/**
 * Name of the plain baseline run the product is measured against (whole-file FTS5 BM25 and
 * BM25 over task title + body, fused with RRF k = 60, each leg 100 deep), scored like any strategy.
 */
export const BASELINE_STRATEGY = 'bm25_rrf';
/** The baseline's two legs, reported beside it. */
export const BASELINE_LEGS = { files: 'fts5_bm25', tasks: 'bm25_tasks' } as const;
/**
 * The same baseline taken literally, reported beside it: FTS5's own `unicode61` tokenizer over
 * the raw text of files and tasks (no identifier splitting, no stop words, the path not
 * searched). It is weaker than {@link BASELINE_STRATEGY}, which stays the bar significance and
 * the goals are measured against.
 */
export const RAW_BASELINE_STRATEGY = 'bm25_rrf_raw';
/** Every baseline run name: asking for any of them runs them all. */
export const BASELINE_RUNS: readonly string[] = [BASELINE_STRATEGY, ...Object.values(BASELINE_LEGS), RAW_BASELINE_STRATEGY];

/**
 * Resolves `--strategies a,b,c` against {@link EVAL_STRATEGIES} (keeping the canonical
 * order); throws naming the unknown ones.
 *
 * @example
 * selectStrategies(['rrf', 'task_only']).map((s) => s.name) // ['task_only', 'rrf']
 */
export function selectStrategies(names?: readonly string[]): EvalStrategySpec[] {
  if (!names || names.length === 0) return [...EVAL_STRATEGIES];
  const known = new Set(EVAL_STRATEGIES.map((s) => s.name));
  const unknown = names.filter((n) => !known.has(n) && !BASELINE_RUNS.includes(n));
  if (unknown.length) throw new Error(`Unknown strategy ${unknown.map((u) => `"${u}"`).join(', ')}; known: ${[...known, ...BASELINE_RUNS].join(', ')}`);
  const wanted = new Set(names);
  return EVAL_STRATEGIES.filter((s) => wanted.has(s.name));
}

/**
 * The search request one strategy makes for one query: file granularity, no rerank
 * override, the whole query (the API takes up to MAX_QUERY_CHARS; a longer one fails as one search, never cut).
 *
 * @example
 * searchRequestFor(EVAL_STRATEGIES[0], 'fix cookie expiry', 50) // { query, top_k: 50, strategy: 'rrf', sources: ['task.dense', 'task.keyword'], granularity: 'file' }
 */
export function searchRequestFor(spec: EvalStrategySpec, query: string, topK: number): SearchRequest {
  const request: SearchRequest = { query, top_k: topK, strategy: spec.fusion, granularity: 'file' };
  if (spec.sources) request.sources = [...spec.sources];
  if (spec.weights) request.weights = { ...spec.weights };
  return request;
}
