/** Polls `probe` until it returns a truthy value or the deadline passes. */
export async function waitFor<T>(probe: () => Promise<T> | T, { timeoutMs = 20000, intervalMs = 50, what = 'condition' } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last value: ${JSON.stringify(last)})`);
}
