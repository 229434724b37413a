import type { EvalDatasetMeta } from '@sextant/contracts';
import { METRIC_LABELS, METRIC_NAMES, type MetricSet } from '../metrics';
import { renderBarChartSvg } from './bar-chart.svg';
import type { EvalResults } from './evaluate-runs';

/** Options for {@link renderMarkdownReport}. */
export interface MarkdownReportOptions {
  title?: string;
  /** Dataset provenance shown under the title. */
  meta?: EvalDatasetMeta | null;
  /**
   * Where the overall bar chart goes: 'inline' (an <svg> block in the Markdown; renders in
   * the dashboard and most viewers, not on GitHub), `{ file }` (an image link to an SVG the
   * caller writes next to the report with {@link renderResultsChartSvg}), or 'none'.
   */
  chart?: 'inline' | 'none' | { file: string };
}

const num = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : n > 0 ? '∞' : n < 0 ? '-∞' : 'n/a');
const signed = (n: number) => (Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${n.toFixed(3)}` : num(n));
const pval = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

function metricsTable(rows: Array<{ name: string; set: MetricSet }>): string[] {
  const best = Object.fromEntries(METRIC_NAMES.map((m) => [m, Math.max(...rows.map((r) => r.set[m]))]));
  const lines = [`| strategy | n | ${METRIC_NAMES.map((m) => METRIC_LABELS[m]).join(' | ')} |`, `|---|---:|${METRIC_NAMES.map(() => '---:').join('|')}|`];
  for (const { name, set } of rows) {
    const cells = METRIC_NAMES.map((m) => (rows.length > 1 && set[m] === best[m] && best[m] > 0 ? `**${num(set[m])}**` : num(set[m])));
    lines.push(`| ${name} | ${set.queries} | ${cells.join(' | ')} |`);
  }
  return lines;
}

/**
 * The overall-metrics chart of a results object: one group per metric, one bar per strategy.
 *
 * @example
 * writeFileSync('report/chart.svg', renderResultsChartSvg(results));
 */
export function renderResultsChartSvg(results: EvalResults, title = 'Overall metrics by strategy'): string {
  return renderBarChartSvg({
    title,
    categories: METRIC_NAMES.map((m) => METRIC_LABELS[m]),
    series: results.strategies.map((s) => ({ name: s, values: METRIC_NAMES.map((m) => results.scores[s].overall[m]) })),
    maxValue: 1,
  });
}

/**
 * A Markdown evaluation report: metrics per strategy (best in bold), the same per query
 * type, paired t-tests against the baseline (Δ, p, Cohen's d per metric; * marks p < α),
 * latency p50/p95, and a grouped bar chart of the overall metrics.
 *
 * @example
 * const md = renderMarkdownReport(evaluateRuns({ runFile, queries }), { meta, chart: { file: 'chart.svg' } });
 */
export function renderMarkdownReport(results: EvalResults, options: MarkdownReportOptions = {}): string {
  const { title = 'Sextant evaluation', meta, chart = 'inline' } = options;
  const out: string[] = [`# ${title}`, ''];
  if (meta) {
    out.push(`Dataset: \`${meta.repo}\` at \`${meta.cutoff_sha.slice(0, 12)}\`${meta.cutoff_date ? ` (${meta.cutoff_date})` : ''}.`);
    const counts = Object.entries(meta.counts)
      .filter(([, v]) => typeof v === 'number')
      .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`);
    if (counts.length) out.push(`Counts — ${counts.join(', ')}.`);
    out.push('');
  }
  const first = results.strategies[0];
  if (!first) return [...out, 'The run file has no strategies.', ''].join('\n');
  const typeCounts = Object.entries(results.scores[first].byType).map(([t, set]) => `${set.queries} ${t}`);
  out.push(`${results.scores[first].overall.queries} queries${typeCounts.length ? ` (${typeCounts.join(', ')})` : ''}; binary relevance, means over queries.`, '');

  out.push('## Overall', '');
  out.push(...metricsTable(results.strategies.map((s) => ({ name: s, set: results.scores[s].overall }))), '');
  if (chart === 'inline') out.push(renderResultsChartSvg(results), '');
  else if (chart !== 'none') out.push(`![Overall metrics by strategy](${chart.file})`, '');

  out.push('## By query type', '');
  for (const type of results.types) {
    out.push(`### ${type}`, '');
    const rows = results.strategies.filter((s) => results.scores[s].byType[type]).map((s) => ({ name: s, set: results.scores[s].byType[type] }));
    out.push(...metricsTable(rows), '');
  }

  out.push(`## Significance vs ${results.baseline ?? 'baseline'}`, '');
  if (!results.baseline) out.push('No baseline strategy in the run file; significance tests skipped.', '');
  else if (Object.keys(results.significance).length === 0) out.push('Only the baseline was run.', '');
  else {
    out.push(`Paired two-sided t-test over the same queries; Δ = strategy − ${results.baseline}; d = Cohen's d; * = p < ${results.alpha}.`, '');
    out.push(`| strategy | ${METRIC_NAMES.map((m) => METRIC_LABELS[m]).join(' | ')} |`, `|---|${METRIC_NAMES.map(() => '---').join('|')}|`);
    for (const [s, byMetric] of Object.entries(results.significance)) {
      const cells = METRIC_NAMES.map((m) => {
        const c = byMetric[m];
        return `${signed(c.meanImprovement)} (p ${pval(c.pValue)}${c.isSignificant ? '*' : ''}, d ${num(c.cohensD)})`;
      });
      out.push(`| ${s} | ${cells.join(' | ')} |`);
    }
    out.push('');
  }

  out.push('## Latency', '');
  const latencyRows = results.strategies.filter((s) => results.latency[s]);
  if (latencyRows.length === 0) out.push('The run file has no latency figures.', '');
  else {
    out.push('| strategy | n | p50 (ms) | p95 (ms) | mean (ms) | max (ms) |', '|---|---:|---:|---:|---:|---:|');
    for (const s of latencyRows) {
      const l = results.latency[s];
      out.push(`| ${s} | ${l.n} | ${ms(l.p50)} | ${ms(l.p95)} | ${ms(l.mean)} | ${ms(l.max)} |`);
    }
    out.push('');
  }

  const notes = results.strategies.filter((s) => results.scores[s].unanswered.length > 0).map((s) => `- ${s}: ${results.scores[s].unanswered.length} unanswered queries, scored as empty lists.`);
  const skipped = results.scores[first].skipped.length;
  if (skipped) notes.push(`- ${skipped} queries without relevant files were skipped.`);
  if (notes.length) out.push('## Notes', '', ...notes, '');
  return out.join('\n');
}
