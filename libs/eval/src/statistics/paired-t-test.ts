import type tCdfFn from '@stdlib/stats-base-dists-t-cdf';

/** Student's t CDF, required on first use (the package costs ~10 MB of RSS in every server that never runs an evaluation). */
function tCdf(x: number, df: number): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('@stdlib/stats-base-dists-t-cdf') as typeof tCdfFn)(x, df);
}

/** Result of {@link pairedTTest}. */
export interface PairedTTest {
  /** t statistic of experiment - baseline. */
  t: number;
  /** Degrees of freedom, n - 1. */
  df: number;
  /** Two-sided p-value. */
  pValue: number;
  /** Mean of the per-pair differences (experiment - baseline). */
  meanDiff: number;
  n: number;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

function checkPairs(baseline: readonly number[], experiment: readonly number[]): void {
  if (baseline.length !== experiment.length) {
    throw new Error(`Paired samples need equal lengths: baseline has ${baseline.length} values, experiment ${experiment.length}`);
  }
  if ([...baseline, ...experiment].some((x) => !Number.isFinite(x))) throw new RangeError('Paired samples must be finite numbers');
}

/**
 * Two-sided paired t-test (scipy's `ttest_rel(experiment, baseline)`): differences
 * d_i = experiment_i - baseline_i, t = mean(d) / (sd(d) / √n) with the n-1 sample standard
 * deviation, p = 2·P(T_{n-1} ≤ -|t|). Degenerate cases: fewer than 2 pairs, or all
 * differences equal to 0, give t = 0 and p = 1; identical non-zero differences (sd = 0)
 * give t = ±Infinity and p = 0.
 *
 * @example
 * pairedTTest(taskOnlyMrr, rrfMrr).pValue < 0.05 // rrf differs from task_only
 */
export function pairedTTest(baseline: readonly number[], experiment: readonly number[]): PairedTTest {
  checkPairs(baseline, experiment);
  const n = baseline.length;
  const diffs = baseline.map((b, i) => experiment[i] - b);
  if (n < 2) return { t: 0, df: Math.max(0, n - 1), pValue: 1, meanDiff: n === 1 ? diffs[0] : 0, n };
  const meanDiff = mean(diffs);
  const variance = diffs.reduce((s, d) => s + (d - meanDiff) ** 2, 0) / (n - 1);
  const df = n - 1;
  // Differences equal up to float noise (0.2-0.1 vs 0.3-0.2) are equal.
  if (Math.sqrt(variance) <= 1e-12 * Math.max(1, Math.abs(meanDiff))) {
    return Math.abs(meanDiff) <= 1e-12 ? { t: 0, df, pValue: 1, meanDiff, n } : { t: Math.sign(meanDiff) * Number.POSITIVE_INFINITY, df, pValue: 0, meanDiff, n };
  }
  const t = meanDiff / Math.sqrt(variance / n);
  const pValue = Math.min(1, 2 * tCdf(-Math.abs(t), df));
  return { t, df, pValue, meanDiff, n };
}

/**
 * Cohen's d as seed 000 defines it: (mean(experiment) - mean(baseline)) / pooled, where
 * pooled = √((sd_b² + sd_e²) / 2) with population standard deviations (numpy's
 * default `np.std`). 0 when both samples are constant and equal in mean; ±Infinity when
 * they are constant and differ.
 *
 * @example
 * cohensD([0.2, 0.4], [0.5, 0.7]) // 3
 */
export function cohensD(baseline: readonly number[], experiment: readonly number[]): number {
  if (baseline.length === 0 || experiment.length === 0) return 0;
  const mb = mean(baseline);
  const me = mean(experiment);
  const varB = baseline.reduce((s, x) => s + (x - mb) ** 2, 0) / baseline.length;
  const varE = experiment.reduce((s, x) => s + (x - me) ** 2, 0) / experiment.length;
  const pooled = Math.sqrt((varB + varE) / 2);
  if (pooled === 0) return me === mb ? 0 : Math.sign(me - mb) * Number.POSITIVE_INFINITY;
  return (me - mb) / pooled;
}

/** Seed 000's effect-size bands: |d| < 0.5 small, < 0.8 medium, else large. */
export type EffectSize = 'small' | 'medium' | 'large';

/** Result of {@link compareSystems}; mirrors seed 000's `statistical_comparison`. */
export interface SystemComparison {
  tStatistic: number;
  pValue: number;
  isSignificant: boolean;
  cohensD: number;
  effectSize: EffectSize;
  meanImprovement: number;
  /** meanImprovement / mean(baseline) × 100; null when the baseline mean is 0. */
  improvementPct: number | null;
  n: number;
}

/**
 * Is the experiment's per-query metric significantly different from the baseline's on
 * the same queries? Paired t-test + Cohen's d, as in seed 000.
 *
 * @example
 * compareSystems(perQuery('task_only', 'r10'), perQuery('rrf', 'r10'), { alpha: 0.05 }).isSignificant
 */
export function compareSystems(baseline: readonly number[], experiment: readonly number[], options: { alpha?: number } = {}): SystemComparison {
  const { alpha = 0.05 } = options;
  const test = pairedTTest(baseline, experiment);
  const d = cohensD(baseline, experiment);
  const baseMean = baseline.length ? mean(baseline) : 0;
  return {
    tStatistic: test.t,
    pValue: test.pValue,
    isSignificant: test.pValue < alpha,
    cohensD: d,
    effectSize: Math.abs(d) < 0.5 ? 'small' : Math.abs(d) < 0.8 ? 'medium' : 'large',
    meanImprovement: test.meanDiff,
    improvementPct: baseMean === 0 ? null : (test.meanDiff / baseMean) * 100,
    n: test.n,
  };
}
