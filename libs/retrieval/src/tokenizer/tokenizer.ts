/**
 * The one code-aware tokenizer Sextant uses everywhere: indexing, queries, FTS5 input,
 * sparse BM25 vectors and the hash embedder. Identifiers are kept whole *and* split into
 * their parts, so `parseHttpResponse` matches the query "parse http response" and the
 * query "parseHttpResponse" alike.
 *
 * @example
 * tokenize('const userId = getUserById(id)')
 * // ['const', 'userid', 'user', 'id', 'getuserbyid', 'get', 'user', 'by', 'id', 'id']
 * tokenize('how does the cache store the_value', { removeStopWords: true })
 * // ['cache', 'store', 'the_value', 'the', 'value']
 */
import { ENGLISH_STOP_WORDS } from './stop-words';

export interface TokenizeOptions {
  /** Drop English stop words that appear as plain words (never identifiers or their parts). Use for natural-language queries. */
  removeStopWords?: boolean;
  /** Emit the sub-parts of compound identifiers (default true). */
  splitIdentifiers?: boolean;
  /** Raw words longer than this are dropped entirely (hashes, base64 blobs, minified code). Default 64. */
  maxTokenLength?: number;
}

/**
 * What a token emitted by {@link visitTokens} stands for:
 * - `word`: a plain word or number (`cache`, `3.14`),
 * - `identifier`: a whole compound identifier, lower-cased (`getuserbyid`, `the_value`),
 * - `part`: one part of the preceding compound identifier (`get`, `user`, `by`, `id`).
 */
export type TokenKind = 'word' | 'identifier' | 'part';

const WORD = /[\p{L}_$][\p{L}\p{N}_$]*|\p{N}+(?:\.\p{N}+)*/gu;
/** Same pattern, anchored at `lastIndex`; used for the rare words that contain non-ASCII characters. */
const WORD_AT = /[\p{L}_$][\p{L}\p{N}_$]*|\p{N}+(?:\.\p{N}+)*/uy;
const DEFAULT_MAX_TOKEN_LENGTH = 64;

// ASCII character classes for the fast path (plain loops are ~5x faster than Unicode-property regexes).
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const CONNECTOR = 4; // `_` and `$`
const ASCII_CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) ASCII_CLASS[c] = LOWER;
for (let c = 65; c <= 90; c++) ASCII_CLASS[c] = UPPER;
for (let c = 48; c <= 57; c++) ASCII_CLASS[c] = DIGIT;
ASCII_CLASS[95] = CONNECTOR;
ASCII_CLASS[36] = CONNECTOR;
const DOT = 46;

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

/**
 * Streams the tokens of `text` to `visit` without building an array; {@link tokenize} is
 * this plus an array. Callers that weight tokens differently by kind (the hash embedder)
 * use it directly.
 *
 * @example
 * visitTokens('getUserById', (token, kind) => console.log(kind, token));
 * // identifier getuserbyid / part get / part user / part by / part id
 */
export function visitTokens(text: string, visit: (token: string, kind: TokenKind) => void, options: TokenizeOptions = {}): void {
  const { removeStopWords = false, splitIdentifiers = true, maxTokenLength = DEFAULT_MAX_TOKEN_LENGTH } = options;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      i = visitUnicodeWord(text, i, visit, removeStopWords, splitIdentifiers, maxTokenLength);
      continue;
    }
    const cls = ASCII_CLASS[c];
    if (cls === OTHER) {
      i++;
      continue;
    }
    const start = i;
    i++;
    if (cls === DIGIT) {
      // \p{N}+(?:\.\p{N}+)*
      while (i < n && ASCII_CLASS[text.charCodeAt(i)] === DIGIT) i++;
      while (i + 1 < n && text.charCodeAt(i) === DOT && ASCII_CLASS[text.charCodeAt(i + 1)] === DIGIT) {
        i += 2;
        while (i < n && ASCII_CLASS[text.charCodeAt(i)] === DIGIT) i++;
      }
    } else {
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d >= 128 || ASCII_CLASS[d] === OTHER) break;
        i++;
      }
    }
    if (touchesNonAscii(text, i, cls === DIGIT)) {
      i = visitUnicodeWord(text, start, visit, removeStopWords, splitIdentifiers, maxTokenLength);
      continue;
    }
    if (i - start > maxTokenLength) continue;
    visitAsciiWord(text, start, i, visit, removeStopWords, splitIdentifiers);
  }
}

/** Turns text into the ordered list of index/query terms (with repeats, so callers can count term frequency). */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const out: string[] = [];
  visitTokens(text, (token) => out.push(token), options);
  return out;
}

/** Term frequencies of a token list. */
export function termFrequencies(tokens: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/** Whether the ASCII scan that stopped at `end` may have cut a word the Unicode pattern would continue. */
function touchesNonAscii(text: string, end: number, numeric: boolean): boolean {
  if (end >= text.length) return false;
  const d = text.charCodeAt(end);
  if (d >= 128) return true;
  return numeric && d === DOT && end + 1 < text.length && text.charCodeAt(end + 1) >= 128;
}

function visitAsciiWord(
  text: string,
  start: number,
  end: number,
  visit: (token: string, kind: TokenKind) => void,
  removeStopWords: boolean,
  splitIdentifiers: boolean,
): void {
  // One pass decides isIdentifierLike (same rules as the exported regex version).
  let identifier = false;
  let prev = OTHER;
  let upperRun = 0;
  for (let k = start; k < end; k++) {
    const cls = ASCII_CLASS[text.charCodeAt(k)];
    if (cls === CONNECTOR) identifier = true;
    else if (cls === UPPER && prev === LOWER) identifier = true;
    else if (cls === LOWER && upperRun >= 2) identifier = true;
    else if ((cls === DIGIT && (prev === LOWER || prev === UPPER)) || ((cls === LOWER || cls === UPPER) && prev === DIGIT)) identifier = true;
    if (identifier) break;
    upperRun = cls === UPPER ? upperRun + 1 : 0;
    prev = cls;
  }
  let a = start;
  let b = end;
  while (a < b && ASCII_CLASS[text.charCodeAt(a)] === CONNECTOR) a++;
  while (b > a && ASCII_CLASS[text.charCodeAt(b - 1)] === CONNECTOR) b--;
  if (a === b) return;
  const whole = text.slice(a, b).toLowerCase();
  if (!identifier) {
    if (removeStopWords && ENGLISH_STOP_WORDS.has(whole)) return;
    visit(whole, 'word');
    return;
  }
  visit(whole, 'identifier');
  if (splitIdentifiers) visitAsciiParts(text, start, end, visit);
}

/** Emits the parts of an ASCII identifier exactly as {@link splitIdentifier} would, but only when there are two or more. */
function visitAsciiParts(text: string, start: number, end: number, visit: (token: string, kind: TokenKind) => void): void {
  let first = -1;
  let firstEnd = -1;
  let count = 0;
  const emit = (s: number, e: number): void => {
    count++;
    if (count === 1) {
      first = s;
      firstEnd = e;
      return;
    }
    if (count === 2) visit(text.slice(first, firstEnd).toLowerCase(), 'part');
    visit(text.slice(s, e).toLowerCase(), 'part');
  };
  let p = start;
  while (p < end) {
    const cls = ASCII_CLASS[text.charCodeAt(p)];
    if (cls === CONNECTOR) {
      p++;
      continue;
    }
    let q = p + 1;
    if (cls === DIGIT) {
      while (q < end && ASCII_CLASS[text.charCodeAt(q)] === DIGIT) q++;
    } else if (cls === LOWER) {
      while (q < end && ASCII_CLASS[text.charCodeAt(q)] === LOWER) q++;
    } else {
      while (q < end && ASCII_CLASS[text.charCodeAt(q)] === UPPER) q++;
      const followedByLower = q < end && ASCII_CLASS[text.charCodeAt(q)] === LOWER;
      if (followedByLower && q - p >= 2) {
        q--; // acronym ends before the capital that starts the next word: HTTPResponse -> HTTP | Response
      } else if (followedByLower) {
        while (q < end && ASCII_CLASS[text.charCodeAt(q)] === LOWER) q++;
      }
    }
    emit(p, q);
    p = q;
  }
}

function visitUnicodeWord(
  text: string,
  start: number,
  visit: (token: string, kind: TokenKind) => void,
  removeStopWords: boolean,
  splitIdentifiers: boolean,
  maxTokenLength: number,
): number {
  WORD_AT.lastIndex = start;
  const m = WORD_AT.exec(text);
  if (!m) {
    const c = text.charCodeAt(start);
    return start + (c >= 0xd800 && c <= 0xdbff && start + 1 < text.length ? 2 : 1);
  }
  const raw = m[0];
  const next = start + raw.length;
  if (raw.length > maxTokenLength) return next;
  const whole = raw.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
  if (!whole) return next;
  const identifier = isIdentifierLike(raw);
  if (!identifier) {
    if (!(removeStopWords && ENGLISH_STOP_WORDS.has(whole))) visit(whole, 'word');
    return next;
  }
  visit(whole, 'identifier');
  if (splitIdentifiers) {
    const parts = splitIdentifier(raw);
    if (parts.length > 1) for (const part of parts) visit(part, 'part');
  }
  return next;
}

