import { scoreRanking, type MetricName } from '@sextant/eval';
import { DEFAULT_STRUCTURAL_PRIORS, fuse, type QueryClass, type SourceRanking, type SourceWeights, type StructuralPriors } from '@sextant/retrieval';

/** One query with the per-source rankings its logged search pooled. */
export interface PooledQuery {
  id: string;
  query: string;
  queryClass: QueryClass;
  relevant: string[];
  rankings: SourceRanking[];
}

export type WeightsByClass = Record<QueryClass, SourceWeights>;

/** The file path of a file result id (`file:<repo uuid>:<path>`), as SearchService derives it. */
export const pathOfItem = (id: string) => id.slice(id.indexOf(':', 5) + 1);

/**
 * Re-runs a search's fusion offline from its pool: weighted fusion with the given weights,
 * then the structural priors — what SearchService does after the sources answered — so many
 * weight settings can be scored without searching again. Returns ranked file paths.
 */
export function rankOffline(rankings: readonly SourceRanking[], weights: SourceWeights, priors: StructuralPriors = DEFAULT_STRUCTURAL_PRIORS, topK = 50): string[] {
  const fused = fuse('weighted', rankings, { weights });
  // Same order as applyPriors (score × prior, stable); StructuralPriors memoises each path's prior (grid search calls this a lot).
  const ranked = fused
    .map((f, index) => {
      const path = pathOfItem(f.id);
      return { path, score: f.score * priors.priorFor(path), index };
    })
    .sort((a, b) => b.score - a.score || a.index - b.index);
  return [...new Set(ranked.slice(0, topK).map((r) => r.path))];
}

export const SIM_METRICS = ['r10', 'mrr', 'ndcg10'] as const satisfies readonly MetricName[];
export type SimMetric = (typeof SIM_METRICS)[number];
export type SimScores = Record<SimMetric, number>;

/** Per-query metrics of the offline ranking of each query with its class's weights. */
export function scoreQueries(queries: readonly PooledQuery[], weights: WeightsByClass, priors: StructuralPriors = DEFAULT_STRUCTURAL_PRIORS): SimScores[] {
  return queries.map((q) => {
    const m = scoreRanking(rankOffline(q.rankings, weights[q.queryClass], priors), q.relevant);
    return { r10: m.r10, mrr: m.mrr, ndcg10: m.ndcg10 };
  });
}

export function meanScores(scores: readonly SimScores[]): SimScores {
  const out: SimScores = { r10: 0, mrr: 0, ndcg10: 0 };
  for (const s of scores) for (const k of SIM_METRICS) out[k] += s[k] / Math.max(1, scores.length);
  return out;
}
