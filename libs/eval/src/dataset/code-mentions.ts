import { isIdentifierLike } from '@sextant/retrieval';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

/** Code names a query text mentions: candidate identifiers and file names/paths. */
export interface CodeMentions {
  /** Words that look like code: identifier-like words, words in `code spans`, `calls()` and `Member.access` parts. */
  identifiers: string[];
  /** Tokens that look like file names or paths (`session.py`, `lib/router/index.js`). */
  files: string[];
}

const WORD = /[A-Za-z_$][\w$]*/g;
const VERSION = /^v?\d+(?:\.\d+)*[a-z]?$/i;
const FILE_TOKEN = /(?:[\w.@-]+\/)*[\w@-][\w.@-]*\.[A-Za-z][\w]{0,9}\b/g;

/**
 * Extracts the code names a commit message or query mentions. Bare words count only
 * when `isIdentifierLike` (camelCase, snake_case, ...); any word inside backticks, before
 * `(`, or around a `.` member access counts too, since the syntax marks it as code.
 *
 * @example
 * codeMentions('Fix `render` crash in Router.handle for session.py')
 * // { identifiers: ['render', 'Router', 'handle'], files: ['session.py', 'Router.handle'] }
 */
export function codeMentions(text: string): CodeMentions {
  const identifiers = new Set<string>();
  for (const span of text.matchAll(/`([^`]+)`/g)) for (const w of span[1].match(WORD) ?? []) if (w.length > 1) identifiers.add(w);
  for (const call of text.matchAll(/([A-Za-z_$][\w$]*)\(/g)) if (call[1].length > 1) identifiers.add(call[1]);
  for (const member of text.matchAll(/\b([A-Za-z_$][\w$]+)\.([A-Za-z_$][\w$]+)\b/g)) {
    identifiers.add(member[1]);
    identifiers.add(member[2]);
  }
  for (const w of text.match(WORD) ?? []) if (!VERSION.test(w) && isIdentifierLike(w)) identifiers.add(w);
  const files = new Set<string>();
  for (const f of text.match(FILE_TOKEN) ?? []) files.add(f.replace(/^\.\//, ''));
  return { identifiers: [...identifiers], files: [...files] };
}

/** Options for {@link findIdentifiersInCorpus}. */
export interface FindIdentifiersOptions {
  /** Files larger than this are not scanned (default 1 MiB: minified bundles, data dumps). */
  maxFileBytes?: number;
}

/**
 * Which of the candidate words occur as whole words in the corpus files (case-sensitive,
 * binary files skipped). Scans each file once, so cost is linear in corpus size no matter
 * how many candidates.
 *
 * @example
 * const found = await findIdentifiersInCorpus('ds/corpus', corpusPaths, new Set(['parseHttpResponse']));
 */
export async function findIdentifiersInCorpus(corpusDir: string, paths: readonly string[], candidates: ReadonlySet<string>, options: FindIdentifiersOptions = {}): Promise<Set<string>> {
  const { maxFileBytes = 1024 * 1024 } = options;
  const found = new Set<string>();
  if (candidates.size === 0) return found;
  for (const rel of paths) {
    if (found.size === candidates.size) break;
    let handle;
    try {
      handle = await open(join(corpusDir, rel), 'r');
      const { size } = await handle.stat();
      if (size > maxFileBytes) continue;
      const buf = await handle.readFile();
      if (buf.subarray(0, 8000).includes(0)) continue; // binary
      for (const w of buf.toString('utf8').match(WORD) ?? []) if (candidates.has(w)) found.add(w);
    } catch {
      // An unreadable file only means fewer identifiers found; never fail the dataset for it.
    } finally {
      await handle?.close();
    }
  }
  return found;
}
