/** How long start-up waits for Qdrant to answer before giving up with a message. */
const PREFLIGHT_TIMEOUT_MS = 5000;

/**
 * Checks that the Qdrant at `url` answers before anything is built on it, so an unreachable
 * `QDRANT_URL` stops start-up with one line saying what to do, not a stack trace from deep in
 * dependency injection.
 *
 * @example
 * await assertQdrantReachable('http://qdrant:6333', process.env.QDRANT_API_KEY);
 */
export async function assertQdrantReachable(url: string, apiKey?: string): Promise<void> {
  let status: number;
  try {
    const res = await fetch(new URL('/collections', url), { headers: apiKey ? { 'api-key': apiKey } : {}, signal: AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS) });
    status = res.status;
    await res.body?.cancel();
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${PREFLIGHT_TIMEOUT_MS / 1000} s` : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new Error(`Qdrant at ${url} is not reachable (${reason}): start it, fix QDRANT_URL, or unset QDRANT_URL to use the embedded vector store`);
  }
  if (status === 401 || status === 403) throw new Error(`Qdrant at ${url} refused the API key (HTTP ${status}): check QDRANT_API_KEY`);
  if (status >= 400) throw new Error(`Qdrant at ${url} answered HTTP ${status} to GET /collections: is QDRANT_URL the Qdrant REST port (6333)?`);
}
