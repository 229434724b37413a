import { z } from 'zod';
import { NextCursorSchema, pageQueryShape } from './pagination';
import { ProblemSchema } from './problem';
import { QueryClassSchema, SearchSourceSchema } from './search';

/**
 * Feedback wire shapes: `POST /v1/feedback`, socket `feedback:rate`, MCP `rate_result`
 * (same fields as {@link FeedbackRateRequestSchema}'s `rating` form), `GET /v1/feedback`,
 * `GET /v1/weights` and the admin weight routes. docs/feedback.md explains the learning.
 */

/** A rating is either signed (`rating`: -1 / 0 / +1) or stars (`stars`: 1..5); stars map to `(stars - 3) / 2`. */
export const STAR_TO_SIGNED: Readonly<Record<number, number>> = { 1: -1, 2: -0.5, 3: 0, 4: 0.5, 5: 1 };

/**
 * `POST /v1/feedback` body and socket `feedback:rate` payload. Give exactly one of
 * `rating` (+1 helpful, -1 not relevant, 0 neutral = withdraw) or `stars` (1..5, stored as
 * the signed value `(stars - 3) / 2`: 1 -> -1, 2 -> -0.5, 3 -> 0, 4 -> +0.5, 5 -> +1).
 * Rating the same item of the same search again replaces the earlier rating.
 */
export const FeedbackRateRequestSchema = z
  .object({
    search_id: z.string().uuid().describe('`search_id` of the search response the item came from'),
    item_id: z.string().min(1).max(1200).describe('`id` of the rated result'),
    rating: z.number().int().min(-1).max(1).optional().describe('+1 helpful, -1 not relevant, 0 neutral (withdraws an earlier rating)'),
    stars: z.number().int().min(1).max(5).optional().describe('1..5 stars instead of `rating`; mapped to (stars - 3) / 2'),
  })
  .strict()
  .refine((v) => (v.rating === undefined) !== (v.stars === undefined), { message: 'give exactly one of rating (-1, 0, 1) or stars (1..5)', path: ['rating'] });
export type FeedbackRateRequest = z.infer<typeof FeedbackRateRequestSchema>;

/** One source's part in the rated item, recomputed from the search's pool with the strategy and weights that search used. */
export const FeedbackCreditSchema = z.object({
  source: z.string(),
  /** 1-based rank the source gave the item. */
  rank: z.number().int(),
  /** The source's raw score. */
  score: z.number(),
  /** Share of the item's fused score this source earned (shares sum to 1). */
  share: z.number(),
  /** The source's own opinion of the item in [0, 1] (its per-unit-weight contribution; 1 = its best item). The learner's gradient. */
  evidence: z.number(),
});
export type FeedbackCredit = z.infer<typeof FeedbackCreditSchema>;

/** Why a rating did or did not move the weights. */
export const FeedbackLearningOutcomeSchema = z.enum(['updated', 'unchanged_rating', 'no_evidence', 'pinned', 'cap_reached']);
export type FeedbackLearningOutcome = z.infer<typeof FeedbackLearningOutcomeSchema>;

/** `POST /v1/feedback` response (also the socket ack and what `rate_result` records). */
export const FeedbackRateResponseSchema = z.object({
  search_id: z.string(),
  item_id: z.string(),
  /** The stored signed value in [-1, 1]. */
  rating: z.number(),
  stars: z.number().int().nullable(),
  /** The caller's earlier rating of this item in this search (null for a first rating). */
  previous_rating: z.number().nullable(),
  query_class: QueryClassSchema,
  credit: z.array(FeedbackCreditSchema),
  learning: z.object({
    outcome: FeedbackLearningOutcomeSchema,
    /** new rating - what was already applied for this (caller, search, item). */
    requested_delta: z.number(),
    /** The part of it applied after the per-user cap. */
    applied_delta: z.number(),
    weights_version: z.number().int(),
    weights: z.record(z.string(), z.number()),
  }),
});
export type FeedbackRateResponse = z.infer<typeof FeedbackRateResponseSchema>;

/** `GET /v1/feedback` query. */
export const FeedbackListQuerySchema = z.object({ search_id: z.string().uuid() }).strict();
export type FeedbackListQuery = z.infer<typeof FeedbackListQuerySchema>;

export const FeedbackRecentQuerySchema = z.object({ ...pageQueryShape(20, 100) }).strict();
export type FeedbackRecentQuery = z.infer<typeof FeedbackRecentQuerySchema>;

/** `GET /v1/feedback/recent` response: the workspace's latest ratings (the dashboard's activity feed). */
export const FeedbackRecentResponseSchema = z.object({
  ratings: z.array(
    z.object({
      search_id: z.string(),
      item_id: z.string(),
      rating: z.number(),
      principal: z.string(),
      /** When this rating was given (or last changed); also `rated_at` of its `feedback:recorded` event. */
      rated_at: z.string(),
    }),
  ),
  next_cursor: NextCursorSchema,
});
export type FeedbackRecentResponse = z.infer<typeof FeedbackRecentResponseSchema>;

export const FeedbackRatingSchema = z.object({
  item_id: z.string(),
  rating: z.number(),
  stars: z.number().int().nullable(),
  principal: z.string(),
  /** True for the caller's own rating (the dashboard highlights its buttons). */
  mine: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FeedbackRating = z.infer<typeof FeedbackRatingSchema>;

/** `GET /v1/feedback?search_id=` response: every rating of that search, and per item totals. */
export const FeedbackListResponseSchema = z.object({
  search_id: z.string(),
  query: z.string(),
  query_class: QueryClassSchema,
  strategy: z.string(),
  weights_version: z.number().int(),
  ratings: z.array(FeedbackRatingSchema),
  items: z.array(
    z.object({
      item_id: z.string(),
      count: z.number().int(),
      positive: z.number().int(),
      negative: z.number().int(),
      /** Mean signed rating. */
      mean: z.number(),
    }),
  ),
});
export type FeedbackListResponse = z.infer<typeof FeedbackListResponseSchema>;

/** One stored version of a workspace's weights for a query class. */
export const WeightsVersionSchema = z.object({
  query_class: QueryClassSchema,
  /** 0 = built-in defaults (nothing stored yet). */
  version: z.number().int(),
  /** The fusion weights searches use (per source; their scale does not change rankings). */
  weights: z.record(z.string(), z.number()),
  /** The same weights divided by their sum: the learner's state (sums to 1). */
  normalised: z.record(z.string(), z.number()),
  /** `default`, `feedback`, `reset`, `admin` (set or pinned by an admin) or `simulation`. */
  origin: z.string(),
  pinned: z.boolean(),
  principal: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type WeightsVersion = z.infer<typeof WeightsVersionSchema>;

/** `GET /v1/weights` query. */
export const WeightsQuerySchema = z
  .object({
    query_class: QueryClassSchema.optional(),
    history_limit: z.coerce.number().int().min(1).max(1000).optional().describe('versions per class, newest kept (default 200)'),
    days: z.coerce.number().int().min(1).max(365).optional().describe('days of rating counts (default 30)'),
  })
  .strict();
export type WeightsQuery = z.infer<typeof WeightsQuerySchema>;

export const RatingCountsSchema = z.object({
  total: z.number().int(),
  positive: z.number().int(),
  negative: z.number().int(),
  neutral: z.number().int(),
});

/** `GET /v1/weights` response: per class the current weights, the prior decay pulls toward, and history (oldest first, for charts); rating counts per day. */
export const WeightsResponseSchema = z.object({
  classes: z.array(
    z.object({
      query_class: QueryClassSchema,
      current: WeightsVersionSchema,
      /** What decay pulls toward: the last weights a person set (reset/admin), else the built-in defaults. */
      prior: z.record(z.string(), z.number()),
      /** Oldest first; version 0 (defaults) is included when it is within the limit. */
      history: z.array(WeightsVersionSchema),
    }),
  ),
  ratings: RatingCountsSchema.extend({
    by_day: z.array(RatingCountsSchema.extend({ day: z.string().describe('YYYY-MM-DD (UTC)') })),
    by_class: z.record(z.string(), RatingCountsSchema),
  }),
  /** The learner's parameters (docs/feedback.md). */
  learner: z.object({
    learning_rate: z.number(),
    /** T of the pairwise weight 4σ(x)σ(−x), x = (f_j − f_i)/T. */
    temperature: z.number(),
    /** n₀ of the step schedule η / √(1 + n/n₀). */
    anneal_ratings: z.number(),
    /** Results counted as shown on a page (unrated ones are neutral). */
    page_size: z.number(),
    floor: z.number(),
    decay: z.number(),
    cap_per_window: z.number(),
    window_seconds: z.number(),
  }),
});
export type WeightsResponse = z.infer<typeof WeightsResponseSchema>;

/** `PUT /v1/weights` (admin): set weights and/or pin them; a pinned class ignores ratings until unpinned. */
export const WeightsUpdateRequestSchema = z
  .object({
    query_class: QueryClassSchema,
    weights: z.partialRecord(SearchSourceSchema, z.number().min(0).max(100)).optional(),
    pinned: z.boolean().optional(),
  })
  .strict()
  .refine((v) => v.weights !== undefined || v.pinned !== undefined, { message: 'give weights and/or pinned' });
export type WeightsUpdateRequest = z.infer<typeof WeightsUpdateRequestSchema>;

/** `POST /v1/weights/reset` (admin): back to the built-in defaults (one class, or both). */
export const WeightsResetRequestSchema = z.object({ query_class: QueryClassSchema.optional() }).strict();
export type WeightsResetRequest = z.infer<typeof WeightsResetRequestSchema>;

export const WeightsResetResponseSchema = z.object({ classes: z.array(WeightsVersionSchema) });
export type WeightsResetResponse = z.infer<typeof WeightsResetResponseSchema>;

/** `GET /v1/weights/history`: every stored version of one class's weights, newest first, a page at a time. */
export const WeightsHistoryQuerySchema = z.object({ query_class: QueryClassSchema, ...pageQueryShape(50, 500) }).strict();
export type WeightsHistoryQuery = z.infer<typeof WeightsHistoryQuerySchema>;

/** Newest first; the last page ends with version 0 (the built-in defaults) when the history starts from them. */
export const WeightsHistoryResponseSchema = z.object({ query_class: QueryClassSchema, versions: z.array(WeightsVersionSchema), next_cursor: NextCursorSchema });
export type WeightsHistoryResponse = z.infer<typeof WeightsHistoryResponseSchema>;

/** Server -> client when a `feedback:rate` socket message fails (readers, unknown search/item, bad input). */
export const FeedbackErrorEventSchema = ProblemSchema.pick({ type: true, title: true, status: true, detail: true, code: true }).extend({
  search_id: z.string().nullable(),
  item_id: z.string().nullable(),
  error: z.string().describe('deprecated: same as code'),
  message: z.string().describe('deprecated: same as detail'),
});
export type FeedbackErrorEvent = z.infer<typeof FeedbackErrorEventSchema>;
