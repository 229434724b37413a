import type { EvalDatasetMeta, EvalQuery, EvalRunFile } from '@sextant/contracts';
import { evaluateRuns, renderMarkdownReport, renderResultsChartSvg, type EvalResults } from '@sextant/eval';
import { BASELINE_LEGS, BASELINE_STRATEGY, EVAL_STRATEGIES, RAW_BASELINE_STRATEGY } from './eval-strategies';
import type { EvalReportDraft } from './eval-reports.service';
import { renderOverlapMarkdown, summarizeSourceOverlap, type OverlapSummary } from './source-overlap.summary';

/** Everything `sextant eval run` prints and writes, computed from one run file. */
export interface EvaluationReport {
  results: EvalResults;
  overlap: OverlapSummary | null;
  /** The full Markdown report. */
  markdown: string;
  /** The overall-metrics bar chart. */
  chartSvg: string;
}

/** Options for {@link buildEvaluationReport}. */
export interface EvaluationReportOptions {
  runFile: EvalRunFile;
  queries: readonly EvalQuery[];
  meta?: EvalDatasetMeta | null;
  /** The fused strategy the overlap metrics use (Sextant's default). */
  fused: string;
  title?: string;
  /** Where the chart goes: an image link to this file name, inline, or nowhere (console). */
  chart?: 'inline' | 'none' | { file: string };
  /** Lines added under the title (setup facts: embedder, index counts, top_k). */
  notes?: readonly string[];
}

/**
 * Scores a run file with `@sextant/eval` (metrics overall and per type, paired t-test and
 * Cohen's d against task_only, latency) and adds seed 000's complementarity and coverage
 * improvement plus a legend of how each strategy was run.
 *
 * @example
 * const { markdown, chartSvg } = buildEvaluationReport({ runFile, queries, meta, fused: 'rrf', chart: { file: 'report.svg' } });
 */
export function buildEvaluationReport(options: EvaluationReportOptions): EvaluationReport {
  const { runFile, queries, meta, fused, title = 'Sextant evaluation', chart = 'inline', notes = [] } = options;
  // Significance is against the plain BM25 + RRF baseline when it ran (the bar the product must clear), else task_only.
  const results = evaluateRuns({ runFile, queries, baseline: runFile.runs[BASELINE_STRATEGY] ? BASELINE_STRATEGY : 'task_only' });
  const overlap = summarizeSourceOverlap({ runFile, queries, fused });
  const base = renderMarkdownReport(results, { title, meta, chart });
  const legend = ['## Strategies', '', `Default (fused) strategy: **${fused}**.`, ''];
  for (const name of results.strategies) {
    const spec = EVAL_STRATEGIES.find((s) => s.name === name);
    if (spec) legend.push(`- \`${name}\`: ${spec.description}${spec.weights ? ` — weights ${Object.entries(spec.weights).map(([k, v]) => `${k}=${Number(v).toFixed(3)}`).join(', ')}` : ''}`);
    else if (name === BASELINE_STRATEGY) legend.push(`- \`${name}\`: plain baseline — RRF (k = 60) of ${BASELINE_LEGS.files} and ${BASELINE_LEGS.tasks}, each 100 deep`);
    else if (name === BASELINE_LEGS.files) legend.push(`- \`${name}\`: baseline leg — SQLite FTS5 bm25() over whole files (one row per file), OR of the query's terms, shared tokenizer`);
    else if (name === BASELINE_LEGS.tasks) legend.push(`- \`${name}\`: baseline leg — FTS5 bm25() over past tasks' title + body, the matched tasks' files in order of first appearance`);
    else if (name === RAW_BASELINE_STRATEGY) legend.push(`- \`${name}\`: ${BASELINE_STRATEGY} taken literally — FTS5's own unicode61 tokenizer over the raw text of files and tasks (no identifier splitting, no stop words, path not searched); weaker, for reference only`);
  }
  const head = base.split('\n## Overall');
  const intro = notes.length ? `${notes.map((n) => `- ${n}`).join('\n')}\n\n` : '';
  const markdown = `${head[0]}${intro}${legend.join('\n')}\n\n## Overall${head.slice(1).join('\n## Overall')}\n${renderOverlapMarkdown(overlap)}`;
  return { results, overlap, markdown, chartSvg: renderResultsChartSvg(results) };
}

const finiteOrNull = (x: number | null | undefined): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

/**
 * The part of a report `eval run --publish` stores for the dashboard: overall scores per
 * strategy, R@10 against the baseline with its p-value, median latency, and the chart.
 */
export function publishableReport(report: EvaluationReport, options: { title: string; meta?: EvalDatasetMeta | null; fused: string; queries: number }): EvalReportDraft {
  const { results } = report;
  return {
    title: options.title,
    repo: options.meta?.repo ?? null,
    cutoff_date: options.meta?.cutoff_date ?? null,
    queries: options.queries,
    baseline: results.baseline,
    default_strategy: options.fused,
    strategies: results.strategies.map((name) => {
      const o = results.scores[name].overall;
      const r10 = results.significance[name]?.r10;
      return {
        name,
        queries: o.queries,
        p5: o.p5,
        p10: o.p10,
        r5: o.r5,
        r10: o.r10,
        mrr: o.mrr,
        ndcg10: o.ndcg10,
        acc1: o.acc1,
        acc5: o.acc5,
        r10_delta: r10 ? finiteOrNull(r10.meanImprovement) : null,
        r10_p_value: r10 ? finiteOrNull(r10.pValue) : null,
        latency_p50_ms: finiteOrNull(results.latency[name]?.p50),
      };
    }),
    chart_svg: report.chartSvg,
  };
}
