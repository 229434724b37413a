import { fuseCascade } from './cascade.fusion';
import { concatenate } from './concatenate.fusion';
import type { FusedItem, SourceName, SourceRanking, SourceWeights } from './fusion.types';
import { fuseReciprocalRank } from './reciprocal-rank.fusion';
import { fuseVote } from './vote.fusion';
import { fuseWeighted } from './weighted.fusion';

/** The fusion strategies; `concat` is the no-fusion ablation. */
export const FUSION_STRATEGIES = ['rrf', 'weighted', 'cascade', 'vote', 'concat'] as const;
export type FusionStrategy = (typeof FUSION_STRATEGIES)[number];

/** Options understood by {@link fuse}; each strategy reads the ones it needs. */
export interface FuseOptions {
  /** Per-source weights (default 1; 0 removes a source) — all strategies. */
  weights?: SourceWeights;
  /** RRF rank constant (default 60) — rrf, cascade, vote (tie-break). */
  k?: number;
  /** cascade: sources whose files come first (default `file.*`). */
  primary?: readonly SourceName[];
  /** cascade: sources that fill in after (default all others). */
  secondary?: readonly SourceName[];
  /** concat: order in which source lists are appended. */
  order?: readonly SourceName[];
}

/** True for a known strategy name (for validating config and request input). */
export function isFusionStrategy(value: unknown): value is FusionStrategy {
  return typeof value === 'string' && (FUSION_STRATEGIES as readonly string[]).includes(value);
}

/**
 * Fuses per-source ranked file lists with the named strategy. The output is sorted best
 * first, deterministic whatever order the sources arrived in, and every item says which
 * sources ranked it and what share of its score each earned.
 *
 * @example
 * const fused = fuse('rrf', [
 *   { source: 'file.dense', items: denseFiles },
 *   { source: 'task.dense', items: filesFromSimilarTasks },
 * ], { weights: { 'task.dense': 0.7 } });
 */
export function fuse(strategy: FusionStrategy, rankings: readonly SourceRanking[], options: FuseOptions = {}): FusedItem[] {
  switch (strategy) {
    case 'rrf':
      return fuseReciprocalRank(rankings, options);
    case 'weighted':
      return fuseWeighted(rankings, options);
    case 'cascade':
      return fuseCascade(rankings, options);
    case 'vote':
      return fuseVote(rankings, options);
    case 'concat':
      return concatenate(rankings, options);
    default:
      throw new Error(`Unknown fusion strategy "${String(strategy)}"; expected one of ${FUSION_STRATEGIES.join(', ')}`);
  }
}
