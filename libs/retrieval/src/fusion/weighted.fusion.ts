import type { FusedItem, SourceRanking, SourceWeights } from './fusion.types';
import { accumulate, compareFused, prepareRankings, toContributions } from './source-rankings';

/** Options for {@link fuseWeighted}. */
export interface WeightedFusionOptions {
  /** Per-source weights (default 1; 0 removes a source). */
  weights?: SourceWeights;
}

/**
 * Weighted score fusion (seed 000's "weighted hybrid"): each source's raw scores are
 * min-max normalised to [0, 1] within that source's list, then
 * `score(d) = Σ_s w_s · (s_s(d) - min_s) / (max_s - min_s)`. A list whose scores are all
 * equal (including a single-item list) normalises every item to 1. Unlike RRF, the size
 * of score gaps matters, so a source that is very sure about its top hit can carry it.
 * Normalising per list makes BM25 and cosine comparable, at the price that a list's last
 * item always scores 0 from that source.
 *
 * @example
 * fuseWeighted(rankings, { weights: { 'file.dense': 0.6, 'task.dense': 0.4 } })[0].id
 */
export function fuseWeighted(rankings: readonly SourceRanking[], options: WeightedFusionOptions = {}): FusedItem[] {
  const { weights = {} } = options;
  const prepared = prepareRankings(rankings, weights);
  const ranges = new Map(
    prepared.map((r) => {
      const scores = r.entries.map((e) => e.score);
      return [r.source, { min: Math.min(...scores), max: Math.max(...scores) }] as const;
    }),
  );
  const byId = accumulate(prepared, (ranking, entry) => {
    const { min, max } = ranges.get(ranking.source)!;
    const normalised = max > min ? (entry.score - min) / (max - min) : 1;
    return ranking.weight * normalised;
  });
  const fused: FusedItem[] = [];
  for (const [id, parts] of byId) {
    fused.push({ id, score: parts.reduce((s, p) => s + p.amount, 0), contributions: toContributions(parts) });
  }
  return fused.sort(compareFused);
}
