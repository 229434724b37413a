import type { PageQuery } from '@sextant/contracts';
import { DomainError, DomainErrorCode } from './domain-error';

/**
 * Opaque page positions for list routes (the position in the route's stable order), so
 * the format can change without breaking clients: they only pass `next_cursor` back.
 */
export function encodePageCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/** The offset a cursor stands for; a cursor this server did not hand out is a 400 (invalid_input). */
export function decodePageCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // falls through to the error below
  }
  throw new DomainError(DomainErrorCode.InvalidInput, 'cursor: not a cursor this server handed out (pass next_cursor back unchanged)');
}

/**
 * Cuts one page from rows fetched as `limit + 1` from `offset` (the extra row says whether
 * a next page exists).
 *
 * @example
 * const offset = decodePageCursor(q.cursor);
 * const { items, next_cursor } = pageFromRows(await repo.page({ offset, limit: q.limit + 1 }), q.limit, offset);
 */
export function pageFromRows<T>(rows: T[], limit: number, offset: number): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, next_cursor: rows.length > limit ? encodePageCursor(offset + items.length) : null };
}

/** One page of a list already in memory (small, bounded lists: repositories, keys, workspaces). */
export function pageOfList<T>(all: T[], query: PageQuery): { items: T[]; next_cursor: string | null } {
  const offset = decodePageCursor(query.cursor);
  return pageFromRows(all.slice(offset, offset + query.limit + 1), query.limit, offset);
}
