import type { RerankVerdict } from '@sextant/contracts';

const COLOURS: Record<RerankVerdict['band'], string> = { excellent: '#1a7f37', good: '#0969da', fair: '#9a6700', poor: '#cf222e' };

/** The reranker's band (seed 002: 3.5+ excellent, 2.5+ good, 1.5+ fair, else poor) and its 0–4 score. */
export function RerankBadge({ verdict }: { verdict: RerankVerdict }) {
  return (
    <span
      className={`rerank-badge rerank-${verdict.band}`}
      data-band={verdict.band}
      title={`reranker score ${verdict.score.toFixed(2)} of 4${verdict.below_threshold ? ' — under the threshold' : ''}`}
      style={{ color: COLOURS[verdict.band], border: `1px solid ${COLOURS[verdict.band]}`, borderRadius: 4, padding: '0 4px', fontSize: '0.8em', opacity: verdict.below_threshold ? 0.6 : 1 }}
    >
      {verdict.band} {verdict.score.toFixed(1)}
    </span>
  );
}
