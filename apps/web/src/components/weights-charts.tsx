import type { WeightsResponse, WeightsVersion } from '@sextant/contracts';
import { sourceClass, sourceLabel } from './source-badges';

type ClassWeights = WeightsResponse['classes'][number];

const normalise = (w: Record<string, number>) => {
  const sum = Object.values(w).reduce((a, b) => a + b, 0) || 1;
  return Object.fromEntries(Object.entries(w).map(([k, v]) => [k, v / sum]));
};

/** Current normalised weight per source as bars, with a tick where decay pulls it (the prior). */
export function CurrentWeightsChart({ cls }: { cls: ClassWeights }) {
  const current = cls.current.normalised;
  const prior = normalise(cls.prior);
  const sources = Object.keys({ ...current, ...prior }).sort();
  const max = Math.max(0.01, ...sources.map((s) => Math.max(current[s] ?? 0, prior[s] ?? 0)));
  const rowH = 26;
  const labelW = 104;
  const width = 420;
  const barW = width - labelW - 56;
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${sources.length * rowH + 8}`} role="img" aria-label={`current ${cls.query_class} weights: ${sources.map((s) => `${sourceLabel(s)} ${Math.round((current[s] ?? 0) * 100)}%`).join(', ')}`}>
      {sources.map((s, i) => {
        const y = i * rowH + 4;
        const v = current[s] ?? 0;
        const p = prior[s] ?? 0;
        return (
          <g key={s}>
            <text x={labelW - 8} y={y + 15} textAnchor="end" className="chart-label">
              {sourceLabel(s)}
            </text>
            <rect x={labelW} y={y + 3} width={barW} height={rowH - 10} className="chart-track" rx={3} />
            <rect x={labelW} y={y + 3} width={(v / max) * barW} height={rowH - 10} className={`chart-bar ${sourceClass(s)}`} rx={3} />
            <line x1={labelW + (p / max) * barW} x2={labelW + (p / max) * barW} y1={y} y2={y + rowH - 4} className="chart-prior" />
            <text x={labelW + barW + 6} y={y + 15} className="chart-value">
              {Math.round(v * 100)} %
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Each source's normalised weight across versions (oldest left), one line per source. */
export function WeightsHistoryChart({ history, queryClass }: { history: WeightsVersion[]; queryClass: string }) {
  if (history.length < 2) return <p className="muted small">No changes yet: the weights move as teammates rate results.</p>;
  const width = 420;
  const height = 160;
  const pad = { l: 36, r: 8, t: 8, b: 22 };
  const sources = [...new Set(history.flatMap((h) => Object.keys(h.normalised)))].sort();
  // The axis spans the data (at least 10 points): learning moves weights by small steps that a 0–100 % axis would flatten.
  const values = history.flatMap((h) => sources.map((s) => h.normalised[s] ?? 0));
  const mid = (Math.max(...values) + Math.min(...values)) / 2;
  const half = Math.max(0.05, (Math.max(...values) - Math.min(...values)) / 2 + 0.01);
  const lo = Math.max(0, mid - half);
  const hi = lo + 2 * half;
  const x = (i: number) => pad.l + (i / (history.length - 1)) * (width - pad.l - pad.r);
  const y = (v: number) => pad.t + (1 - (v - lo) / (hi - lo)) * (height - pad.t - pad.b);
  const ticks = [lo, (lo + hi) / 2, hi];
  return (
    <figure className="chart-figure">
      <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${queryClass} weights over ${history.length} versions`}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={pad.l} x2={width - pad.r} y1={y(t)} y2={y(t)} className="chart-grid" />
            <text x={pad.l - 4} y={y(t) + 4} textAnchor="end" className="chart-axis">
              {(t * 100).toFixed(hi - lo < 0.2 ? 1 : 0)}%
            </text>
          </g>
        ))}
        <text x={pad.l} y={height - 6} className="chart-axis">
          v{history[0].version}
        </text>
        <text x={width - pad.r} y={height - 6} textAnchor="end" className="chart-axis">
          v{history[history.length - 1].version}
        </text>
        {sources.map((s) => (
          <polyline key={s} className={`chart-line ${sourceClass(s)}`} points={history.map((h, i) => `${x(i).toFixed(1)},${y(h.normalised[s] ?? 0).toFixed(1)}`).join(' ')} />
        ))}
      </svg>
      <figcaption className="legend">
        {sources.map((s) => (
          <span key={s} className="legend-item">
            <span className={`legend-swatch ${sourceClass(s)}`} /> {sourceLabel(s)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** Ratings per day, positive up and negative down. */
export function RatingsChart({ byDay }: { byDay: WeightsResponse['ratings']['by_day'] }) {
  if (byDay.length === 0) return <p className="muted small">No ratings yet.</p>;
  const width = 420;
  const height = 132;
  const mid = 60;
  const max = Math.max(1, ...byDay.map((d) => Math.max(d.positive, d.negative)));
  const bw = Math.min(24, (width - 20) / byDay.length - 2);
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`ratings per day: ${byDay.map((d) => `${d.day} +${d.positive} −${d.negative}`).join(', ')}`}>
      <line x1={0} x2={width} y1={mid} y2={mid} className="chart-grid" />
      {byDay.map((d, i) => {
        const x = 10 + i * (bw + 2);
        const up = (d.positive / max) * (mid - 8);
        const down = (d.negative / max) * (mid - 8);
        return (
          <g key={d.day}>
            <title>{`${d.day}: ${d.positive} helpful, ${d.negative} not relevant, ${d.neutral} neutral`}</title>
            <rect x={x} y={mid - up} width={bw} height={up} className="chart-pos" />
            <rect x={x} y={mid} width={bw} height={down} className="chart-neg" />
          </g>
        );
      })}
      <text x={10} y={height - 2} className="chart-axis">
        {byDay[0].day}
      </text>
      {byDay.length > 1 && (
        <text x={10 + (byDay.length - 1) * (bw + 2) + bw} y={height - 2} textAnchor="end" className="chart-axis">
          {byDay[byDay.length - 1].day}
        </text>
      )}
      <text x={width - 4} y={14} textAnchor="end" className="chart-axis">
        ▲ helpful
      </text>
      <text x={width - 4} y={mid + 16} textAnchor="end" className="chart-axis">
        ▼ not relevant
      </text>
    </svg>
  );
}
