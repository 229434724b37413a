import type { KeywordMode } from '@sextant/retrieval';
import { tokenize } from '@sextant/retrieval';

/**
 * Builds an FTS5 MATCH expression from user text. Every term goes through the shared tokenizer
 * and is emitted as a double-quoted string, so user input can never inject FTS5 syntax
 * (NEAR, column filters, `*`, `^`, parentheses). Returns null when nothing searchable remains.
 *
 * PHRASE keeps stop words (documents keep them too, so "get the user" must match in order);
 * AND/OR drop them, as every query does.
 */
export function buildFtsQuery(query: string, mode: KeywordMode): string | null {
  const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
  if (mode === 'phrase') {
    const tokens = tokenize(query);
    return tokens.length ? quote(tokens.join(' ')) : null;
  }
  const terms = [...new Set(tokenize(query, { removeStopWords: true }))];
  if (!terms.length) return null;
  return terms.map(quote).join(mode === 'or' ? ' OR ' : ' AND ');
}
