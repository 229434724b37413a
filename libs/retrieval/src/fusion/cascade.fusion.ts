import type { FusedItem, SourceName, SourceRanking, SourceWeights } from './fusion.types';
import { accumulate, compareFused, prepareRankings, toContributions, type PreparedRanking } from './source-rankings';

/** Options for {@link fuseCascade}. */
export interface CascadeFusionOptions {
  /** Sources whose files come first (default: every source named `file.*`). */
  primary?: readonly SourceName[];
  /** Sources whose files fill in after (default: every other source, e.g. `task.*`). */
  secondary?: readonly SourceName[];
  /** RRF rank constant inside each tier (default 60). */
  k?: number;
  /** Per-source weights inside each tier (default 1; 0 removes a source). */
  weights?: SourceWeights;
}

/**
 * Cascade fusion (seed 000's "cascade"): files found by a primary (file) source come
 * first, ordered by weighted RRF over the primary sources; files found only by secondary
 * (task) sources follow, ordered by RRF over the secondary sources. Sources in neither
 * list (possible only when `secondary` is given) are ignored.
 *
 * Scores: a primary-tier file scores `C + rrf_primary(d)` where `C = Σ secondary w / (k+1)`
 * is the highest score any secondary-only file can reach, so scores stay non-increasing
 * down the list. Shares are split by each source's RRF term within the file's tier;
 * secondary sources that also found a primary-tier file appear with share 0.
 *
 * @example
 * fuseCascade(rankings, { primary: ['file.dense', 'file.keyword'], secondary: ['task.dense'] })
 */
export function fuseCascade(rankings: readonly SourceRanking[], options: CascadeFusionOptions = {}): FusedItem[] {
  const { k = 60, weights = {} } = options;
  const prepared = prepareRankings(rankings, weights);
  const inPrimary = (source: string) => (options.primary ? options.primary.includes(source) : source.startsWith('file.'));
  const inSecondary = (source: string) => (options.secondary ? options.secondary.includes(source) : true);
  const tierOf = (source: string) => (inPrimary(source) ? 'primary' : inSecondary(source) ? 'secondary' : null);
  const kept = prepared.filter((r) => tierOf(r.source) !== null);
  const primarySources = new Set(kept.filter((r) => tierOf(r.source) === 'primary').map((r) => r.source));
  const offset = kept.filter((r) => !primarySources.has(r.source)).reduce((s, r: PreparedRanking) => s + r.weight / (k + 1), 0);

  const byId = accumulate(kept, (ranking, entry) => ranking.weight / (k + entry.rank));
  const fused: FusedItem[] = [];
  for (const [id, parts] of byId) {
    const primaryTier = parts.some((p) => primarySources.has(p.source));
    const counted = parts.map((p) => ({ ...p, amount: primaryTier && !primarySources.has(p.source) ? 0 : p.amount }));
    const tierScore = counted.reduce((s, p) => s + p.amount, 0);
    const contributions = toContributions(counted);
    fused.push({ id, score: primaryTier ? offset + tierScore : tierScore, contributions });
  }
  return fused.sort(compareFused);
}
