import type { ChatMessage } from '@sextant/retrieval';

/** One piece of a streamed completion. */
export type ChatDelta =
  | { type: 'text'; text: string }
  /** A complete tool call (its streamed argument fragments joined). */
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'finish'; reason: string | null };

export interface ChatRequest {
  messages: ChatMessage[];
  /** OpenAI function tools; omitted when the model may not call any more. */
  tools?: ReadonlyArray<{ type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
  signal?: AbortSignal;
}

/** A chat model that streams; the adapter owns retries and timeouts and throws AskError. */
export interface ChatModel {
  readonly model: string;
  readonly baseURL: string | null;
  stream(request: ChatRequest): AsyncIterable<ChatDelta>;
}

/** DI token: a ChatModel, or null when no chat endpoint is configured (Ask disabled). */
export const CHAT_MODEL = Symbol('CHAT_MODEL');
