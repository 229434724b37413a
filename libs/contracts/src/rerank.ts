import { z } from 'zod';

/** Seed 002's bands of the 0–4 reranker scale. */
export const RerankBandSchema = z.enum(['excellent', 'good', 'fair', 'poor']);

/** What the reranker said about one result (present when the search asked for `rerank: true`). */
export const RerankVerdictSchema = z.object({
  /** 0–4: 3.5+ excellent, 2.5+ good, 1.5+ fair, below poor. */
  score: z.number().min(0).max(4),
  band: RerankBandSchema,
  /** Under the threshold (kept because the mode is `flag`). */
  below_threshold: z.boolean(),
});
export type RerankVerdict = z.infer<typeof RerankVerdictSchema>;

export const RerankModeSchema = z.enum(['drop', 'flag']);
