import type { RankerStatus } from '@sextant/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, errorText, isNotFound } from '../api/client';
import { queryKeys } from '../api/queries';

const STATE_LABEL: Record<RankerStatus['state'], string> = {
  active: 'active: it orders default searches',
  rejected: 'not used: the last fit did not beat plain fusion',
  none: 'not trained yet',
};

/**
 * The workspace's learned ranker (GET /v1/ranker): whether it orders default searches, what it
 * was fitted on (past tasks and rated searches), how it did against plain fusion on the held-out
 * past tasks, and the features it leans on. Refreshed every 30 s: imports and ratings refit it.
 */
export function RankerCard() {
  const status = useQuery({ queryKey: queryKeys.ranker, queryFn: () => api<RankerStatus>('/v1/ranker'), refetchInterval: 30_000, retry: (n, err) => !isNotFound(err) && n < 2 });
  if (status.isPending) return <p className="muted">Loading…</p>;
  if (status.error) return isNotFound(status.error) ? <p className="notice">This server has no learned ranker (GET /v1/ranker); update Sextant to see it.</p> : <p className="text-error">{errorText(status.error)}</p>;
  const s = status.data;
  const v = s.validation;
  const leans = s.top_weights.filter((w) => w.weight !== 0);
  return (
    <div className="card" data-testid="ranker-card" data-state={s.state}>
      <h3>
        Model{' '}
        <span className="muted small">
          {STATE_LABEL[s.state]}
          {s.model_version !== null && ` · model v${s.model_version}`}
          {s.trained_at && ` · fitted ${new Date(s.trained_at).toLocaleString()}`}
        </span>
      </h3>
      <p className="small">{s.message}</p>
      <p className="muted small" data-testid="ranker-training">
        History: {s.history_tasks} past tasks{s.trained_on_tasks !== null && ` (${s.trained_on_tasks} when fitted)`} · trained on {s.examples} past tasks asked as queries and {s.rated_searches} rated searches
      </p>
      {v && (
        <div className="table-scroll">
          <table className="eval-table" data-testid="ranker-validation">
            <caption className="muted small">On the newest {v.queries} past tasks, held out</caption>
            <thead>
              <tr>
                <th scope="col">order</th>
                <th scope="col" className="num">
                  MRR
                </th>
                <th scope="col" className="num">
                  R@10
                </th>
              </tr>
            </thead>
            <tbody>
              <tr data-order="ranker">
                <th scope="row">learned ranker</th>
                <td className="num">{v.ranker.mrr.toFixed(3)}</td>
                <td className="num">{v.ranker.r10.toFixed(3)}</td>
              </tr>
              <tr data-order="fusion">
                <th scope="row">plain fusion</th>
                <td className="num">{v.fusion.mrr.toFixed(3)}</td>
                <td className="num">{v.fusion.r10.toFixed(3)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      )}
      {leans.length > 0 && (
        <p className="muted small" data-testid="ranker-weights">
          Leans on: {leans.map((w) => `${w.feature} ${w.weight >= 0 ? '+' : ''}${w.weight.toFixed(2)}`).join(' · ')}
        </p>
      )}
    </div>
  );
}
