import type { EvalQuery, EvalRunFile } from '@sextant/contracts';
import { METRIC_NAMES, scoreRun, type MetricName, type RunScore } from '../metrics';
import { compareSystems, latencySummary, type LatencySummary, type SystemComparison } from '../statistics';

/** Options for {@link evaluateRuns}. */
export interface EvaluateRunsOptions {
  runFile: EvalRunFile;
  queries: readonly EvalQuery[];
  /** Strategy the others are tested against (default 'task_only', the seed's baseline). */
  baseline?: string;
  /** Significance level of the paired t-tests (default 0.05). */
  alpha?: number;
}

/** Everything a report needs, computed once. */
export interface EvalResults {
  /** Strategies in run-file order. */
  strategies: string[];
  /** The baseline, or null when the run file has no such strategy. */
  baseline: string | null;
  alpha: number;
  /** Query types present, sorted. */
  types: string[];
  scores: Record<string, RunScore>;
  /** Per non-baseline strategy and metric: paired t-test + Cohen's d against the baseline over the same queries. */
  significance: Record<string, Record<MetricName, SystemComparison>>;
  /** Latency per strategy that reported any. */
  latency: Record<string, LatencySummary>;
}

/**
 * Scores every strategy of a run file, tests each against the baseline (per metric,
 * paired over queries) and summarises latency.
 *
 * @example
 * const results = evaluateRuns({ runFile: await readRunFile('out.json'), queries });
 * results.significance.rrf.r10.pValue
 */
export function evaluateRuns(options: EvaluateRunsOptions): EvalResults {
  const { runFile, queries, baseline = 'task_only', alpha = 0.05 } = options;
  const strategies = Object.keys(runFile.runs);
  const scores: Record<string, RunScore> = {};
  for (const s of strategies) scores[s] = scoreRun(runFile.runs[s], queries);
  const hasBaseline = strategies.includes(baseline);
  const significance: EvalResults['significance'] = {};
  if (hasBaseline) {
    const base = scores[baseline].perQuery;
    for (const s of strategies) {
      if (s === baseline) continue;
      const exp = scores[s].perQuery;
      significance[s] = {} as Record<MetricName, SystemComparison>;
      for (const m of METRIC_NAMES) significance[s][m] = compareSystems(base.map((q) => q.metrics[m]), exp.map((q) => q.metrics[m]), { alpha });
    }
  }
  const latency: Record<string, LatencySummary> = {};
  for (const [s, perQuery] of Object.entries(runFile.latency_ms ?? {})) latency[s] = latencySummary(Object.values(perQuery));
  const types = [...new Set(strategies.flatMap((s) => Object.keys(scores[s].byType)))].sort();
  return { strategies, baseline: hasBaseline ? baseline : null, alpha, types, scores, significance, latency };
}
