import type Parser from 'tree-sitter';
import type { ParsedLanguage } from '../language/language';
import { parserFor } from './parser-registry';

/**
 * Parse source text with the thread's cached tree-sitter parser for `lang`.
 * The buffer is sized to the text because node-tree-sitter's default (32 KB)
 * makes larger files fail to parse.
 *
 * @example
 * const tree = parseFile('const a = 1;', 'typescript');
 * tree.rootNode.type // 'program'
 */
export function parseFile(text: string, lang: ParsedLanguage): Parser.Tree {
  const parser = parserFor(lang);
  const bufferSize = Math.max(32 * 1024, text.length * 2 + 1024);
  for (let attempt = 0; attempt < 2; attempt++) {
    const tree = parser.parse(text, undefined, { bufferSize });
    // node-tree-sitter occasionally hands back a tree whose rootNode fails to unmarshal (seen under load); retry once.
    if (tree?.rootNode) return tree;
  }
  // Happens when node-tree-sitter's JS wrapper was evaluated twice in one process (e.g. several Jest
  // test files parsing on the main thread): the second copy cannot reach the native rootNode.
  throw new Error('tree-sitter returned no syntax tree');
}
