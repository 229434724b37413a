import type { FeedbackRating, WeightsVersion } from '@sextant/contracts';
import { normaliseWeights, type QueryClass } from '@sextant/retrieval';
import type { CurrentWeights } from '../fusion/fusion-weights.service';
import type { FeedbackRatingEntity } from './feedback-rating.entity';

export const SOURCES = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword'] as const;

/** A stored weights version as the API shows it (with the learner's normalised view). */
export function mapWeightsVersion(w: CurrentWeights): WeightsVersion {
  const sources = [...new Set([...SOURCES, ...Object.keys(w.weights)])];
  return {
    query_class: w.queryClass as QueryClass,
    version: w.version,
    weights: { ...w.weights } as Record<string, number>,
    normalised: normaliseWeights(w.weights, sources),
    origin: w.origin,
    pinned: w.pinned,
    principal: w.principal ?? null,
    created_at: w.createdAt,
  };
}

export function mapRating(row: FeedbackRatingEntity, caller: string): FeedbackRating {
  return {
    item_id: row.itemId,
    rating: row.rating,
    stars: row.stars,
    principal: row.principal,
    mine: row.principal === caller,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}
