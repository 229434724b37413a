import type { ParsedLanguage } from '../language/language';

// Loaded lazily so that importing the library (e.g. for discovery only) never pays for native grammars.
/* eslint-disable @typescript-eslint/no-require-imports */
type TreeSitterParser = import("tree-sitter");
type TreeSitterLanguage = Parameters<TreeSitterParser['setLanguage']>[0];

let ParserClass: typeof import('tree-sitter') | undefined;
const parsers = new Map<ParsedLanguage, TreeSitterParser>();
const grammars = new Map<ParsedLanguage, TreeSitterLanguage>();

function loadParserClass(): typeof import('tree-sitter') {
  ParserClass ??= require('tree-sitter') as typeof import('tree-sitter');
  return ParserClass;
}

/** The tree-sitter grammar object for a language (cached per thread). */
export function grammarFor(lang: ParsedLanguage): TreeSitterLanguage {
  let grammar = grammars.get(lang);
  if (!grammar) {
    switch (lang) {
      case 'typescript':
        grammar = require('tree-sitter-typescript').typescript;
        break;
      case 'tsx':
        grammar = require('tree-sitter-typescript').tsx;
        break;
      case 'javascript':
        grammar = require('tree-sitter-javascript');
        break;
      case 'python':
        grammar = require('tree-sitter-python');
        break;
      case 'go':
        grammar = require('tree-sitter-go');
        break;
      case 'java':
        grammar = require('tree-sitter-java');
        break;
      case 'rust':
        grammar = require('tree-sitter-rust');
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
