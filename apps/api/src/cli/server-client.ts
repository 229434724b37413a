import type { AppConfig } from '../config/config.schema';
import { acquireDataDir, currentWriter, DataDirBusyError, type DataDirLease } from '../storage/data-dir-writer';
import { ExitCode, fail } from './cli-context';

/** An HTTP error from the server, with its status and message. */
export class ServerRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The problem's `code` (e.g. `ask_disabled`), when the server sent problem details. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ServerRequestError';
  }
}

/**
 * The running server that owns the data dir, reached over its HTTP API with the operator
 * token from the data dir's writer file. CLI commands that write go through it, so the server
 * sees every change at once and nothing is written behind its back.
 */
export class ServerClient {
  private constructor(
    readonly url: string,
    private readonly token: string,
    private readonly workspace: string,
  ) {}

  /** The server that owns `config`'s data dir and listens, or null when none runs. */
  static find(config: AppConfig, workspace: string): ServerClient | null {
    const writer = currentWriter(config.storage.dataDir);
    if (!writer || writer.role !== 'server' || !writer.url || !writer.token) return null;
    return new ServerClient(writer.url, writer.token, workspace);
  }

  /** Headers that make a request act as this machine's operator in the chosen workspace. */
  headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}`, 'X-Sextant-Workspace': this.workspace };
  }

  async request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', route: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const res = await this.send(method, route, body, signal);
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) throw ServerClient.refusal(res.status, parsed, `${method} ${route}`);
    return parsed as T;
  }

  /** The raw response (a stream to read, e.g. server-sent events); refusals are thrown as for {@link request}. */
  async open(route: string, signal?: AbortSignal): Promise<Response> {
    const res = await this.send('GET', route, undefined, signal);
    if (!res.ok) throw ServerClient.refusal(res.status, await res.json().catch(() => undefined), `GET ${route}`);
    return res;
  }

  private async send(method: string, route: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    try {
      return await fetch(new URL(route, this.url), {
        method,
        headers: { ...this.headers(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ServerRequestError(0, `the server at ${this.url} that owns this data dir does not answer (${(err as Error).message}); is it still starting or stuck?`);
    }
  }

  private static refusal(status: number, body: unknown, what: string): ServerRequestError {
    const problem = body as { detail?: string; code?: string } | undefined;
    return new ServerRequestError(status, problem?.detail ?? `${what} answered ${status}`, problem?.code);
  }

  /**
   * Every item of a paged list route, following `next_cursor` to the end.
   *
   * @example
   * const repositories = await server.listAll<Repository>('/v1/repos', 'repositories');
   */
  async listAll<T>(route: string, field: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const url = new URL(route, this.url);
      url.searchParams.set('limit', '500');
      if (cursor) url.searchParams.set('cursor', cursor);
      const page: Record<string, unknown> = await this.request<Record<string, unknown>>('GET', `${url.pathname}${url.search}`);
      items.push(...((page[field] as T[] | undefined) ?? []));
      cursor = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    } while (cursor);
    return items;
  }
}

/** Runs requests to the server, turning its refusals into the CLI's exit codes (4xx: bad input, else failure). */
export async function viaServer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ServerRequestError) fail(err.message, err.status >= 400 && err.status < 500 ? ExitCode.BadInput : ExitCode.Failure);
    throw err;
  }
}

/**
 * Runs a write in this process while holding the data dir (no server runs on it); another
 * writer gets a message naming it and exit code 4, never a database constraint error.
 */
export async function withDataDirLease<T>(config: AppConfig, command: string, run: () => Promise<T>): Promise<T> {
  let lease: DataDirLease;
  try {
    lease = acquireDataDir(config.storage.dataDir, { role: 'cli', command });
  } catch (err) {
    if (err instanceof DataDirBusyError) fail(err.message, ExitCode.Busy);
    throw err;
  }
  try {
    return await run();
  } finally {
    lease.release();
  }
}
