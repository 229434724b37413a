import type OpenAI from 'openai';
import type { ChatDelta, ChatModel, ChatRequest } from './chat-model.port';
import { AskError, AskErrorCode } from './ask.errors';

/** The `openai` package, required on first use: servers on local embeddings and without chat never load it. */
function openai(): typeof import('openai') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('openai') as typeof import('openai');
}

/** A Retry-After longer than this is not waited out: the caller gets the wait in the error instead. */
const MAX_RETRY_AFTER_S = 30;

export interface OpenAiChatOptions {
  model: string;
  baseURL?: string;
  apiKey?: string;
  /** Silence allowed before the response starts and between streamed chunks. */
  timeoutMs: number;
  maxRetries: number;
}

/**
 * Any OpenAI-compatible `/v1/chat/completions` (OpenAI, Azure, Ollama, vLLM, LM Studio)
 * through the `openai` package, streamed. Retries are ours rather than the package's so a
 * wait honours the caller's abort and a long Retry-After becomes a clear error; a request
 * is only retried before anything of it was streamed.
 */
export class OpenAiChatModel implements ChatModel {
  private readonly client: OpenAI;
  readonly model: string;
  readonly baseURL: string | null;

  constructor(private readonly options: OpenAiChatOptions) {
    this.model = options.model;
    this.baseURL = options.baseURL ?? null;
    // Local servers accept any key; the package insists on one.
    this.client = new (openai().default)({ baseURL: options.baseURL, apiKey: options.apiKey || 'unused', timeout: options.timeoutMs, maxRetries: 0 });
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatDelta> {
    for (let attempt = 0; ; attempt++) {
      let streamed = false;
      try {
        for await (const delta of this.attempt(request)) {
          streamed = true;
          yield delta;
        }
        return;
      } catch (err) {
        if (request.signal?.aborted) throw err;
        const failure = toAskError(err, this.options.timeoutMs);
        const wait = retryDelayMs(failure, attempt);
        if (streamed || attempt >= this.options.maxRetries || wait === null) throw failure;
        await sleep(wait, request.signal);
      }
    }
  }

  private async *attempt(request: ChatRequest): AsyncIterable<ChatDelta> {
    const attempt = new AbortController();
    const onAbort = () => attempt.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    let idle = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idle = true;
        attempt.abort();
      }, this.options.timeoutMs);
    };
    try {
      arm();
      const stream = await this.client.chat.completions.create(
        { model: this.model, messages: request.messages as never, stream: true, ...(request.tools?.length ? { tools: request.tools as never } : {}) },
        { signal: attempt.signal },
      );
      const calls = new Map<number, { id: string; name: string; arguments: string }>();
      for await (const chunk of stream) {
        arm();
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const text = choice.delta?.content;
        if (text) yield { type: 'text', text };
        for (const call of choice.delta?.tool_calls ?? []) {
          const slot = calls.get(call.index) ?? { id: '', name: '', arguments: '' };
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name += call.function.name;
          if (call.function?.arguments) slot.arguments += call.function.arguments;
          calls.set(call.index, slot);
        }
        if (choice.finish_reason) {
          for (const [index, c] of [...calls].sort((a, b) => a[0] - b[0])) yield { type: 'tool_call', id: c.id || `call_${index}`, name: c.name, arguments: c.arguments };
          calls.clear();
          yield { type: 'finish', reason: choice.finish_reason };
        }
      }
      // The package ends the iteration quietly when the request is aborted: a stall (or a cancel) is not a normal end.
      if (idle) throw new Error('idle');
      if (request.signal?.aborted) throw request.signal.reason ?? new Error('aborted');
      // Some servers end the stream without a finish_reason chunk.
      for (const [index, c] of calls) yield { type: 'tool_call', id: c.id || `call_${index}`, name: c.name, arguments: c.arguments };
    } catch (err) {
      if (idle) throw new AskError(AskErrorCode.ChatTimeout, `The chat endpoint (${this.model}) sent nothing for ${this.options.timeoutMs} ms; it may be overloaded or the model still loading. Raise CHAT_TIMEOUT_MS or retry.`);
      throw err;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // Closes the connection when the consumer stops early (cancel) or something failed.
      attempt.abort();
    }
  }
}

function toAskError(err: unknown, timeoutMs: number): AskError {
  if (err instanceof AskError) return err;
  if (err instanceof openai().RateLimitError) {
    const retryAfterS = retryAfterSeconds(err.headers);
    return new AskError(AskErrorCode.ChatRateLimited, `The chat endpoint is rate limiting requests (429)${retryAfterS !== undefined ? `; retry after ${retryAfterS} s` : ''}.`, retryAfterS);
  }
  if (err instanceof openai().APIConnectionTimeoutError) return new AskError(AskErrorCode.ChatTimeout, `The chat endpoint did not answer within ${timeoutMs} ms. Raise CHAT_TIMEOUT_MS or retry.`);
  if (err instanceof openai().APIUserAbortError) return new AskError(AskErrorCode.ChatTimeout, `The chat request was stopped after ${timeoutMs} ms.`);
  if (err instanceof openai().APIConnectionError) return new AskError(AskErrorCode.ChatUnreachable, `The chat endpoint could not be reached (${(err.cause as Error | undefined)?.message ?? err.message}); check CHAT_BASE_URL.`);
  if (err instanceof openai().APIError) {
    const detail = typeof err.error === 'object' && err.error && 'message' in err.error ? String((err.error as { message: unknown }).message) : err.message;
    const hint = err.status === 401 || err.status === 403 ? ' Check CHAT_API_KEY.' : err.status === 404 ? ' Check CHAT_MODEL and CHAT_BASE_URL.' : '';
    return new AskError(AskErrorCode.ChatFailed, `The chat endpoint failed with ${err.status ?? 'an error'}: ${detail.slice(0, 300)}.${hint}`);
  }
  return new AskError(AskErrorCode.ChatFailed, `The chat request failed: ${(err as Error)?.message ?? String(err)}`);
}

/** How long to wait before retrying, or null when retrying cannot help. */
function retryDelayMs(err: AskError, attempt: number): number | null {
  if (err.code === AskErrorCode.ChatRateLimited) {
    if (err.retryAfterS === undefined) return backoff(attempt);
    return err.retryAfterS <= MAX_RETRY_AFTER_S ? err.retryAfterS * 1000 : null;
  }
  if (err.code === AskErrorCode.ChatTimeout || err.code === AskErrorCode.ChatUnreachable) return backoff(attempt);
  if (err.code === AskErrorCode.ChatFailed && /failed with 5\d\d/.test(err.message)) return backoff(attempt);
  return null;
}

const backoff = (attempt: number) => Math.min(8000, 500 * 2 ** attempt);

function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms / 100) / 10;
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const s = Number(raw);
  if (Number.isFinite(s)) return Math.max(0, s);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
