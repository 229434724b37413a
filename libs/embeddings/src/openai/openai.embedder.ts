import type OpenAI from 'openai';
import { Embedder, EmbedderHealth } from '../embedder.port';
import { EmbeddingDimensionMismatchError } from '../embedding-dimension-mismatch.error';
import { EmbeddingError, EmbeddingErrorCode } from '../embedding.error';
import { l2Normalize } from '../l2-normalize.util';
import { backoffDelayMs, retryAfterMs, sleep } from './retry-policy.util';

/** The `openai` package, required on first use: servers on local embeddings and without chat never load it. */
function openai(): typeof import('openai') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('openai') as typeof import('openai');
}

export interface OpenAIEmbedderOptions {
  /** Any OpenAI-compatible API root, e.g. `http://localhost:11434/v1` (Ollama). Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /** Bearer key. Local servers usually need none; a placeholder is sent then. */
  apiKey?: string;
  /** Model name as the server knows it. Default `text-embedding-3-small`. */
  model?: string;
  /**
   * Expected vector length. Required for models not in the built-in table
   * (`text-embedding-3-small` 1536, `text-embedding-3-large` 3072, `text-embedding-ada-002` 1536).
   * When set explicitly it is also sent as the `dimensions` request parameter (see `sendDimensions`).
   */
  dimensions?: number;
  /**
   * Send `dimensions` in the request. Defaults to true exactly when `dimensions` was configured:
   * OpenAI's v3 models shorten their output on request, but ada-002 and several
   * self-hosted servers reject the unknown parameter, so it is never sent unasked.
   * Set false to only *check* the length a server returns.
   */
  sendDimensions?: boolean;
  /** Inputs per request. Default 64. */
  batchSize?: number;
  /** Requests in flight at once. Default 2. */
  maxConcurrency?: number;
  /** Per-request timeout. Default 30000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt on 408/409/429/5xx, timeouts and network errors. Default 5. */
  maxRetries?: number;
  /** First backoff delay (doubles per retry, with jitter). Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Backoff ceiling. Default 8000 ms. */
  retryMaxDelayMs?: number;
  /** A server's `Retry-After` is honoured up to this long. Default 60000 ms. */
  maxRetryAfterMs?: number;
  /** Inputs are cut to this many characters so one oversized chunk cannot fail a whole batch with a 400. Default 24000. */
  maxInputChars?: number;
}

const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * Embeddings from any OpenAI-compatible `POST /v1/embeddings` (OpenAI, Azure's v1 API,
 * Ollama, vLLM, TEI, LM Studio) through the official `openai` package. Batches inputs,
 * keeps their order, retries 429/5xx/timeouts/network errors with exponential backoff and
 * jitter (honouring `Retry-After`), checks every vector's length and L2-normalises it.
 *
 * Retries are done here rather than by the SDK (whose `maxRetries` is set to 0) because the
 * SDK's backoff schedule is fixed and cannot be observed; this loop can be tuned and tested.
 *
 * @example
 * const embedder = new OpenAIEmbedder({ baseURL: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 768, sendDimensions: false });
 * const vectors = await embedder.embedDocuments(['function a() {}', 'class B {}']);
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly semantic = true;
  readonly dimensions: number;
  readonly model: string;
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly sendDimensions: boolean;
  private readonly batchSize: number;
  private readonly maxConcurrency: number;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly retryMaxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxInputChars: number;

  constructor(options: OpenAIEmbedderOptions = {}) {
    this.model = options.model ?? 'text-embedding-3-small';
    this.baseURL = (options.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const dimensions = options.dimensions ?? KNOWN_DIMENSIONS[this.model];
    if (dimensions === undefined) {
      throw new EmbeddingError(
        'config',
        `The output size of embedding model "${this.model}" is unknown: set dimensions (EMBEDDINGS_DIM) to the length of its vectors.`,
      );
    }
    requirePositiveInteger('dimensions', dimensions);
    this.dimensions = dimensions;
    this.sendDimensions = options.sendDimensions ?? options.dimensions !== undefined;
    this.batchSize = requirePositiveInteger('batchSize', options.batchSize ?? 64);
    this.maxConcurrency = requirePositiveInteger('maxConcurrency', options.maxConcurrency ?? 2);
    this.timeoutMs = requirePositiveInteger('timeoutMs', options.timeoutMs ?? 30_000);
    this.maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 5));
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.retryMaxDelayMs = options.retryMaxDelayMs ?? 8000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.maxInputChars = requirePositiveInteger('maxInputChars', options.maxInputChars ?? 24_000);
    if (!options.apiKey && this.baseURL === DEFAULT_BASE_URL) {
      throw new EmbeddingError('config', 'An API key (OPENAI_API_KEY) is required for api.openai.com.');
    }
    this.client = new (openai().default)({
      baseURL: this.baseURL,
      apiKey: options.apiKey || 'no-key',
      maxRetries: 0,
      timeout: this.timeoutMs,
    });
    this.id = `openai:${this.model}:${this.dimensions}`;
  }

  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const out: Float32Array[] = new Array(texts.length);
    const starts: number[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) starts.push(start);
    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      while (next < starts.length && !failed) {
        const start = starts[next++];
        const batch = texts.slice(start, start + this.batchSize);
        try {
          const vectors = await this.embedBatch(batch, signal);
          for (let i = 0; i < vectors.length; i++) out[start + i] = vectors[i];
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    const workers = Array.from({ length: Math.min(this.maxConcurrency, starts.length) }, worker);
    await Promise.all(workers);
    return out;
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.embedBatch([text], signal);
    return vector;
  }

  async health(): Promise<EmbedderHealth> {
    const started = Date.now();
    try {
      await this.embedBatch(['health check'], undefined, 0);
      return { ok: true, detail: `${this.id} at ${this.baseURL} answered in ${Date.now() - started} ms` };
    } catch (err) {
      return { ok: false, detail: err instanceof Error ? err.message : String(err) };
    }
  }

  /** One request (plus retries) for at most `batchSize` inputs; returns vectors in input order. */
  private async embedBatch(texts: string[], signal?: AbortSignal, maxRetries = this.maxRetries): Promise<Float32Array[]> {
    // Empty strings are rejected by OpenAI ("'$.input' is invalid"); a space embeds as "nothing".
    const input = texts.map((t) => (t.length === 0 ? ' ' : t.length > this.maxInputChars ? t.slice(0, this.maxInputChars) : t));
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      try {
        const response = await this.client.embeddings.create(
          {
            model: this.model,
            input,
            // 'float' rather than the SDK's default base64: several compatible servers only speak float.
            encoding_format: 'float',
            ...(this.sendDimensions ? { dimensions: this.dimensions } : {}),
          },
          { signal, timeout: this.timeoutMs, maxRetries: 0 },
        );
        return this.toVectors(response, texts.length);
      } catch (err) {
        if (err instanceof EmbeddingError) throw err;
        if (signal?.aborted || err instanceof openai().APIUserAbortError) {
          throw new EmbeddingError('aborted', `Embedding request to ${this.baseURL} was aborted`, { cause: err });
        }
        const failure = this.describe(err, Date.now() - started);
        if (!failure.retryable || attempt >= maxRetries) {
          throw new EmbeddingError(
            failure.code,
            `Embedding request to ${this.baseURL}/embeddings (model "${this.model}", ${texts.length} inputs) failed after ${attempt + 1} attempt(s): ${failure.reason}`,
            { cause: err },
          );
        }
        const requested = err instanceof openai().APIError ? retryAfterMs(err.headers) : undefined;
        const delay =
          requested !== undefined
            ? Math.min(requested, this.maxRetryAfterMs)
            : backoffDelayMs(attempt, { baseDelayMs: this.retryBaseDelayMs, maxDelayMs: this.retryMaxDelayMs });
        await sleep(delay, signal);
      }
    }
  }

  private toVectors(response: OpenAI.CreateEmbeddingResponse, expectedCount: number): Float32Array[] {
    const data = Array.isArray(response?.data) ? response.data : undefined;
    if (!data || data.length !== expectedCount) {
      throw new EmbeddingError(
        'bad_response',
        `Embeddings server at ${this.baseURL} returned ${data ? data.length : 'no'} embeddings for ${expectedCount} inputs (model "${this.model}")`,
      );
    }
    const out: Float32Array[] = new Array(expectedCount);
    data.forEach((item, position) => {
      const index = typeof item.index === 'number' ? item.index : position;
      const embedding: unknown = item.embedding;
      if (!Array.isArray(embedding) || index < 0 || index >= expectedCount || out[index]) {
        throw new EmbeddingError('bad_response', `Embeddings server at ${this.baseURL} returned a malformed item at position ${position}`);
      }
      if (embedding.length !== this.dimensions) throw new EmbeddingDimensionMismatchError(this.id, this.dimensions, embedding.length);
      out[index] = l2Normalize(Float32Array.from(embedding as number[]));
    });
    return out;
  }

  private describe(err: unknown, elapsedMs: number): { code: EmbeddingErrorCode; retryable: boolean; reason: string } {
    // The SDK recognises its own timeout abort by the error's name, which is lost when fetch's
    // DOMException comes from another realm (e.g. under Jest); the elapsed time is unambiguous.
    const timedOut = err instanceof openai().APIConnectionTimeoutError || (err instanceof openai().APIConnectionError && elapsedMs >= this.timeoutMs - 5);
    if (timedOut) return { code: 'timeout', retryable: true, reason: `timed out after ${this.timeoutMs} ms` };
    if (err instanceof openai().APIConnectionError) return { code: 'network', retryable: true, reason: `connection failed (${causeMessage(err)})` };
    if (err instanceof openai().APIError && typeof err.status === 'number') {
      const status = err.status;
      const reason = `HTTP ${status}: ${err.message}`;
      if (status === 429) return { code: 'rate_limited', retryable: true, reason };
      if (status >= 500) return { code: 'server_error', retryable: true, reason };
      if (status === 408 || status === 409) return { code: 'server_error', retryable: true, reason };
      if (status === 401 || status === 403) return { code: 'unauthorized', retryable: false, reason };
      return { code: 'bad_request', retryable: false, reason };
    }
    return { code: 'bad_response', retryable: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

function requirePositiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new EmbeddingError('config', `OpenAIEmbedder ${name} must be a positive integer, got ${value}`);
  return value;
}

function causeMessage(err: Error): string {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : err.message;
}
