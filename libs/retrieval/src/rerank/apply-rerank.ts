import { rerankBand, type RerankBand } from './rerank-scale';

export type RerankMode = 'drop' | 'flag';

export interface RerankVerdict {
  score: number;
  band: RerankBand;
  below_threshold: boolean;
}

export interface RerankOutcome<T> {
  /** Best reranked first (ties keep their previous order); in `drop` mode without the results below the threshold. */
  items: Array<T & { rerank: RerankVerdict }>;
  dropped: number;
}

/**
 * Orders items by their 0–4 reranker score and applies the threshold: `drop` removes the
 * items below it, `flag` keeps them marked `below_threshold`.
 *
 * @example applyRerank([a, b], [1.2, 3.8], { threshold: 2.5, mode: 'drop' }) // { items: [b+verdict], dropped: 1 }
 */
export function applyRerank<T extends object>(items: readonly T[], scores: readonly number[], options: { threshold: number; mode: RerankMode }): RerankOutcome<T> {
  if (scores.length !== items.length) throw new Error(`applyRerank: ${scores.length} scores for ${items.length} items`);
  const judged = items
    .map((item, i) => ({ item, i, score: Math.round(scores[i] * 100) / 100 }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ item, score }) => ({ ...item, rerank: { score, band: rerankBand(score), below_threshold: score < options.threshold } }));
  if (options.mode === 'flag') return { items: judged, dropped: 0 };
  const kept = judged.filter((j) => !j.rerank.below_threshold);
  return { items: kept, dropped: judged.length - kept.length };
}
