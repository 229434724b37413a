import { z } from 'zod';

/**
 * Query fields of every list route: `limit` items at a time, and `cursor` = the
 * `next_cursor` of the previous page (opaque; null on the last page).
 *
 * @example
 * export const ListReposQuerySchema = z.object({ ...pageQueryShape(100, 500) }).strict();
 */
export function pageQueryShape(defaultLimit: number, maxLimit: number) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit).describe(`items per page (1..${maxLimit}, default ${defaultLimit})`),
    cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page, passed back unchanged'),
  };
}

/** `next_cursor` of a list response: pass it as `cursor` for the next page; null on the last page. */
export const NextCursorSchema = z.string().nullable().describe('pass as `cursor` for the next page; null on the last page');

/** A page query after validation. */
export interface PageQuery {
  limit: number;
  cursor?: string;
}
