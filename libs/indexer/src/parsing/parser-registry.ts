import { createRequire } from 'node:module';
import * as path from 'node:path';
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

/**
 * node-tree-sitter's native binding, below its JS wrapper: `NodeMethods` take a node marshalled into
 * `nodeTransferArray` (6 words: id low/high, start byte, start row, start column, alias) and answer
 * the same way, without creating `SyntaxNode` objects (each costs an allocation, a weak reference
 * and a finalizer in the wrapper's node cache). Only used where thousands of nodes are visited;
 * `null` if the installed version does not look like the one this was written for (0.25).
 */
export interface NativeBinding {
  NodeMethods: Record<string, (...args: unknown[]) => unknown>;
  nodeTransferArray: Uint32Array;
  getNodeTypeNamesById(language: unknown): (string | null)[];
  getNodeFieldNamesById(language: unknown): (string | null)[];
}

const fieldIdsByGrammar = new WeakMap<object, Map<string, number>>();

/**
 * A grammar's field ids by name: `childForFieldId` takes a number, where `childForFieldName` converts
 * a JS string to UTF-8 and scans the grammar's field names on every call.
 */
export function fieldIdsOf(native: NativeBinding, language: object): Map<string, number> {
  let ids = fieldIdsByGrammar.get(language);
  if (!ids) {
    ids = new Map();
    native.getNodeFieldNamesById(language).forEach((name, id) => {
      if (name) ids!.set(name, id);
    });
    fieldIdsByGrammar.set(language, ids);
  }
  return ids;
}

let binding: NativeBinding | null | undefined;

export function nativeBinding(): NativeBinding | null {
  if (binding !== undefined) return binding;
  binding = null;
  try {
    const wrapperPath = nativeRequire.resolve('tree-sitter');
    // Resolved from the wrapper's own directory, so Node's module cache hands back the very same addon.
    const loaded = realCreateRequire(wrapperPath)('node-gyp-build')(path.dirname(wrapperPath)) as NativeBinding & { Tree?: unknown };
    const methods = loaded?.NodeMethods;
    if (
      loaded.Tree === (loadParserClass() as unknown as { Tree: unknown }).Tree &&
      loaded.nodeTransferArray instanceof Uint32Array &&
      typeof loaded.getNodeTypeNamesById === 'function' &&
      typeof loaded.getNodeFieldNamesById === 'function' &&
      ['descendantsOfType', 'childForFieldId', 'endIndex', 'children', 'isNamed'].every((m) => typeof methods?.[m] === 'function')
    ) {
      binding = loaded;
    }
  } catch {
    binding = null;
  }
  return binding;
}
