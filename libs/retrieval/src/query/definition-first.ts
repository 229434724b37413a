import type { DefinitionHit } from '@sextant/contracts';
import { fileKind } from '../learning-to-rank/ranking-features';
import { isIdentifierLike } from '../tokenizer';

/** A name defined in more files than this says too little about where the query points. */
export const MAX_DEFINING_FILES = 2;

/**
 * The code identifiers a query names: `loadConfig`, `url_for`, `HTTPServer`, and the last part of
 * a dotted name (`Flask.make_response` → `make_response`). Plain words (`session`) are left out:
 * they name concepts as often as definitions.
 *
 * @example
 * queryIdentifiers('where is loadConfig, and who calls app.test_client?') // Set { 'loadConfig', 'test_client' }
 */
export function queryIdentifiers(query: string): Set<string> {
  const out = new Set<string>();
  for (const word of query.match(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g) ?? []) {
    const name = word.split('.').pop()!;
    // A dotted name is code whatever its last part looks like (`HistoryProfile.ranks`).
    const code = word.includes('.') || isIdentifierLike(name) || /[_$]/.test(name);
    if (name.length >= 3 && code && /[A-Za-z]/.test(name.replace(/^_+|_+$/g, ''))) out.add(name);
  }
  return out;
}

/** Words that open a lookup ("where is …", "find …", "how does … work"). */
const LOOKUP_OPENERS = new Set(['where', 'wheres', "where's", 'which', 'what', 'whats', "what's", 'how', 'find', 'locate', 'goto', 'definition', 'define', 'defined', 'implementation', 'source']);
/** Words that ask for a symbol's uses rather than its definition. */
const USE_WORDS = /\b(?:call(?:s|ed|ers?|ing)?|uses?|used|usages?|references?|referenced|imports?|imported|invoked?)\b/i;
/** Longest query read as a lookup; a commit message or report names identifiers in passing. */
const MAX_LOOKUP_WORDS = 10;

/**
 * Whether a query asks where code is defined: short, and either opening with a lookup word
 * ("where is loadConfig", "how does url_for build URLs") or naming nothing but identifiers
 * ("loadConfig", "SessionStore class"). Questions about uses ("who calls save_record") are not
 * lookups of the definition. Commit messages ("Fix url_for with anchors", "test
 * `same_origin` via public api") are not either: there the change's tests and docs count too.
 *
 * @example
 * asksWhereDefined('where is loadConfig') // true
 * asksWhereDefined('Fix url_for with anchors') // false
 */
export function asksWhereDefined(query: string): boolean {
  const words = query.trim().split(/[\s`'"()?,:;]+/).filter(Boolean);
  if (!words.length || words.length > MAX_LOOKUP_WORDS || USE_WORDS.test(query)) return false;
  const identifiers = queryIdentifiers(query);
  if (!identifiers.size) return false;
  if (LOOKUP_OPENERS.has(words[0].toLowerCase())) return true;
  const kinds = /^(?:the|a|an|function|method|class|type|interface|struct|def|fn|func|constant|variable)$/i;
  return words.every((w) => identifiers.has(w.split('.').pop()!) || kinds.test(w));
}

/**
 * The file ids that define a query identifier exactly, from the symbol source's reasons
 * (`symbol:exact:src/config.ts:loadConfig`), keeping only names defined in at most
 * {@link MAX_DEFINING_FILES} files.
 */
export function definingFiles(identifiers: ReadonlySet<string>, symbolHits: ReadonlyArray<{ id: string; reasons?: readonly string[] }>): Map<string, string> {
  const filesOf = new Map<string, Set<string>>();
  for (const hit of symbolHits) {
    for (const reason of hit.reasons ?? []) {
      if (!reason.startsWith('symbol:exact:')) continue;
      const name = reason.slice(reason.lastIndexOf(':') + 1).split('.').pop()!;
      if (!identifiers.has(name)) continue;
      (filesOf.get(name) ?? filesOf.set(name, new Set()).get(name)!).add(hit.id);
    }
  }
  const out = new Map<string, string>();
  for (const [name, files] of filesOf) if (files.size <= MAX_DEFINING_FILES) for (const id of files) if (!out.has(id)) out.set(id, name);
  return out;
}

/**
 * "where is loadConfig": the best-placed file that defines an identifier the query names (code
 * before tests) moves
 * to the top (with the first result's score, so scores stay in order); nothing else changes
 * order. The learned ranker, fitted on commits whose messages seldom name the code they change,
 * otherwise puts the test that calls the function twenty times above its one definition.
 *
 * @example
 * liftDefinitionFirst([{ id: 's', path: 'test/a.spec.ts', score: 0.9 }, { id: 'i', path: 'src/a.ts', score: 0.8 }], new Map([['i', 'loadConfig']]))
 * // [{ id: 'i', path: 'src/a.ts', score: 0.9, definition: { name: 'loadConfig', from: 2 } }, { id: 's', … }]
 */
export function liftDefinitionFirst<T extends { id: string; path: string; score: number }>(ranked: readonly T[], defining: ReadonlyMap<string, string>): Array<T & { definition?: DefinitionHit }> {
  // A test that defines a helper of the same name is not where the code lives.
  const code = ranked.findIndex((f) => defining.has(f.id) && fileKind(f.path) !== 'test');
  const j = code >= 0 ? code : ranked.findIndex((f) => defining.has(f.id));
  if (j < 0) return [...ranked];
  const lifted = { ...ranked[j], score: Math.max(ranked[j].score, ranked[0].score), definition: { name: defining.get(ranked[j].id)!, from: j + 1 } };
  return [lifted, ...ranked.slice(0, j), ...ranked.slice(j + 1)];
}
