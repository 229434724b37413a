import { fuse, type FusionStrategy } from '../fusion/fuse';
import type { SourceName, SourceRanking, SourceWeights } from '../fusion/fusion.types';

/** What one source did for a rated item. */
export interface SourceCredit {
  source: SourceName;
  /** 1-based rank the source gave the item. */
  rank: number;
  /** The source's raw score for the item. */
  score: number;
  /** Share of the item's fused score the source earned under the search's weights (shares sum to 1). */
  share: number;
  /**
   * The source's own opinion of the item in [0, 1], independent of its weight: the item's
   * score when the strategy fuses that source's list alone, divided by the list's best score.
   * For `weighted` fusion this is the min-max normalised score; for `rrf` it is (k+1)/(k+rank).
   */
  evidence: number;
}

/** Input of {@link assignCredit}. */
export interface AssignCreditInput {
  /** The strategy the search used. */
  strategy: FusionStrategy;
  /** The search's pool: each source's ranked list as it was logged. */
  pool: readonly SourceRanking[];
  /** The weights the search used. */
  weights: SourceWeights;
  /** The rated item. */
  itemId: string;
}

/**
 * Credit assignment: recomputes the fusion a search did (same strategy, pool and weights)
 * and returns, for each source that ranked the rated item, its share of the item's fused
 * score and its weight-free evidence. Sources that did not rank the item get no entry.
 * An item no source ranked gets an empty list.
 *
 * @example
 * assignCredit({ strategy: 'weighted', pool, weights: { 'file.dense': 1, 'task.dense': 1 }, itemId: 'file:…:src/a.ts' })
 * // [{ source: 'task.dense', rank: 1, score: 0.8, share: 0.7, evidence: 1 }, { source: 'file.dense', rank: 4, …, share: 0.3, evidence: 0.43 }]
 */
export function assignCredit(input: AssignCreditInput): SourceCredit[] {
  const { strategy, pool, weights, itemId } = input;
  const item = fuse(strategy, pool, { weights }).find((f) => f.id === itemId);
  if (!item) return [];
  return item.contributions.map((c) => {
    const list = pool.find((r) => r.source === c.source)!;
    const alone = fuse(strategy, [list], { weights: { [c.source]: 1 } });
    const best = alone[0]?.score ?? 0;
    const mine = alone.find((f) => f.id === itemId)?.score ?? 0;
    return { source: c.source, rank: c.rank, score: c.score, share: c.share, evidence: best > 0 ? clamp01(mine / best) : 0 };
  });
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);
