/**
 * The one code-aware tokenizer Sextant uses everywhere: indexing, queries, FTS5 input
 * and sparse BM25 vectors. Identifiers are kept whole *and* split into their parts, so
 * `parseHttpResponse` matches the query "parse http response" and the query
 * "parseHttpResponse" alike.
 *
 * @example
 * tokenize('const userId = getUserById(id)')
 * // ['const', 'userid', 'user', 'id', 'getuserbyid', 'get', 'user', 'by', 'id', 'id']
 */
import { ENGLISH_STOP_WORDS } from './stop-words';

export interface TokenizeOptions {
  /** Drop English stop words that appear as plain words (never parts of identifiers). Use for natural-language queries. */
  removeStopWords?: boolean;
  /** Emit the sub-parts of compound identifiers (default true). */
  splitIdentifiers?: boolean;
  /** Tokens longer than this are dropped (hashes, base64 blobs). */
  maxTokenLength?: number;
}

const WORD = /[\p{L}_$][\p{L}\p{N}_$]*|\p{N}+(?:\.\p{N}+)*/gu;
const DEFAULT_MAX_TOKEN_LENGTH = 64;

/** Splits one identifier into lower-cased parts: `parseHTTPResponse_v2` -> ['parse', 'http', 'response', 'v2']. */
export function splitIdentifier(word: string): string[] {
  const parts: string[] = [];
  for (const piece of word.split(/[_$\-]+/)) {
    if (!piece) continue;
    const matches = piece.match(/\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|\p{L}+/gu);
    if (matches) for (const m of matches) parts.push(m.toLowerCase());
  }
  return parts;
}

/** True when a raw word looks like a code identifier rather than an English word. */
export function isIdentifierLike(word: string): boolean {
  return /[_$]/.test(word) || /\p{Ll}\p{Lu}/u.test(word) || /\p{Lu}{2,}\p{Ll}/u.test(word) || /\p{L}\p{N}|\p{N}\p{L}/u.test(word);
}

/** Turns text into the ordered list of index/query terms (with repeats, so callers can count term frequency). */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const { removeStopWords = false, splitIdentifiers = true, maxTokenLength = DEFAULT_MAX_TOKEN_LENGTH } = options;
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    if (raw.length > maxTokenLength) continue;
    const whole = raw.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
    if (!whole) continue;
    const identifier = isIdentifierLike(raw);
    if (!identifier && removeStopWords && ENGLISH_STOP_WORDS.has(whole)) continue;
    out.push(whole);
    if (identifier && splitIdentifiers) {
      const parts = splitIdentifier(raw);
      if (parts.length > 1) for (const p of parts) out.push(p);
    }
  }
  return out;
}

/** Term frequencies of a token list. */
export function termFrequencies(tokens: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}
