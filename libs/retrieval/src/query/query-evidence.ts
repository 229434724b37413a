import { isIdentifierLike, tokenize } from '../tokenizer';
import { ENGLISH_STOP_WORDS } from '../tokenizer/stop-words';

/** Where a query names code: a stack frame, a file path or a dotted module. */
export type MentionKind = 'frame' | 'path' | 'module';

/** One place a query points at, before it is matched to indexed files. */
export interface QueryMention {
  kind: MentionKind;
  /** A path-like string, `/`-separated, without line numbers (`flask/app.py`, `lib/router`). */
  path: string;
  /** The function or method a frame names, when it does. */
  symbol?: string;
}

/** What {@link extractQueryEvidence} found. */
export interface QueryEvidence {
  mentions: QueryMention[];
}

const SOURCE_EXT = '(?:py|pyi|js|jsx|mjs|cjs|ts|tsx|mts|cts|java|kt|go|rs|rb|php|cs|c|cc|cpp|h|hpp|swift|scala|vue|svelte)';
/** Python: `File "/x/y/flask/app.py", line 12, in wsgi_app`. */
const PY_FRAME = /File "([^"\n]{1,400})", line \d+(?:, in ([\w<>.$]+))?/g;
/** JS/TS: `at handle (/srv/app/lib/router/layer.js:95:5)` or `at /srv/app/lib/x.js:1:2`. */
const JS_FRAME = new RegExp(`at (?:(?:async )?([\\w$.<>\\[\\] ]{1,120}) \\()?(?:file://)?([^\\s()]{1,400}?\\.${SOURCE_EXT}):\\d+(?::\\d+)?\\)?`, 'g');
/** Java/Kotlin: `at com.acme.web.Router.handle(Router.java:42)`. */
const JAVA_FRAME = /at ([\w$]+(?:\.[\w$]+)+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|scala)):\d+\)/g;
/** Any path-looking token ending in a source extension: `src/flask/app.py`, `./lib/response.js:12`. */
const PATH_TOKEN = new RegExp(`(?:^|[\\s\`'"(\\[<,;=])((?:[\\w.@~-]+/)*[\\w.@-]+\\.${SOURCE_EXT})(?=$|[\\s\`'"):\\]>,;#]|:\\d)`, 'gm');
/** Dotted names with at least two parts: `flask.app.Flask.wsgi_app`, `requests.adapters`. */
const DOTTED = /(?<![\w./-])([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+)(?![\w/-]|\.\w)/g;

/**
 * Finds what a long, messy query (an issue report with a traceback, logs and code) says
 * about *where*: stack frames (Python, JavaScript/TypeScript, Java), file paths and dotted
 * module names. These are the strongest evidence a report carries; prose is weighed
 * separately by {@link weightQueryTerms}.
 *
 * @example
 * extractQueryEvidence('Traceback:\n  File "/venv/lib/flask/app.py", line 10, in wsgi_app').mentions
 * // [{ kind: 'frame', path: 'venv/lib/flask/app.py', symbol: 'wsgi_app' }]
 */
export function extractQueryEvidence(text: string): QueryEvidence {
  const mentions: QueryMention[] = [];
  const seen = new Set<string>();
  const add = (m: QueryMention) => {
    const path = normalisePath(m.path);
    if (!path) return;
    const key = `${m.kind}\u0000${path}\u0000${m.symbol ?? ''}`;
    if (seen.has(key) || mentions.length >= 200) return;
    seen.add(key);
    mentions.push({ ...m, path });
  };
  for (const m of text.matchAll(PY_FRAME)) add({ kind: 'frame', path: m[1], symbol: m[2] && !m[2].startsWith('<') ? m[2] : undefined });
  for (const m of text.matchAll(JS_FRAME)) add({ kind: 'frame', path: m[2], symbol: m[1]?.trim().split('.').pop() || undefined });
  for (const m of text.matchAll(JAVA_FRAME)) {
    const parts = m[1].split('.');
    add({ kind: 'frame', path: `${parts.slice(0, -1).join('/')}/${m[3]}`, symbol: m[2] });
  }
  const framePaths = new Set(mentions.map((m) => m.path));
  for (const m of text.matchAll(PATH_TOKEN)) if (!framePaths.has(normalisePath(m[1]))) add({ kind: 'path', path: m[1] });
  for (const m of text.matchAll(DOTTED)) {
    const name = m[1];
    // File names (`app.py`) and version-like or host-like strings are not modules.
    if (new RegExp(`\\.${SOURCE_EXT}$`).test(name) || /\.(?:com|org|io|net|md|txt|json|yml|yaml|toml|cfg|html|css)$/i.test(name)) continue;
    const parts = name.split('.');
    if (parts.some((p) => p.length === 0) || parts.length > 8) continue;
    add({ kind: 'module', path: parts.join('/') });
  }
  return { mentions };
}

function normalisePath(raw: string): string {
  let p = raw.replace(/\\/g, '/').replace(/^[a-z]:\//i, '/').replace(/^(?:file:\/\/)/, '');
  p = p.replace(/^(?:\.{1,2}\/)+/, '').replace(/^\/+/, '').replace(/\/{2,}/g, '/');
  return p.length > 0 && p.length <= 400 ? p : '';
}

/** Options for {@link weightQueryTerms}. */
export interface WeightQueryTermsOptions {
  /** Keep at most this many terms (default 32). */
  maxTerms?: number;
}

/** What {@link weightQueryTerms} kept. */
export interface WeightedQuery {
  /** The kept terms, best first, each once. */
  terms: string[];
  /** How many distinct terms the query had before the cut. */
  distinctTerms: number;
}

/**
 * Picks the terms a long query should be searched with, instead of OR-ing every word of
 * an issue report: each distinct term is weighed by how often it occurs (log-damped), how
 * code-like it is (identifiers and their parts outweigh prose), how early it first appears
 * (titles and first sentences state the problem; logs come later) and its length; stop
 * words and pure numbers are dropped. Short queries come back whole.
 *
 * @example
 * weightQueryTerms('Session cookie is not refreshed\n\n...long log...', { maxTerms: 3 }).terms // ['session', 'cookie', 'refreshed']
 */
export function weightQueryTerms(text: string, options: WeightQueryTermsOptions = {}): WeightedQuery {
  const { maxTerms = 32 } = options;
  const stats = new Map<string, { tf: number; first: number; code: boolean }>();
  let position = 0;
  const words = text.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [];
  for (const word of words) {
    position += 1;
    const code = isIdentifierLike(word) || /[_$]/.test(word);
    for (const term of tokenize(word, { removeStopWords: true })) {
      if (term.length < 2 || ENGLISH_STOP_WORDS.has(term)) continue;
      const s = stats.get(term);
      if (s) {
        s.tf += 1;
        s.code ||= code;
      } else stats.set(term, { tf: 1, first: position, code });
    }
  }
  const total = Math.max(1, position);
  const scored = [...stats.entries()].map(([term, s]) => {
    const early = 1 - 0.5 * (s.first / total);
    const weight = (1 + Math.log(s.tf)) * (s.code ? 1.6 : 1) * early * Math.min(1.3, 0.7 + term.length / 12);
    return { term, weight, first: s.first };
  });
  scored.sort((a, b) => b.weight - a.weight || a.first - b.first || (a.term < b.term ? -1 : 1));
  return { terms: scored.slice(0, maxTerms).map((s) => s.term), distinctTerms: scored.length };
}

/** Longest first paragraph {@link firstParagraph} treats as a title. */
export const MAX_TITLE_CHARS = 300;

/**
 * The title of a query that has one: its first line, when a blank line and more text follow it
 * (an issue's title, a commit's subject), or when it reads as a heading and at least twice as
 * much text follows on the next lines (some trackers export an issue as title, newline, body;
 * a first line ending in `:` `,` `;` or an open bracket is a traceback header, a greeting or
 * code, not a title). Null for one-line queries and first lines over {@link MAX_TITLE_CHARS}.
 *
 * @example
 * firstParagraph('Cookies vanish behind a proxy\n\nTwo Cookie headers arrive...') // 'Cookies vanish behind a proxy'
 * firstParagraph('Cookies vanish behind a proxy\nTwo Cookie headers arrive; the second is lost.') // 'Cookies vanish behind a proxy'
 * firstParagraph('validate_token') // null
 */
export function firstParagraph(query: string): string | null {
  const text = query.trim();
  const newline = text.indexOf('\n');
  if (newline < 0) return null;
  const head = text.slice(0, newline).trim();
  const after = text.slice(newline + 1);
  const rest = after.trim();
  if (!head || !rest || head.length > MAX_TITLE_CHARS) return null;
  if (/^[ \t]*\n/.test(after)) return head;
  return rest.length >= 2 * head.length && !/[:,;([{]$/.test(head) ? head : null;
}
