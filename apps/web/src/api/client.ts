import { getApiKey } from './api-key.store';

/** A non-2xx answer from the API, with the `error` code and `message` of its JSON body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Send this key instead of the stored one (used to check a key before storing it). */
  key?: string | null;
}

/**
 * JSON request to the Sextant API on the same origin, with `Authorization: Bearer <key>`
 * when a key is stored.
 *
 * @example
 * const { repositories } = await api<{ repositories: Repository[] }>('/v1/repos');
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const key = options.key === undefined ? getApiKey() : options.key;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal: options.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'Cannot reach the Sextant API.');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* a proxy's HTML error page */
  }
  if (!res.ok) {
    // Problem details (RFC 9457): `code` is stable, `detail` says what to do, `title` summarises.
    const body = (json ?? {}) as { code?: string; detail?: string; title?: string };
    const message = body.detail ?? body.title;
    const retry = res.headers.get('Retry-After');
    throw new ApiError(res.status, body.code ?? `http_${res.status}`, (message ?? `${res.status} ${res.statusText}`) + (res.status === 429 && retry ? ` (retry in ${retry} s)` : ''));
  }
  return json as T;
}

export const isUnauthenticated = (err: unknown) => err instanceof ApiError && err.status === 401;
export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** Readable one-line text for any error a query or mutation throws. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.status === 403 ? `Not allowed: ${err.message}` : err.message;
  return err instanceof Error ? err.message : String(err);
}
