import { visitTokens } from '../tokenizer';

/** Queries with more words than this are prose (issue reports, pasted messages): some unknown words are expected there. */
export const UNKNOWN_WORDS_MAX_QUERY_WORDS = 8;

/**
 * The query's words that occur nowhere in the workspace: not in any indexed file (path or
 * text) nor in any past task. A compound identifier counts as known when it occurs whole or
 * most of its parts do (`parseHttpResponse` is known in a codebase of `parse`, `http`,
 * `response`). Numbers and stop words are not words here. `known` answers for one
 * lower-cased term.
 *
 * @example
 * unknownQueryWords('kubernetes helm chart', (t) => t === 'chart')
 * // { words: ['kubernetes', 'helm', 'chart'], unknown: ['kubernetes', 'helm'] }
 */
export function unknownQueryWords(query: string, known: (term: string) => boolean): { words: string[]; unknown: string[] } {
  const words: string[] = [];
  const unknown = new Set<string>();
  const seen = new Set<string>();
  let identifier: { whole: string; known: boolean; parts: number; knownParts: number } | undefined;
  const finish = () => {
    if (!identifier) return;
    if (!identifier.known && identifier.knownParts * 2 <= identifier.parts) unknown.add(identifier.whole);
    identifier = undefined;
  };
  visitTokens(
    query,
    (token, kind) => {
      if (kind === 'part') {
        if (identifier) {
          identifier.parts += 1;
          if (known(token)) identifier.knownParts += 1;
        }
        return;
      }
      finish();
      if (/^[\d.]+$/.test(token) || seen.has(token)) return;
      seen.add(token);
      words.push(token);
      if (kind === 'identifier') identifier = { whole: token, known: known(token), parts: 0, knownParts: 0 };
      else if (!known(token)) unknown.add(token);
    },
    { removeStopWords: true },
  );
  finish();
  return { words, unknown: [...unknown] };
}

/**
 * Whether a short query is mostly words the workspace has never seen (more than half of them),
 * so whatever it returns matched only the rest: "kubernetes helm chart" in a codebase that
 * has charts but no Kubernetes. Half is not enough: commits such as "docs: add headline
 * sponsors" name something new and still have answers (4 of axios's first 200 later commits).
 */
export function mostlyUnknownWords(query: string, known: (term: string) => boolean): string[] | undefined {
  const { words, unknown } = unknownQueryWords(query, known);
  if (!unknown.length || words.length > UNKNOWN_WORDS_MAX_QUERY_WORDS) return undefined;
  return unknown.length * 2 > words.length ? unknown : undefined;
}
