import { problem, type Problem } from '@sextant/contracts';
import { problemFromError } from '../../common/problem-details';

/** Why an answer could not be given; each transport maps the code to its own shape (REST status, socket/SSE error, MCP tool error). */
export enum AskErrorCode {
  /** No chat endpoint configured. */
  Disabled = 'ask_disabled',
  /** The endpoint answered with an error (5xx, bad request, refused key, unknown model). */
  ChatFailed = 'chat_failed',
  /** The endpoint sent nothing for CHAT_TIMEOUT_MS. */
  ChatTimeout = 'chat_timeout',
  /** The endpoint kept answering 429. */
  ChatRateLimited = 'chat_rate_limited',
  /** The endpoint could not be reached. */
  ChatUnreachable = 'chat_unreachable',
}

export const ASK_DISABLED_MESSAGE =
  'Ask is disabled: no chat model is configured. Set CHAT_MODEL and CHAT_BASE_URL (any OpenAI-compatible endpoint: Ollama, vLLM, LM Studio, Azure) and/or CHAT_API_KEY (OpenAI), then restart the server.';

export class AskError extends Error {
  constructor(
    readonly code: AskErrorCode,
    message: string,
    /** Seconds the caller should wait (rate limits). */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'AskError';
  }
}

/** HTTP status of each code for `POST /v1/ask`. */
export const ASK_ERROR_STATUS: Record<AskErrorCode, number> = {
  [AskErrorCode.Disabled]: 503,
  [AskErrorCode.ChatFailed]: 502,
  [AskErrorCode.ChatTimeout]: 504,
  [AskErrorCode.ChatRateLimited]: 429,
  [AskErrorCode.ChatUnreachable]: 502,
};

/** Problem details of an Ask failure (REST body, SSE `error` event, socket `ask:error` fields). */
export function askProblem(err: unknown, requestId: string | null): { problem: Problem; unexpected: boolean } {
  if (err instanceof AskError) {
    return { problem: problem(ASK_ERROR_STATUS[err.code], err.code, err.message, requestId, err.retryAfterS !== undefined ? { retry_after_s: err.retryAfterS } : {}), unexpected: false };
  }
  const { problem: p, unexpected } = problemFromError(err, requestId);
  return { problem: unexpected ? { ...p, detail: 'the answer failed' } : p, unexpected };
}
