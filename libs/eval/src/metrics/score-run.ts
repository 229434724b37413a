import type { EvalQuery } from '@sextant/contracts';
import { accuracyAtK, ndcgAtK, precisionAtK, recallAtK, reciprocalRank } from './ranking-metrics';

/** The metrics every report shows, in display order. */
export const METRIC_NAMES = ['p5', 'p10', 'r5', 'r10', 'mrr', 'ndcg10', 'acc1', 'acc5'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** Display labels: `p5` -> `P@5`. */
export const METRIC_LABELS: Readonly<Record<MetricName, string>> = { p5: 'P@5', p10: 'P@10', r5: 'R@5', r10: 'R@10', mrr: 'MRR', ndcg10: 'NDCG@10', acc1: 'Acc@1', acc5: 'Acc@5' };

/** Mean metrics over a group of queries, with how many queries the means cover. */
export type MetricSet = Record<MetricName, number> & { queries: number };

/** One query's metrics. */
export interface QueryScore {
  id: string;
  type: string;
  /** False when the run had no list for this query (scored as an empty list). */
  answered: boolean;
  metrics: Record<MetricName, number>;
}

/** Result of {@link scoreRun}. */
export interface RunScore {
  overall: MetricSet;
  byType: Record<string, MetricSet>;
  perQuery: QueryScore[];
  /** Query ids the run has no list for (they score 0 and still count). */
  unanswered: string[];
  /** Query ids skipped because they have no relevant files. */
  skipped: string[];
}

/** All metrics of one ranked list against one set of relevant files. */
export function scoreRanking(ranked: readonly string[], relevant: Iterable<string>): Record<MetricName, number> {
  const rel = new Set(relevant);
  return {
    p5: precisionAtK(ranked, rel, 5),
    p10: precisionAtK(ranked, rel, 10),
    r5: recallAtK(ranked, rel, 5),
    r10: recallAtK(ranked, rel, 10),
    mrr: reciprocalRank(ranked, rel),
    ndcg10: ndcgAtK(ranked, rel, 10),
    acc1: accuracyAtK(ranked, rel, 1),
    acc5: accuracyAtK(ranked, rel, 5),
  };
}

/** Mean of per-query metrics (all zeros for an empty group). */
export function meanMetrics(scores: ReadonlyArray<Record<MetricName, number>>): MetricSet {
  const out = { queries: scores.length } as MetricSet;
  for (const m of METRIC_NAMES) out[m] = scores.length === 0 ? 0 : scores.reduce((s, q) => s + q[m], 0) / scores.length;
  return out;
}

/**
 * Scores one strategy's run (query id -> ranked file list, best first) against the
 * dataset's queries: P@5, P@10, R@5, R@10, MRR, NDCG@10 and Acc@1/Acc@5 (all relevant files in the top k) with binary relevance, as
 * means over queries, overall and per query `type`. A query the run did not answer
 * counts as an empty list (so a run cannot improve by skipping hard queries); queries
 * without relevant files are skipped and listed.
 *
 * @example
 * const { overall, byType } = scoreRun(runFile.runs.rrf, queries);
 * overall.mrr; byType.specific?.ndcg10;
 */
export function scoreRun(run: Readonly<Record<string, readonly string[]>>, queries: readonly EvalQuery[]): RunScore {
  const perQuery: QueryScore[] = [];
  const unanswered: string[] = [];
  const skipped: string[] = [];
  for (const q of queries) {
    if (q.relevant.length === 0) {
      skipped.push(q.id);
      continue;
    }
    const answered = Object.prototype.hasOwnProperty.call(run, q.id);
    if (!answered) unanswered.push(q.id);
    perQuery.push({ id: q.id, type: q.type, answered, metrics: scoreRanking(answered ? run[q.id] : [], q.relevant) });
  }
  const types = [...new Set(perQuery.map((q) => q.type))].sort();
  const byType: Record<string, MetricSet> = {};
  for (const t of types) byType[t] = meanMetrics(perQuery.filter((q) => q.type === t).map((q) => q.metrics));
  return { overall: meanMetrics(perQuery.map((q) => q.metrics)), byType, perQuery, unanswered, skipped };
}
