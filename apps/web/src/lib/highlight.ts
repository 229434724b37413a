/**
 * A small, safe syntax highlighter: a single-pass scanner that splits code into typed
 * tokens (keyword, string, comment, number, plain…) for TS/JS, Python, Go, Java and Rust.
 * It never produces HTML — callers render token text as React text nodes, so any code
 * is shown verbatim and escaped. The concatenated token texts always equal the input.
 *
 * @example
 * highlightLines('const x = 1; // one', 'typescript')
 * // [[{type:'keyword',text:'const'},{type:'plain',text:' x = '},{type:'number',text:'1'},…]]
 */

export type TokenType = 'keyword' | 'string' | 'comment' | 'number' | 'type' | 'plain';
export interface Token {
  type: TokenType;
  text: string;
}

interface LanguageSpec {
  keywords: ReadonlySet<string>;
  lineComments: readonly string[];
  block?: readonly [string, string];
  /** String openers, longest first; each closes with the same text. */
  quotes: readonly string[];
  /** Quotes whose strings may span lines (template literals, raw strings, triple quotes). */
  multiline: ReadonlySet<string>;
  /** Capitalised identifiers are types (Go/Java/Rust/TS conventions). */
  capitalTypes: boolean;
}

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

const JS_KEYWORDS =
  'async await break case catch class const continue debugger default delete do else enum export extends false finally for from function get if implements import in instanceof interface let new null of return set static super switch this throw true try typeof undefined var void while with yield';
const TS_EXTRA = 'abstract any as asserts bigint boolean declare infer is keyof module namespace never number object override private protected public readonly satisfies string symbol type unique unknown';

const SPECS: Record<string, LanguageSpec> = {
  javascript: { keywords: words(JS_KEYWORDS), lineComments: ['//'], block: ['/*', '*/'], quotes: ['`', '"', "'"], multiline: new Set(['`']), capitalTypes: true },
  typescript: { keywords: words(`${JS_KEYWORDS} ${TS_EXTRA}`), lineComments: ['//'], block: ['/*', '*/'], quotes: ['`', '"', "'"], multiline: new Set(['`']), capitalTypes: true },
  python: {
    keywords: words('False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda match case nonlocal not or pass raise return self try while with yield'),
    lineComments: ['#'],
    quotes: ['"""', "'''", '"', "'"],
    multiline: new Set(['"""', "'''"]),
    capitalTypes: true,
  },
  go: {
    keywords: words('break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float32 float64 string bool byte rune error any'),
    lineComments: ['//'],
    block: ['/*', '*/'],
    quotes: ['`', '"', "'"],
    multiline: new Set(['`']),
    capitalTypes: false,
  },
  java: {
    keywords: words('abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new null package private protected public record return short static strictfp super switch synchronized this throw throws transient true false try var void volatile while yield'),
    lineComments: ['//'],
    block: ['/*', '*/'],
    quotes: ['"""', '"', "'"],
    multiline: new Set(['"""']),
    capitalTypes: true,
  },
  rust: {
    keywords: words('as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str'),
    lineComments: ['//'],
    block: ['/*', '*/'],
    quotes: ['"'],
    multiline: new Set(['"']),
    capitalTypes: true,
  },
};

const ALIASES: Record<string, string> = { ts: 'typescript', tsx: 'typescript', typescript: 'typescript', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', javascript: 'javascript', py: 'python', python: 'python', go: 'go', golang: 'go', java: 'java', rs: 'rust', rust: 'rust' };

/** The highlighter's language for an index language name or a file path, or null (plain text). */
export function languageFor(lang: string | null | undefined, path?: string): string | null {
  const byLang = lang ? ALIASES[lang.toLowerCase()] : undefined;
  if (byLang) return byLang;
  const ext = path?.split('.').pop()?.toLowerCase();
  return ext ? (ALIASES[ext] ?? null) : null;
}

const IDENT_START = /[A-Za-z_$]/;
const IDENT = /[A-Za-z0-9_$]/;
const NUMBER = /^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[a-zA-Z0-9_]*/;

/** Tokens of `code` in `lang` (see languageFor); unknown languages give one plain token. */
export function tokenize(code: string, lang: string | null): Token[] {
  const spec = lang ? SPECS[lang] : undefined;
  if (!spec) return code ? [{ type: 'plain', text: code }] : [];
  const out: Token[] = [];
  let plain = '';
  const emit = (type: TokenType, text: string) => {
    if (plain) out.push({ type: 'plain', text: plain });
    plain = '';
    out.push({ type, text });
  };
  let i = 0;
  const n = code.length;
  while (i < n) {
    const c = code[i];
    const lc = spec.lineComments.find((m) => code.startsWith(m, i));
    if (lc) {
      const end = code.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      emit('comment', code.slice(i, stop));
      i = stop;
      continue;
    }
    if (spec.block && code.startsWith(spec.block[0], i)) {
      const end = code.indexOf(spec.block[1], i + spec.block[0].length);
      const stop = end < 0 ? n : end + spec.block[1].length;
      emit('comment', code.slice(i, stop));
      i = stop;
      continue;
    }
    // Rust lifetimes ('a) and char literals share the quote: only treat 'x' / '\n' as strings.
    const quote = spec.quotes.find((q) => code.startsWith(q, i));
    if (quote && !(lang === 'rust' && c === "'")) {
      const stop = scanString(code, i, quote, spec.multiline.has(quote), !(lang === 'go' && quote === '`'));
      emit('string', code.slice(i, stop));
      i = stop;
      continue;
    }
    if (lang === 'rust' && c === "'" && /^'(?:\\.|[^\\'\n])'/.test(code.slice(i, i + 4))) {
      const m = /^'(?:\\.|[^\\'\n])'/.exec(code.slice(i, i + 4))!;
      emit('string', m[0]);
      i += m[0].length;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(code[i + 1] ?? ''))) {
      const prev = i > 0 ? code[i - 1] : '';
      if (!IDENT.test(prev)) {
        const m = NUMBER.exec(code.slice(i, i + 64));
        if (m) {
          emit('number', m[0]);
          i += m[0].length;
          continue;
        }
      }
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < n && IDENT.test(code[j])) j++;
      const word = code.slice(i, j);
      if (spec.keywords.has(word)) emit('keyword', word);
      else if (spec.capitalTypes && /^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$/.test(word)) emit('type', word);
      else plain += word;
      i = j;
      continue;
    }
    plain += c;
    i++;
  }
  if (plain) out.push({ type: 'plain', text: plain });
  return out;
}

function scanString(code: string, start: number, quote: string, multiline: boolean, escapes: boolean): number {
  let i = start + quote.length;
  while (i < code.length) {
    if (escapes && code[i] === '\\') {
      i += 2;
      continue;
    }
    if (code.startsWith(quote, i)) return i + quote.length;
    if (code[i] === '\n' && !multiline) return i; // unterminated: stop at the line end
    i++;
  }
  return code.length;
}

/** Tokens split into lines (multi-line comments and strings are cut at each newline). */
export function highlightLines(code: string, lang: string | null): Token[][] {
  const lines: Token[][] = [[]];
  for (const t of tokenize(code, lang)) {
    const parts = t.text.split('\n');
    parts.forEach((part, k) => {
      if (k > 0) lines.push([]);
      if (part) lines[lines.length - 1].push({ type: t.type, text: part });
    });
  }
  return lines;
}
