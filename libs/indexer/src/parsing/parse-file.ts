import type Parser from 'tree-sitter';
import type { ParsedLanguage } from '../language/language';
import { parserFor } from './parser-registry';

/** tree-sitter gave up on a parse that ran past its `timeoutMs`. */
export class ParseTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`parse took longer than ${timeoutMs} ms`);
    this.name = 'ParseTimeoutError';
  }
}

/**
 * Parse source text with the thread's cached tree-sitter parser for `lang`.
 * The buffer is sized to the text because node-tree-sitter's default (32 KB)
 * makes larger files fail to parse. With `timeoutMs`, tree-sitter itself stops a
 * parse that runs longer and this throws {@link ParseTimeoutError}.
 *
 * @example
 * const tree = parseFile('const a = 1;', 'typescript');
 * tree.rootNode.type // 'program'
 */
export function parseFile(text: string, lang: ParsedLanguage, options: { timeoutMs?: number } = {}): Parser.Tree {
  const parser = parserFor(lang);
  const bufferSize = Math.max(32 * 1024, text.length * 2 + 1024);
  const timeoutMs = options.timeoutMs && options.timeoutMs > 0 ? options.timeoutMs : 0;
  // The binding reads the budget as a 32-bit count of microseconds.
  parser.setTimeoutMicros(Math.min(Math.round(timeoutMs * 1000), 0xffffffff));
  for (let attempt = 0; attempt < 2; attempt++) {
    const tree = parser.parse(text, undefined, { bufferSize });
    // node-tree-sitter occasionally hands back a tree whose rootNode fails to unmarshal (seen under load); retry once.
    if (tree?.rootNode) return tree;
    if (!tree && timeoutMs > 0) {
      // A stopped parse would resume on the parser's next call: start the next file afresh.
      parser.reset();
      throw new ParseTimeoutError(timeoutMs);
    }
  }
  // Happens when node-tree-sitter's JS wrapper was evaluated twice in one process (e.g. several Jest
  // test files parsing on the main thread): the second copy cannot reach the native rootNode.
  throw new Error('tree-sitter returned no syntax tree');
}
