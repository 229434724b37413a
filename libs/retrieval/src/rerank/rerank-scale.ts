/** Seed 002's relevance bands on the 0–4 reranker scale. */
export type RerankBand = 'excellent' | 'good' | 'fair' | 'poor';

/** Lower bound of each band, best first (3.5–4 excellent, 2.5–3.5 good, 1.5–2.5 fair, below 1.5 poor). */
export const RERANK_BANDS: ReadonlyArray<{ band: RerankBand; min: number }> = [
  { band: 'excellent', min: 3.5 },
  { band: 'good', min: 2.5 },
  { band: 'fair', min: 1.5 },
  { band: 'poor', min: 0 },
];

export const RERANK_SCALE_MAX = 4;
/** Seed 002's recommended threshold: results below it are dropped or flagged. */
export const DEFAULT_RERANK_THRESHOLD = 2.5;

/**
 * The band of a 0–4 score.
 *
 * @example rerankBand(3.5) // 'excellent'; rerankBand(2.49) // 'fair'
 */
export function rerankBand(score: number): RerankBand {
  for (const b of RERANK_BANDS) if (score >= b.min) return b.band;
  return 'poor';
}

/**
 * Raw reranker scores -> the 0–4 scale. Rerankers answer either probabilities (TEI's default,
 * Cohere/Jina `relevance_score`, all in [0, 1]) or raw logits (TEI `raw_scores`, some
 * cross-encoders); probabilities scale linearly, logits go through a sigmoid first.
 *
 * @example toRerankScale([0.9, 0.1]) // [3.6, 0.4]; toRerankScale([2, -3]) // [3.52, 0.19]
 */
export function toRerankScale(raw: readonly number[]): number[] {
  const probabilities = raw.every((s) => s >= 0 && s <= 1);
  return raw.map((s) => {
    const p = probabilities ? s : 1 / (1 + Math.exp(-s));
    return clamp(Number.isFinite(p) ? p * RERANK_SCALE_MAX : 0);
  });
}

const clamp = (v: number) => Math.min(RERANK_SCALE_MAX, Math.max(0, v));
