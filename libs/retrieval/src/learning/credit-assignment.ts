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
  const evidence = poolEvidence(strategy, pool).get(itemId) ?? {};
  return item.contributions.map((c) => ({ source: c.source, rank: c.rank, score: c.score, share: c.share, evidence: evidence[c.source] ?? 0 }));
}

/**
 * Every pooled item's evidence per source (the `evidence` of {@link assignCredit}): the
 * item's score when the strategy fuses that source's list alone, divided by the list's best.
 * A source that did not rank an item has no entry for it.
 *
 * @example
 * poolEvidence('weighted', [{ source: 'file.dense', items: [{ id: 'x', score: 1 }, { id: 'y', score: 0.5 }, { id: 'z', score: 0 }] }]).get('y') // { 'file.dense': 0.5 }
 */
export function poolEvidence(strategy: FusionStrategy, pool: readonly SourceRanking[]): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const list of pool) {
    const alone = fuse(strategy, [list], { weights: { [list.source]: 1 } });
    const best = alone[0]?.score ?? 0;
    for (const f of alone) {
      const entry = out.get(f.id) ?? {};
      entry[list.source] = best > 0 ? clamp01(f.score / best) : 0;
      out.set(f.id, entry);
    }
  }
  return out;
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);
