import type { FusedItem, SourceRanking, SourceWeights } from './fusion.types';
import { accumulate, bestRank, compareStrings, prepareRankings, toContributions } from './source-rankings';

/** Options for {@link fuseVote}. */
export interface VoteFusionOptions {
  /** Per-source weights: a source's vote counts this much (default 1; 0 removes a source). */
  weights?: SourceWeights;
  /** RRF rank constant used to order items with equal votes (default 60). */
  k?: number;
}

/**
 * Voting fusion (seed 000's "vote"): items found by more sources come first. The fused
 * score is the weighted vote `Σ_s w_s` over sources that ranked the item; items with
 * equal votes are ordered by their weighted RRF score, then best rank, then id. Shares
 * are each source's weight over the vote.
 *
 * @example
 * fuseVote(rankings).filter((f) => f.contributions.length > 1) // agreed on by several sources
 */
export function fuseVote(rankings: readonly SourceRanking[], options: VoteFusionOptions = {}): FusedItem[] {
  const { weights = {}, k = 60 } = options;
  const prepared = prepareRankings(rankings, weights);
  const byId = accumulate(prepared, (ranking) => ranking.weight);
  const rrf = accumulate(prepared, (ranking, entry) => ranking.weight / (k + entry.rank));
  const fused: Array<FusedItem & { tieBreak: number }> = [];
  for (const [id, parts] of byId) {
    const tieBreak = rrf.get(id)!.reduce((s, p) => s + p.amount, 0);
    // Rounded so that 0.1 + 0.2 and 0.3 count as the same vote.
    const vote = Math.round(parts.reduce((s, p) => s + p.amount, 0) * 1e12) / 1e12;
    fused.push({ id, score: vote, contributions: toContributions(parts), tieBreak });
  }
  fused.sort((a, b) => b.score - a.score || b.tieBreak - a.tieBreak || bestRank(a) - bestRank(b) || compareStrings(a.id, b.id));
  return fused.map(({ id, score, contributions }) => ({ id, score, contributions }));
}
