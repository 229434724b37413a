import type { EvalQuery } from '@sextant/contracts';
import { evaluateRuns, renderBarChartSvg, renderMarkdownReport } from './index';

const queries: EvalQuery[] = [
  { id: 'q1', query: 'fix parseToken', relevant: ['a'], type: 'specific' },
  { id: 'q2', query: 'SessionStore leaks', relevant: ['a'], type: 'specific' },
  { id: 'q3', query: 'how are sessions stored', relevant: ['a'], type: 'conceptual' },
  { id: 'q4', query: 'rate limiting', relevant: ['a'], type: 'conceptual' },
];
const runFile = {
  runs: {
    task_only: { q1: ['x', 'a'], q2: ['a'], q3: ['x'], q4: [] },
    rrf: { q1: ['a'], q2: ['a'], q3: ['a'], q4: ['x', 'a'] },
  },
  latency_ms: { rrf: { q1: 10, q2: 20, q3: 30, q4: 40 } },
};

describe('evaluateRuns + renderMarkdownReport', () => {
  // MRR: task_only = (0.5 + 1 + 0 + 0)/4 = 0.375; rrf = (1 + 1 + 1 + 0.5)/4 = 0.875.
  // Paired differences [0.5, 0, 1, 0.5]: mean 0.5, sd 0.408, t = 2.449 with 3 df -> p ≈ 0.092, not significant.
  const results = evaluateRuns({ runFile, queries });

  it('scores each strategy and tests it against task_only', () => {
    expect(results.scores.task_only.overall.mrr).toBeCloseTo(0.375, 12);
    expect(results.scores.rrf.overall.mrr).toBeCloseTo(0.875, 12);
    expect(results.significance.rrf.mrr.meanImprovement).toBeCloseTo(0.5, 12);
    expect(results.significance.rrf.mrr.tStatistic).toBeCloseTo(0.5 / (Math.sqrt(0.5 / 3) / 2), 10);
    expect(results.significance.rrf.mrr.pValue).toBeGreaterThan(0.05);
    expect(results.significance.rrf.mrr.pValue).toBeLessThan(0.1);
    expect(results.latency.rrf).toMatchObject({ p50: 25, p95: 38.5 });
    expect(results.significance.task_only).toBeUndefined();
  });

  it('renders tables per strategy and query type, significance, latency and a chart', () => {
    const md = renderMarkdownReport(results, { title: 'Demo' });
    expect(md).toMatch(/^# Demo\n/);
    expect(md).toContain('4 queries (2 conceptual, 2 specific)');
    expect(md).toContain('| strategy | n | P@5 | P@10 | R@5 | R@10 | MRR | NDCG@10 |');
    // task_only: P@5 = (1+1)/5/4 = 0.1, R@5 = 2/4 = 0.5; rrf: P@5 = 4/5/4 = 0.2, R@5 = 1, best in bold
    expect(md).toContain('| task_only | 4 | 0.100 | 0.050 | 0.500 | 0.500 | 0.375 |');
    expect(md).toContain('| rrf | 4 | **0.200** | **0.100** | **1.000** | **1.000** | **0.875** |');
    expect(md).toContain('### conceptual');
    // conceptual: task_only MRR = 0, rrf MRR = (1 + 0.5)/2 = 0.75
    expect(md).toMatch(/### conceptual[\s\S]*\| rrf \| 2 \| [^\n]*\*\*0\.750\*\*/);
    expect(md).toContain('## Significance vs task_only');
    expect(md).toMatch(/\| rrf \| .*\+0\.500 \(p 0\.0\d\d, d /);
    expect(md).not.toMatch(/\+0\.500 \(p 0\.0\d\d\*/);
    expect(md).toContain('| rrf | 4 | 25.0 | 38.5 | 25.0 | 40.0 |');
    expect(md).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(renderMarkdownReport(results, { chart: { file: 'chart.svg' } })).toContain('![Overall metrics by strategy](chart.svg)');
  });

  it('says so when the baseline or latency is missing', () => {
    const md = renderMarkdownReport(evaluateRuns({ runFile: { runs: { rrf: runFile.runs.rrf } }, queries }));
    expect(md).toContain('No baseline strategy in the run file');
    expect(md).toContain('The run file has no latency figures.');
  });
});

describe('renderBarChartSvg', () => {
  it('draws one bar per series and category with escaped labels and a legend', () => {
    const svg = renderBarChartSvg({
      title: 'R&D <metrics>',
      categories: ['P@5', 'MRR'],
      series: [
        { name: 'task_only', values: [0.2, 0.5] },
        { name: 'rrf', values: [0.4, 1] },
      ],
      maxValue: 1,
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('R&amp;D &lt;metrics&gt;');
    expect(svg.match(/<title>/g)).toHaveLength(4);
    expect(svg).toContain('<title>rrf · MRR: 1.000</title>');
    expect(svg).toMatch(/>task_only<\/text>/);
    // A full-height bar (value 1 of max 1) is 240 px tall; the 0.5 bar half of that.
    expect(svg).toMatch(/height="240"[^>]*><title>rrf · MRR/);
    expect(svg).toMatch(/height="120"[^>]*><title>task_only · MRR/);
  });

  it('rejects a series with the wrong number of values', () => {
    expect(() => renderBarChartSvg({ categories: ['a', 'b'], series: [{ name: 's', values: [1] }] })).toThrow(/"s" has 1 values for 2 categories/);
  });
});
