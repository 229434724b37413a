import type { WeightsResponse } from '@sextant/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, errorText, isNotFound } from '../api/client';
import { queryKeys } from '../api/queries';
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
      <h2>Evaluation</h2>
      <div className="card notice" data-testid="eval-placeholder">
        <p>
          The API does not serve evaluation reports yet. Run <code>npx sextant eval run --dataset &lt;dir&gt; --report eval/report.md</code> (see <code>docs/evaluation.md</code>): it writes
          the report in Markdown with its bar chart beside it as <code>report.svg</code> (P@5/10, R@5/10, MRR, NDCG@10 per strategy, significance vs. task-only,
          latency). The charts will appear here once the API serves reports.
        </p>
      </div>
    </section>
  );
}
