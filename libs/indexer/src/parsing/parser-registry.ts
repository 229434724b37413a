import { createRequire } from 'node:module';
import type { ParsedLanguage } from '../language/language';

// node-tree-sitter's wrapper must be evaluated once per process: a second evaluation (Jest re-runs
// modules per test file) reads its own `rootNode` getter off the shared native prototype and every
// later tree comes back without a root. `process.getBuiltinModule` reaches Node's real loader, which
// caches the wrapper process-wide, even inside a test runner's sandbox.
const getBuiltin = (process as unknown as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
const realCreateRequire = getBuiltin ? (getBuiltin('node:module') as typeof import('node:module')).createRequire : createRequire;
const nativeRequire = realCreateRequire(__filename);

// Loaded lazily so that importing the library (e.g. for discovery only) never pays for native grammars.
/* eslint-disable @typescript-eslint/no-require-imports */
type TreeSitterParser = import("tree-sitter");
type TreeSitterLanguage = Parameters<TreeSitterParser['setLanguage']>[0];

let ParserClass: typeof import('tree-sitter') | undefined;
const parsers = new Map<ParsedLanguage, TreeSitterParser>();
const grammars = new Map<ParsedLanguage, TreeSitterLanguage>();

function loadParserClass(): typeof import('tree-sitter') {
  ParserClass ??= nativeRequire('tree-sitter') as typeof import('tree-sitter');
  return ParserClass;
}

/** The tree-sitter grammar object for a language (cached per thread). */
export function grammarFor(lang: ParsedLanguage): TreeSitterLanguage {
  let grammar = grammars.get(lang);
  if (!grammar) {
    switch (lang) {
      case 'typescript':
        grammar = nativeRequire('tree-sitter-typescript').typescript;
        break;
      case 'tsx':
        grammar = nativeRequire('tree-sitter-typescript').tsx;
        break;
      case 'javascript':
        grammar = nativeRequire('tree-sitter-javascript');
        break;
      case 'python':
        grammar = nativeRequire('tree-sitter-python');
        break;
      case 'go':
        grammar = nativeRequire('tree-sitter-go');
        break;
      case 'java':
        grammar = nativeRequire('tree-sitter-java');
        break;
      case 'rust':
        grammar = nativeRequire('tree-sitter-rust');
        break;
    }
    grammars.set(lang, grammar as TreeSitterLanguage);
  }
  return grammar as TreeSitterLanguage;
}

/** One reusable Parser per language per thread (creating parsers is not free). */
export function parserFor(lang: ParsedLanguage): TreeSitterParser {
  let parser = parsers.get(lang);
  if (!parser) {
    const Parser = loadParserClass();
    parser = new Parser();
    parser.setLanguage(grammarFor(lang));
    parsers.set(lang, parser);
  }
  return parser;
}

export function treeSitter(): typeof import('tree-sitter') {
  return loadParserClass();
}
