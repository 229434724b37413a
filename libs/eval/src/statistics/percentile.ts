/**
 * The p-th percentile (0-100) with linear interpolation between closest ranks (numpy's
 * default): index = (n - 1) · p / 100. NaN for an empty sample.
 *
 * @example
 * percentile([10, 20, 30, 40], 50) // 25
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(index);
  const hi = Math.ceil(index);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (index - lo);
}

/** Latency figures for a report. */
export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

/**
 * p50/p95/mean/max of a latency sample in ms (NaN fields for an empty sample).
 *
 * @example
 * latencySummary(Object.values(runFile.latency_ms?.rrf ?? {})).p95
 */
export function latencySummary(values: readonly number[]): LatencySummary {
  const finite = values.filter((v) => Number.isFinite(v));
  return {
    n: finite.length,
    p50: percentile(finite, 50),
    p95: percentile(finite, 95),
    mean: finite.length ? finite.reduce((s, v) => s + v, 0) / finite.length : Number.NaN,
    max: finite.length ? Math.max(...finite) : Number.NaN,
  };
}
