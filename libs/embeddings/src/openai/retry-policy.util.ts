import { EmbeddingError } from '../embedding.error';

export interface BackoffOptions {
  /** Delay before the first retry; doubles on every further retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Upper bound for the exponential delay. Default 8000 ms. */
  maxDelayMs?: number;
}

/**
 * Exponential backoff with jitter: `min(base * 2^attempt, max)` scaled by a random factor
 * in [0.5, 1], so clients that failed together do not retry together.
 *
 * @example
 * backoffDelayMs(0) // 250..500
 * backoffDelayMs(3, { baseDelayMs: 100 }) // 400..800
 */
export function backoffDelayMs(attempt: number, { baseDelayMs = 500, maxDelayMs = 8000 }: BackoffOptions = {}, random: () => number = Math.random): number {
  const ceiling = Math.min(baseDelayMs * 2 ** attempt, maxDelayMs);
  return ceiling * (0.5 + random() * 0.5);
}

/**
 * How long the server asked us to wait, from `retry-after-ms` (OpenAI) or `Retry-After`
 * (seconds or an HTTP date); undefined when absent or unparseable.
 *
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' })) // 2000
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with an `aborted` EmbeddingError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new EmbeddingError('aborted', 'Embedding was aborted', { cause: signal.reason }));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new EmbeddingError('aborted', 'Embedding was aborted', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
