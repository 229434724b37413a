/** Git trailer lines every tool writes the same way; other `Key: value` lines may be prose. */
const KNOWN_TRAILER = /^(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by|change-id|reviewed-on|pr-url):\s/i;
const CHERRY_PICK = /^\(cherry picked from commit [0-9a-f]+\)$/i;

/**
 * True for a well-known git trailer (`Signed-off-by: …`, `Co-authored-by: …`, `Change-Id: …`)
 * or cherry-pick note, leading and trailing spaces ignored.
 *
 * @example
 * isKnownTrailerLine('Co-authored-by: Ada <ada@example.com>') // true
 * isKnownTrailerLine('Note: the cache is per process') // false
 */
export function isKnownTrailerLine(line: string): boolean {
  const trimmed = line.trim();
  return KNOWN_TRAILER.test(trimmed) || CHERRY_PICK.test(trimmed);
}

/**
 * A query without the trailer lines of a pasted commit message. They name people and review
 * tools, not the change: left in, `Co-authored-by: Ada …` turns a one-line subject into a
 * two-paragraph query, and its name and e-mail match whatever else that person wrote. Past
 * tasks are imported without them, so a query stripped the same way reads like the history
 * the ranker learned from. The first line is never dropped: a search for the trailer itself
 * stays a search.
 *
 * @example
 * stripQueryTrailers('Fix cookie expiry\n\nCo-authored-by: Ada <ada@example.com>') // { text: 'Fix cookie expiry', dropped: 1 }
 */
export function stripQueryTrailers(query: string): { text: string; dropped: number } {
  const lines = query.split('\n');
  const first = lines.findIndex((l) => l.trim().length > 0);
  const kept = lines.filter((l, i) => i === first || !isKnownTrailerLine(l));
  const dropped = lines.length - kept.length;
  return dropped ? { text: kept.join('\n').trimEnd(), dropped } : { text: query, dropped: 0 };
}
