import type { SearchResult } from '@sextant/contracts';

const LABELS: Record<string, string> = {
  'file.dense': 'semantic',
  'file.keyword': 'keyword',
  'file.symbol': 'symbol',
  'task.dense': 'task·semantic',
  'task.keyword': 'task·keyword',
  'file.graph': 'graph',
};

export const sourceLabel = (s: string) => LABELS[s] ?? s;
export const sourceClass = (s: string) => `src-${s.replace(/[^a-z]/g, '-')}`;

/** One badge per source that ranked the result: its rank there and its share of the fused score. */
export function SourceBadges({ sources }: { sources: SearchResult['explain']['sources'] }) {
  return (
    <ul className="badges" aria-label="sources">
      {sources.map((s) => (
        <li key={s.source} className={`badge ${sourceClass(s.source)}`} title={`${s.source}: rank ${s.rank}, score ${s.score.toFixed(3)}, ${Math.round(s.share * 100)} % of the fused score`}>
          {sourceLabel(s.source)} <span className="badge-rank">#{s.rank}</span>
        </li>
      ))}
    </ul>
  );
}

/** The score breakdown as a stacked bar (each source's share) plus the prior. */
export function ScoreBreakdown({ result, weak = false }: { result: SearchResult; weak?: boolean }) {
  const { sources, prior, score_before_prior, prior_applied } = result.explain;
  // Rank fusions weighed each source's own score by the prior before fusing; the fused score already holds it.
  const formula = prior_applied === 'sources' ? `score ${result.score.toFixed(3)}, prior ${prior.toFixed(2)} on each source's score before fusion` : `score ${result.score.toFixed(3)} = ${score_before_prior.toFixed(3)} × prior ${prior.toFixed(2)}`;
  const total = sources.reduce((a, s) => a + Math.max(0, s.share), 0) || 1;
  return (
    <div className="breakdown">
      <div className="breakdown-bar" role="img" aria-label={`score breakdown: ${sources.map((s) => `${sourceLabel(s.source)} ${Math.round((s.share / total) * 100)}%`).join(', ')}`}>
        {sources.map((s) => (
          <span key={s.source} className={`breakdown-seg ${sourceClass(s.source)}`} style={{ width: `${(Math.max(0, s.share) / total) * 100}%` }} />
        ))}
      </div>
      {weak ? (
        <span className="breakdown-text" title={`${formula}, relative to the other results only`}>
          weak match: nearest by meaning, no word matched
        </span>
      ) : (
        <span className="breakdown-text">
          {formula}
        </span>
      )}
    </div>
  );
}
