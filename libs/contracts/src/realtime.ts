import { z } from 'zod';
import type { FeedbackErrorEvent, FeedbackRateRequest } from './feedback';
import { IndexProgressEventSchema } from './indexing';
import { ProblemSchema } from './problem';
import { MAX_QUERY_CHARS, MAX_TOP_K, SearchPartialSchema, SearchRequestSchema, SearchResponseSchema } from './search';

const RequestId = z.string().min(1).max(100);

/** Client -> server: start a streamed search (`options` are the REST search fields except `query`). */
export const SearchStartEventSchema = z
  .object({
    request_id: RequestId,
    query: z.string(),
    options: SearchRequestSchema.omit({ query: true }).partial().strict().optional(),
  })
  .strict();
export type SearchStartEvent = z.infer<typeof SearchStartEventSchema>;

export const SearchCancelEventSchema = z.object({ request_id: RequestId }).strict();
export type SearchCancelEvent = z.infer<typeof SearchCancelEventSchema>;
/** The acknowledgement of `search:cancel`: whether a running search with that id was stopped. */
export const SearchCancelAckSchema = z.object({ request_id: RequestId, cancelled: z.boolean() });
export type SearchCancelAck = z.infer<typeof SearchCancelAckSchema>;

export const SearchPartialEventSchema = SearchPartialSchema.extend({ request_id: RequestId });
export type SearchPartialEvent = z.infer<typeof SearchPartialEventSchema>;

export const SearchDoneEventSchema = SearchResponseSchema.pick({ results: true, limits: true, timings_ms: true, search_id: true, query_class: true, strategy: true, weights_version: true, match: true, match_reason: true, unknown_terms: true, external: true }).extend({
  request_id: RequestId,
});
export type SearchDoneEvent = z.infer<typeof SearchDoneEventSchema>;

/**
 * Server -> client when a streamed search fails: the problem-details fields of REST errors
 * (`code`, `status`, `title`, `detail`, `type`) for the search's `request_id`. `error` (= `code`)
 * and `message` (= `detail`) are deprecated aliases kept for older clients.
 */
export const SearchErrorEventSchema = ProblemSchema.pick({ type: true, title: true, status: true, detail: true, code: true }).extend({
  request_id: RequestId.nullable(),
  error: z.string().describe('deprecated: same as code'),
  message: z.string().describe('deprecated: same as detail'),
});
export type SearchErrorEvent = z.infer<typeof SearchErrorEventSchema>;

export const PresenceEventSchema = z.object({
  workspace_id: z.string(),
  /** `name`: the API key's name when the member connected with a key. */
  members: z.array(z.object({ principal: z.string(), name: z.string().nullable().optional(), connections: z.number().int() })),
});
export type PresenceEvent = z.infer<typeof PresenceEventSchema>;

export const FeedbackRecordedEventSchema = z.object({
  workspace_id: z.string(),
  search_id: z.string(),
  item_id: z.string(),
  rating: z.number(),
  principal: z.string(),
  /** ISO time of the rating, as `GET /v1/feedback/recent` lists it. */
  rated_at: z.string(),
});
export type FeedbackRecordedEvent = z.infer<typeof FeedbackRecordedEventSchema>;

export const WeightsUpdatedEventSchema = z.object({
  workspace_id: z.string(),
  query_class: z.enum(['specific', 'conceptual']),
  version: z.number().int(),
  weights: z.record(z.string(), z.number()),
  origin: z.string(),
});
export type WeightsUpdatedEvent = z.infer<typeof WeightsUpdatedEventSchema>;

/** Every server -> client event and its payload (the gateway emits only through this map). */
export interface ServerToClientEvents {
  'search:partial': (e: SearchPartialEvent) => void;
  'search:done': (e: SearchDoneEvent) => void;
  'search:error': (e: SearchErrorEvent) => void;
  'index:progress': (e: z.infer<typeof IndexProgressEventSchema>) => void;
  'index:done': (e: z.infer<typeof IndexProgressEventSchema>) => void;
  'index:error': (e: z.infer<typeof IndexProgressEventSchema>) => void;
  'feedback:recorded': (e: FeedbackRecordedEvent) => void;
  'weights:updated': (e: WeightsUpdatedEvent) => void;
  'feedback:error': (e: FeedbackErrorEvent) => void;
  presence: (e: PresenceEvent) => void;
  /** The key this socket authenticated with was revoked (or deleted); the server disconnects right after. */
  'auth:revoked': (e: { message: string }) => void;
}

export interface ClientToServerEvents {
  'search:start': (e: SearchStartEvent) => void;
  /** Acknowledged with a SearchCancelAck. */
  'search:cancel': (e: SearchCancelEvent, ack?: (res: SearchCancelAck) => void) => void;
  /** Rate a result (FeedbackRateRequestSchema); acknowledged with a FeedbackRateResponse, or `feedback:error`. */
  'feedback:rate': (e: FeedbackRateRequest, ack?: (res: unknown) => void) => void;
}

/** A query-string list: `a,b` or `x=a&x=b`. */
const QueryList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean)));
/** Globs may contain commas (`*.{ts,tsx}`), so several are given by repeating the parameter. */
const QueryGlobs = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]));

/** `GET /v1/search/stream` query: plain-HTTP streaming for chat clients, with the filters of `POST /v1/search`. */
export const SearchStreamQuerySchema = z
  .object({
    q: z.string().trim().min(1).max(MAX_QUERY_CHARS),
    top_k: z.coerce.number().int().min(1).max(MAX_TOP_K).optional(),
    strategy: z.enum(['rrf', 'weighted', 'cascade', 'vote', 'concat']).optional(),
    granularity: z.enum(['file', 'chunk']).optional(),
    sources: z.string().max(200).optional().describe('comma-separated source names'),
    repos: QueryList.describe('repository ids or names, comma-separated or repeated'),
    langs: QueryList.describe('languages, comma-separated or repeated'),
    include: QueryGlobs.describe('path globs to keep; repeat the parameter for several (globs may contain commas)'),
    exclude: QueryGlobs.describe('path globs to drop; repeat the parameter for several'),
  })
  .strict();
