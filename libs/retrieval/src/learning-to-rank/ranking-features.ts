import { tokenize } from '../tokenizer';
import type { MentionKind } from '../query/query-evidence';
import type { ChangeHistory } from './change-history';

/** The retrieval sources whose ranks and scores are features. */
export const RANKED_SOURCES = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword'] as const;

/** Every feature the learned ranker sees, in vector order. */
export const FEATURE_NAMES: readonly string[] = [
  ...RANKED_SOURCES.flatMap((s) => [`${s}.rr`, `${s}.score`]),
  'fusion.score',
  'fusion.rr',
  'sources.count',
  'task.support',
  'mention.frame',
  'mention.path',
  'mention.module',
  'path.overlap',
  'path.stem',
  'history.count',
  'history.recency',
  'history.never',
  'history.profile',
  'history.profile_rr',
  'cochange.top',
  'bm25.file.rr',
  'bm25.file.score',
  'bm25.task.rr',
  'bm25.rrf',
  'kind.test',
  'kind.doc',
  'prior',
  // Appended last: a model trained before them scores the first features only (their weight is 0).
  'graph.rr',
  'graph.score',
  // Ranks on a log scale (1 at rank 1, 0 from rank 101 on or when absent): 1/rank hardly tells
  // rank 8 from rank 30, where most of Recall@10's misses sit.
  ...RANKED_SOURCES.map((s) => `${s}.logrank`),
  'fusion.logrank',
  'history.profile_logrank',
  'bm25.file.logrank',
  'bm25.task.logrank',
  'graph.logrank',
  'bm25.task.vote',
  'bm25.task.best',
  'bm25.file.coverage',
  'cochange.bm25',
  'cochange.task',
  'file.length',
];

/** The code-graph source; its features come after every older one so saved models keep their layout. */
const GRAPH_SOURCE = 'file.graph';

/** What retrieval knows about one candidate file for one query. */
export interface CandidateEvidence {
  path: string;
  /** Rank (1-based) and raw score from each source that listed the file. */
  sources: Partial<Record<string, { rank: number; score: number }>>;
  fusedRank: number;
  fusedScore: number;
  mention?: { kind: MentionKind; strength: number };
  /** Structural prior (1 = neutral). */
  prior: number;
  /** How many similar past tasks touched the file. */
  relatedTasks: number;
  /** BM25 of the query against the file's history profile, and its rank among all profiled files (0 = none). */
  profileScore: number;
  profileRank: number;
  /** Largest co-change share with the top fused files. */
  coChange: number;
  /** Whole-file BM25 rank (0 = not found) and score; rank among the files of BM25-matched past tasks. */
  fileBm25Rank: number;
  fileBm25Score: number;
  taskBm25Rank: number;
  /** Votes of the BM25-matched past tasks for the file, and its best matched task's score relative to the best task's (0 = none). */
  taskVote?: number;
  taskBest?: number;
  /** Share of the query terms' idf mass found anywhere in the file. */
  fileCoverage?: number;
  /** Largest co-change share with the top whole-file BM25 files, and with the top files of BM25-matched past tasks. */
  coChangeBm25?: number;
  coChangeTask?: number;
  /** Tokens in the whole file (0 = unknown: not in the whole-file index). */
  fileTokens?: number;
}

/** What is shared by every candidate of one query. */
export interface QueryFeatureContext {
  /** The query's terms (shared tokenizer, stop words removed). */
  terms: ReadonlySet<string>;
  /** Best raw score per source in this result set. */
  sourceMax: Partial<Record<string, number>>;
  topFusedScore: number;
  history: ChangeHistory | null;
  /** History position the query is asked at (the task count for live searches). */
  position: number;
  /** Best history-profile score of this query (normalises `history.profile`). */
  profileMax: number;
  /** Best whole-file BM25 score of this query. */
  fileBm25Max: number;
  /** Largest task vote of this query (normalises `bm25.task.vote`). */
  taskVoteMax?: number;
}

/** Tasks over which a file's last change fades to 1/e in `history.recency`. */
export const RECENCY_SCALE = 50;
const TEST_PATH = /(^|\/)(tests?|__tests__|spec|specs|testing)\/|(_test|\.test|\.spec|_spec)\.[^/]+$|(^|\/)test_[^/]+$|(^|\/)conftest\.py$/i;
/** Documents, and the extensionless project files that are lists or notices rather than code (`AUTHORS`, `LICENSE`, `CHANGES`). */
const DOC_PATH = /\.(md|mdx|rst|txt|adoc)$|(^|\/)(docs?|documentation)\/|(^|\/)(?:AUTHORS|CONTRIBUTORS|MAINTAINERS|THANKS|CREDITS|LICEN[CS]E|COPYING|NOTICE|PATENTS|CHANGES|CHANGELOG|HISTORY|NEWS|README|INSTALL|EXAMPLES|TODO|CODEOWNERS)$/i;

/** Whether a path is a test, a document (docs, changelogs, READMEs) or anything else (source, config). */
export function fileKind(path: string): 'test' | 'doc' | 'source' {
  const traits = pathTraits(path);
  return traits.test ? 'test' : traits.doc ? 'doc' : 'source';
}

/** The query terms a ranker compares paths against. */
export function queryTermSet(query: string): Set<string> {
  return new Set(tokenize(query, { removeStopWords: true }));
}

/**
 * The feature vector of one candidate ({@link FEATURE_NAMES} order): per-source reciprocal
 * ranks and max-normalised scores, the fused score and rank, how many sources and similar
 * tasks back it, mentions in the query, path words shared with the query, how often and how
 * lately the file changed before the query, and its kind. Written into `x` when given (a
 * query's candidates can share one buffer).
 */
export function candidateFeatures(c: CandidateEvidence, q: QueryFeatureContext, x = new Float64Array(FEATURE_NAMES.length)): Float64Array {
  let i = 0;
  let listed = 0;
  for (const s of RANKED_SOURCES) {
    const hit = c.sources[s];
    const max = q.sourceMax[s] ?? 0;
    x[i++] = hit ? 1 / hit.rank : 0;
    x[i++] = hit && max > 0 ? Math.max(0, hit.score) / max : 0;
    if (hit) listed += 1;
  }
  x[i++] = q.topFusedScore > 0 ? Math.max(0, c.fusedScore) / q.topFusedScore : 0;
  x[i++] = c.fusedRank > 0 ? 1 / c.fusedRank : 0;
  x[i++] = listed / RANKED_SOURCES.length;
  x[i++] = Math.log1p(c.relatedTasks);
  x[i++] = c.mention?.kind === 'frame' ? c.mention.strength : 0;
  x[i++] = c.mention?.kind === 'path' ? c.mention.strength : 0;
  x[i++] = c.mention?.kind === 'module' ? c.mention.strength : 0;
  const path = pathTraits(c.path);
  let shared = 0;
  for (const w of path.words) if (q.terms.has(w)) shared += 1;
  x[i++] = path.words.length ? shared / path.words.length : 0;
  x[i++] = path.stem !== null && (q.terms.has(path.stem) || q.terms.has(path.stemUnderscored)) ? 1 : 0;
  const count = q.history?.changeCount(c.path, q.position) ?? 0;
  const last = q.history?.lastChange(c.path, q.position) ?? null;
  x[i++] = Math.log1p(count);
  x[i++] = last === null ? 0 : Math.exp(-(q.position - 1 - last) / RECENCY_SCALE);
  x[i++] = count === 0 ? 1 : 0;
  x[i++] = q.profileMax > 0 ? c.profileScore / q.profileMax : 0;
  x[i++] = c.profileRank > 0 ? 1 / c.profileRank : 0;
  x[i++] = c.coChange;
  x[i++] = c.fileBm25Rank > 0 ? 1 / c.fileBm25Rank : 0;
  x[i++] = q.fileBm25Max > 0 ? c.fileBm25Score / q.fileBm25Max : 0;
  x[i++] = c.taskBm25Rank > 0 ? 1 / c.taskBm25Rank : 0;
  // The plain BM25 + RRF baseline's own score (k = 60), scaled so rank 1 in both legs is 1.
  x[i++] = (30 * ((c.fileBm25Rank > 0 ? 1 / (60 + c.fileBm25Rank) : 0) + (c.taskBm25Rank > 0 ? 1 / (60 + c.taskBm25Rank) : 0)));
  x[i++] = path.test ? 1 : 0;
  x[i++] = path.doc ? 1 : 0;
  x[i++] = c.prior;
  const graph = c.sources[GRAPH_SOURCE];
  const graphMax = q.sourceMax[GRAPH_SOURCE] ?? 0;
  x[i++] = graph ? 1 / graph.rank : 0;
  x[i++] = graph && graphMax > 0 ? Math.max(0, graph.score) / graphMax : 0;
  for (const s of RANKED_SOURCES) x[i++] = logRank(c.sources[s]?.rank ?? 0);
  x[i++] = logRank(c.fusedRank);
  x[i++] = logRank(c.profileRank);
  x[i++] = logRank(c.fileBm25Rank);
  x[i++] = logRank(c.taskBm25Rank);
  x[i++] = logRank(graph?.rank ?? 0);
  x[i++] = q.taskVoteMax && q.taskVoteMax > 0 ? (c.taskVote ?? 0) / q.taskVoteMax : 0;
  x[i++] = c.taskBest ?? 0;
  x[i++] = c.fileCoverage ?? 0;
  x[i++] = c.coChangeBm25 ?? 0;
  x[i++] = c.coChangeTask ?? 0;
  // Log tokens, /10 to put a 20k-token file near 1: long files hold more of any query's words and change more often.
  x[i++] = Math.log1p(c.fileTokens ?? 0) / 10;
  return x;
}

const LOG_RANK_SCALE = Math.log(101);
/** 1 at rank 1, falling with the log of the rank to 0 at rank 101; 0 for no rank. */
function logRank(rank: number): number {
  return rank > 0 ? Math.max(0, 1 - Math.log(rank) / LOG_RANK_SCALE) : 0;
}

/** What the features read from a path alone, worked out once per path. */
interface PathTraits {
  /** The distinct words of the path without its extension: `src/flask/json/provider.py` -> src, flask, json, provider. */
  words: string[];
  /** The lower-cased file name without extension, when a query naming it points at the file (not `index`, `__init__`, ...). */
  stem: string | null;
  /** `stem` with `-` and `.` as `_`. */
  stemUnderscored: string;
  test: boolean;
  doc: boolean;
}

const traitsCache = new Map<string, PathTraits>();
function pathTraits(path: string): PathTraits {
  let traits = traitsCache.get(path);
  if (!traits) {
    const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.[A-Za-z0-9]+$/, '').toLowerCase();
    const stem = base === 'index' || base === '__init__' || base === 'mod' || base.length < 3 ? null : base;
    traits = {
      words: [...new Set(tokenize(path.replace(/\.[A-Za-z0-9]+$/, '')).filter((w) => w.length > 1))],
      stem,
      stemUnderscored: base.replace(/[-.]/g, '_'),
      test: TEST_PATH.test(path),
      doc: DOC_PATH.test(path),
    };
    if (traitsCache.size > 200_000) traitsCache.clear();
    traitsCache.set(path, traits);
  }
  return traits;
}
