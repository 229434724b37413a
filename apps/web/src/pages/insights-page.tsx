import type { EvalReport, WeightsResponse } from '@sextant/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, errorText, isNotFound } from '../api/client';
import { queryKeys } from '../api/queries';
import { RankerCard } from '../components/ranker-card';
import { CurrentWeightsChart, RatingsChart, WeightsHistoryChart } from '../components/weights-charts';
import { useRealtime } from '../realtime/realtime-provider';

export function InsightsPage() {
  const { lastWeights } = useRealtime();
  const weights = useQuery({ queryKey: queryKeys.weights, queryFn: () => api<WeightsResponse>('/v1/weights?history_limit=200'), retry: (n, err) => !isNotFound(err) && n < 2 });
  return (
    <section className="page" aria-labelledby="insights-title">
      <h1 id="insights-title">Insights</h1>
      <h2>Fusion weights</h2>
      <p className="muted small">
        How much each source counts in the fused ranking, per query class. Ratings move them (the tick marks where decay pulls back to); updates arrive live.
        {lastWeights && ` Last update: ${lastWeights.query_class} v${lastWeights.version} (${lastWeights.origin}).`}
      </p>
      {weights.isPending && <p className="muted">Loading…</p>}
      {weights.error && (isNotFound(weights.error) ? <p className="notice">This server has no weights API yet (GET /v1/weights); update Sextant to see the learned weights.</p> : <p className="text-error">{errorText(weights.error)}</p>)}
      {weights.data && (
        <>
          <div className="two-col">
            {weights.data.classes.map((c) => (
              <div className="card" key={c.query_class} data-query-class={c.query_class}>
                <h3>
                  {c.query_class} queries <span className="muted small">v{c.current.version} · {c.current.origin}
                  {c.current.pinned ? ' · pinned' : ''}</span>
                </h3>
                <CurrentWeightsChart cls={c} />
                <h4>Over time</h4>
                <WeightsHistoryChart history={c.history} queryClass={c.query_class} />
              </div>
            ))}
          </div>
          <div className="card">
            <h3>
              Ratings <span className="muted small">{weights.data.ratings.total} in the last 30 days · {weights.data.ratings.positive} helpful · {weights.data.ratings.negative} not relevant</span>
            </h3>
            <RatingsChart byDay={weights.data.ratings.by_day} />
          </div>
        </>
      )}
      <h2>Learned ranker</h2>
      <p className="muted small">Fitted on the workspace's own history and on rated searches; it orders default searches when it beats plain fusion on past tasks held out from its training.</p>
      <RankerCard />
      <h2>Evaluation</h2>
      <EvaluationReportCard />
    </section>
  );
}

const METRICS = [
  ['r10', 'R@10'],
  ['mrr', 'MRR'],
  ['ndcg10', 'NDCG@10'],
  ['p5', 'P@5'],
] as const;

/** The newest report `sextant eval run --publish` stored for this workspace: scores per strategy and the bar chart. */
function EvaluationReportCard() {
  const report = useQuery({ queryKey: ['eval-report', 'latest'], queryFn: () => api<EvalReport>('/v1/eval/reports/latest'), retry: (n, err) => !isNotFound(err) && n < 2 });
  if (report.isPending) return <p className="muted">Loading…</p>;
  if (report.error) {
    if (!isNotFound(report.error)) return <p className="text-error">{errorText(report.error)}</p>;
    return (
      <div className="card notice" data-testid="eval-placeholder">
        <p>
          No evaluation report has been published to this workspace. Run <code>npx sextant eval run --dataset &lt;dir&gt; --publish</code> (see <code>docs/evaluation.md</code>) with
          this server's data directory or database: the scores per strategy (P@5, R@10, MRR, NDCG@10, significance vs. task-only, latency) and the chart appear here.
        </p>
      </div>
    );
  }
  const r = report.data;
  const best = Object.fromEntries(METRICS.map(([m]) => [m, Math.max(...r.strategies.map((s) => s[m]))]));
  return (
    <div className="card" data-testid="eval-report">
      <h3>{r.title}</h3>
      <p className="muted small">
        {r.queries} queries{r.cutoff_date ? `, history up to ${r.cutoff_date.slice(0, 10)}` : ''} · published {new Date(r.created_at).toLocaleString()} by {r.published_by} · default strategy <strong>{r.default_strategy}</strong>
        {r.baseline ? `, ΔR@10 and p against ${r.baseline}` : ''}
      </p>
      <div className="table-scroll">
        <table className="eval-table">
          <thead>
            <tr>
              <th scope="col">strategy</th>
              {METRICS.map(([m, label]) => (
                <th key={m} scope="col" className="num">
                  {label}
                </th>
              ))}
              <th scope="col" className="num">
                ΔR@10
              </th>
              <th scope="col" className="num">
                p50 ms
              </th>
            </tr>
          </thead>
          <tbody>
            {r.strategies.map((s) => (
              <tr key={s.name} data-strategy={s.name} className={s.name === r.default_strategy ? 'is-default' : undefined}>
                <th scope="row">{s.name}</th>
                {METRICS.map(([m]) => (
                  <td key={m} className="num">
                    {s[m] === best[m] ? <strong>{s[m].toFixed(3)}</strong> : s[m].toFixed(3)}
                  </td>
                ))}
                <td className="num">{s.r10_delta === null ? '—' : `${s.r10_delta >= 0 ? '+' : ''}${s.r10_delta.toFixed(3)}${s.r10_p_value !== null && s.r10_p_value < 0.05 ? '*' : ''}`}</td>
                <td className="num">{s.latency_p50_ms === null ? '—' : s.latency_p50_ms.toFixed(1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* An <img> never runs script inside the SVG, whoever published it. */}
      <img className="eval-chart" alt={`Overall metrics by strategy for ${r.title}`} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(r.chart_svg)}`} />
    </div>
  );
}
