import type { FusedItem, SourceRanking, SourceWeights } from './fusion.types';
import { accumulate, compareFused, prepareRankings, toContributions } from './source-rankings';

/** Options for {@link fuseReciprocalRank}. */
export interface ReciprocalRankOptions {
  /** Rank constant; larger values flatten the advantage of top ranks (default 60). */
  k?: number;
  /** Per-source weights (default 1; 0 removes a source). */
  weights?: SourceWeights;
}

/**
 * Weighted Reciprocal Rank Fusion: `score(d) = Σ_s w_s / (k + rank_s(d))` over the
 * sources that ranked `d`. Only ranks matter, so cosine similarities and BM25 scores
 * combine without calibration. Each source's share is its term over the sum.
 *
 * @example
 * fuseReciprocalRank([
 *   { source: 'file.dense', items: [{ id: 'doc_A', score: 0.95 }, { id: 'doc_B', score: 0.87 }, { id: 'doc_C', score: 0.73 }] },
 *   { source: 'file.keyword', items: [{ id: 'doc_C', score: 89.2 }, { id: 'doc_A', score: 76.1 }, { id: 'doc_D', score: 45.3 }] },
 * ]).map((f) => f.id) // ['doc_A', 'doc_C', 'doc_B', 'doc_D']  (0.0325, 0.0323, 0.0161, 0.0159)
 */
export function fuseReciprocalRank(rankings: readonly SourceRanking[], options: ReciprocalRankOptions = {}): FusedItem[] {
  const { k = 60, weights = {} } = options;
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`RRF rank constant k must be a finite number >= 0, got ${k}`);
  const byId = accumulate(prepareRankings(rankings, weights), (ranking, entry) => ranking.weight / (k + entry.rank));
  const fused: FusedItem[] = [];
  for (const [id, parts] of byId) {
    fused.push({ id, score: parts.reduce((s, p) => s + p.amount, 0), contributions: toContributions(parts) });
  }
  return fused.sort(compareFused);
}
