import { z } from 'zod';
import { ProblemSchema } from './problem';
import { MAX_QUERY_CHARS } from './search';

/** Ask: answers grounded in the fused search, with numbered citations the UI links to files and tasks. */

export const ASK_DEFAULT_CONTEXT_TOKENS = 6000;
export const ASK_MAX_CONTEXT_TOKENS = 64000;
/** Tool-calling rounds the model may take (each a search or fetch) before it must answer. */
export const ASK_MAX_STEPS = 3;

export const AskRequestSchema = z
  .object({
    query: z.string().trim().min(1, 'query must not be empty').max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters`),
    /** Chunks retrieved for the first context. */
    top_k: z.number().int().min(1).max(30).default(8),
    /** Past tasks added to the context. */
    tasks_k: z.number().int().min(0).max(10).default(3),
    /** Budget (~4 characters per token) for retrieved text across every step. */
    max_context_tokens: z.number().int().min(256).max(ASK_MAX_CONTEXT_TOKENS).default(ASK_DEFAULT_CONTEXT_TOKENS),
    /** Tool-calling rounds allowed; 0 answers from the first retrieval alone. */
    max_steps: z.number().int().min(0).max(ASK_MAX_STEPS).default(ASK_MAX_STEPS),
    filters: z
      .object({
        repos: z.array(z.string().min(1).max(200)).max(50).optional(),
        langs: z.array(z.string().min(1).max(40)).max(20).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type AskRequest = z.input<typeof AskRequestSchema>;
export type ParsedAskRequest = z.output<typeof AskRequestSchema>;

/** `GET /v1/ask/stream` query string. */
export const AskStreamQuerySchema = z
  .object({
    q: z.string().trim().min(1).max(MAX_QUERY_CHARS),
    top_k: z.coerce.number().int().min(1).max(30).optional(),
    max_context_tokens: z.coerce.number().int().min(256).max(ASK_MAX_CONTEXT_TOKENS).optional(),
    max_steps: z.coerce.number().int().min(0).max(ASK_MAX_STEPS).optional(),
  })
  .strict();
export type AskStreamQuery = z.infer<typeof AskStreamQuerySchema>;

/** A numbered source the answer may cite: a chunk of a file (1-based inclusive lines) or a past task. */
export const AskCitationSchema = z.discriminatedUnion('kind', [
  z.object({
    n: z.number().int().min(1),
    kind: z.literal('file'),
    chunk_id: z.string(),
    /** The dashboard's file view takes it (`#/file?repo=<repo_id>&path=…&lines=a-b`). */
    repo_id: z.string(),
    repo_name: z.string().nullable(),
    path: z.string(),
    start_line: z.number().int().min(1),
    end_line: z.number().int().min(1),
    /** `path:a-b`, what the answer's reader sees. */
    label: z.string(),
  }),
  z.object({
    n: z.number().int().min(1),
    kind: z.literal('task'),
    task_id: z.string(),
    title: z.string(),
    label: z.string(),
  }),
]);
export type AskCitation = z.infer<typeof AskCitationSchema>;

/** One step of an answer: the first retrieval, a tool call the model made, or the answer itself. */
export const AskStepSchema = z.object({
  n: z.number().int().min(1),
  kind: z.enum(['search', 'fetch', 'answer']),
  /** Who asked for it: `retrieval` for the first search, `model` for tool calls. */
  by: z.enum(['retrieval', 'model']),
  /** The search query, or the fetched ids. */
  input: z.string(),
  /** What it added to the context (source numbers), or why it added nothing. */
  sources: z.array(z.number().int()),
  note: z.string().optional(),
});
export type AskStep = z.infer<typeof AskStepSchema>;

export const AskResponseSchema = z.object({
  query: z.string(),
  answer: z.string(),
  /** The sources the answer cites, in order of first citation. */
  citations: z.array(AskCitationSchema),
  /** Every source given to the model (cited or not). */
  sources: z.array(AskCitationSchema),
  /** `[n]` markers in the answer that match no source (the model made them up). */
  unknown_refs: z.array(z.number().int()),
  steps: z.array(AskStepSchema),
  model: z.string(),
  context_tokens: z.number().int(),
  finish_reason: z.string().nullable(),
  timings_ms: z.object({ retrieval: z.number(), total: z.number() }),
});
export type AskResponse = z.infer<typeof AskResponseSchema>;

/** `GET /v1/ask/status`: whether Ask is configured (the dashboard explains how when it is not). */
export const AskStatusSchema = z.object({
  enabled: z.boolean(),
  model: z.string().nullable(),
  base_url: z.string().nullable(),
  message: z.string(),
});
export type AskStatus = z.infer<typeof AskStatusSchema>;

const RequestId = z.string().min(1).max(100);

export const AskStartEventSchema = z
  .object({
    request_id: RequestId,
    query: z.string(),
    options: AskRequestSchema.omit({ query: true }).partial().strict().optional(),
  })
  .strict();
export type AskStartEvent = z.infer<typeof AskStartEventSchema>;

export const AskCancelEventSchema = z.object({ request_id: RequestId }).strict();
export type AskCancelEvent = z.infer<typeof AskCancelEventSchema>;
export const AskCancelAckSchema = z.object({ request_id: RequestId, cancelled: z.boolean() });
export type AskCancelAck = z.infer<typeof AskCancelAckSchema>;

export const AskStepEventSchema = AskStepSchema.extend({ request_id: RequestId });
export type AskStepEvent = z.infer<typeof AskStepEventSchema>;
export const AskTokenEventSchema = z.object({ request_id: RequestId, text: z.string() });
export type AskTokenEvent = z.infer<typeof AskTokenEventSchema>;
export const AskCitationEventSchema = z.object({ request_id: RequestId, citation: AskCitationSchema });
export type AskCitationEvent = z.infer<typeof AskCitationEventSchema>;
export const AskDoneEventSchema = AskResponseSchema.extend({ request_id: RequestId });
export type AskDoneEvent = z.infer<typeof AskDoneEventSchema>;
/** Problem details (see problem.ts) with the request id; codes: ask_disabled, chat_failed, chat_timeout, chat_rate_limited, chat_unreachable, validation_failed, rate_limited, … */
export const AskErrorEventSchema = ProblemSchema.pick({ type: true, title: true, status: true, detail: true, code: true }).extend({
  request_id: RequestId.nullable(),
  error: z.string().describe('deprecated alias of code'),
  message: z.string().describe('deprecated alias of detail'),
  retry_after_s: z.number().optional(),
});
export type AskErrorEvent = z.infer<typeof AskErrorEventSchema>;

/** Server -> client ask events (the ask gateway emits only through this map). */
export interface AskServerToClientEvents {
  'ask:step': (e: AskStepEvent) => void;
  'ask:token': (e: AskTokenEvent) => void;
  'ask:citation': (e: AskCitationEvent) => void;
  'ask:done': (e: AskDoneEvent) => void;
  'ask:error': (e: AskErrorEvent) => void;
}

export interface AskClientToServerEvents {
  'ask:start': (e: AskStartEvent) => void;
  /** Acknowledged with an AskCancelAck. */
  'ask:cancel': (e: AskCancelEvent, ack?: (res: AskCancelAck) => void) => void;
}

/** MCP `ask`. */
export const McpAskInputSchema = z
  .object({
    question: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe('a question about this codebase or its past work'),
    max_context_tokens: z.number().int().min(256).max(ASK_MAX_CONTEXT_TOKENS).default(ASK_DEFAULT_CONTEXT_TOKENS).describe('budget for retrieved text (~4 characters per token)'),
    max_steps: z.number().int().min(0).max(ASK_MAX_STEPS).default(ASK_MAX_STEPS).describe('extra search/fetch rounds the answering model may take'),
  })
  .strict();
export type McpAskInput = z.input<typeof McpAskInputSchema>;

export const McpAskOutputSchema = z.object({
  answer: z.string(),
  citations: z.array(AskCitationSchema),
  unknown_refs: z.array(z.number().int()),
  model: z.string(),
});
export type McpAskOutput = z.infer<typeof McpAskOutputSchema>;
