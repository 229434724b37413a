import type Parser from 'tree-sitter';
import type { ParsedLanguage } from '../language/language';
import { fieldIdsOf, grammarFor, nativeBinding, type NativeBinding } from '../parsing/parser-registry';
import type { ReferenceKind, SymbolDefinition, SymbolReference } from './file-symbols';

const CALLEE_NAME = /([A-Za-z_$][\w$]*)\s*(?:<[^<>]*>|::<[^<>]*>)?\s*$/;

/** Node types that are references, per language: their kind and the field holding the called name. */
const REFERENCE_NODES: Record<ParsedLanguage, Record<string, [ReferenceKind, string]>> = {
  typescript: { call_expression: ['call', 'function'], new_expression: ['new', 'constructor'] },
  tsx: { call_expression: ['call', 'function'], new_expression: ['new', 'constructor'] },
  javascript: { call_expression: ['call', 'function'], new_expression: ['new', 'constructor'] },
  python: { call: ['call', 'function'] },
  go: { call_expression: ['call', 'function'] },
  java: { method_invocation: ['call', 'name'], object_creation_expression: ['new', 'type'] },
  rust: { call_expression: ['call', 'function'], macro_invocation: ['macro', 'macro'] },
};

const referenceTypes = new Map<ParsedLanguage, string[]>();
const typeNames = new Map<ParsedLanguage, (string | null)[]>();

/** A callee: what kind of reference, and its range (UTF-16 indexes). */
interface Callee {
  kind: ReferenceKind;
  start: number;
  end: number;
}

/**
 * Calls, constructor calls and macro invocations, each tagged with the innermost
 * definition that contains it. The call sites are collected natively with
 * `descendantsOfType` (a tree-sitter query pays its per-node matching work on
 * every node of the file, about half a parse); the called name is the last
 * identifier of the callee: `a.b.c(...)` → `c`, `A::new(...)` → `new`.
 */
export function extractReferences(
  tree: Parser.Tree,
  lang: ParsedLanguage,
  definitions: SymbolDefinition[],
  source: { text: string; lineOf: (index: number) => number; byteOffset?: (index: number) => number; lineStart?: (line: number) => number },
): SymbolReference[] {
  const native = nativeBinding();
  const callees = native ? nativeCallees(native, tree, lang) : wrapperCallees(tree.rootNode, lang);
  const text = source.text;
  const out: SymbolReference[] = [];
  for (const { kind, start, end } of callees) {
    const match = end - start > 200 ? null : CALLEE_NAME.exec(text.slice(start, end));
    const name = match?.[1];
    if (!name) continue;
    const nameStart = start + match!.index;
    const line = source.lineOf(nameStart);
    const byte = source.byteOffset ? source.byteOffset(nameStart) : undefined;
    // The innermost definition around the call: the smallest containing span (by bytes when known).
    let from: string | null = null;
    let best = Infinity;
    for (const def of definitions) {
      const contains = byte !== undefined ? def.startByte <= byte && def.endByte > byte : def.startLine <= line && def.endLine >= line;
      const span = byte !== undefined ? def.endByte - def.startByte : def.endLine - def.startLine;
      if (contains && span < best) {
        best = span;
        from = def.symbol;
      }
    }
    out.push({ name, kind, line, from, receiver: receiverBefore(text, nameStart), column: nameStart - (source.lineStart ? source.lineStart(line) : text.lastIndexOf('\n', nameStart - 1) + 1) });
  }
  return out;
}

/**
 * What a called name hangs off, read backwards from the name: `self` for `self.save`, `os.path`
 * for `os.path.join`, `Foo` for `Foo::new`, `()` when the chain starts with a call or index
 * (`a().b()`: the receiver's type is unknown). `null` for a bare name.
 */
export function receiverBefore(text: string, nameStart: number): string | null {
  let i = skipSpaceBack(text, nameStart - 1);
  const segments: string[] = [];
  let separator = '.';
  for (let guard = 0; guard < 32; guard++) {
    // The operator before the name: `.`, `?.`, `::` or `->`.
    if (text[i] === '.') i -= text[i - 1] === '?' ? 2 : 1;
    else if (text[i] === ':' && text[i - 1] === ':') {
      i -= 2;
      separator = '::';
    } else if (text[i] === '>' && text[i - 1] === '-') i -= 2;
    else break;
    i = skipSpaceBack(text, i);
    if (text[i] === ')' || text[i] === ']') return '()';
    const end = i + 1;
    while (i >= 0 && isIdentifierChar(text.charCodeAt(i))) i--;
    if (i + 1 === end) return null;
    segments.push(text.slice(i + 1, end));
    i = skipSpaceBack(text, i);
  }
  return segments.length ? segments.reverse().join(separator) : null;
}

function skipSpaceBack(text: string, i: number): number {
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i--;
  return i;
}

function isIdentifierChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
}

function typesFor(lang: ParsedLanguage): string[] {
  let types = referenceTypes.get(lang);
  if (!types) referenceTypes.set(lang, (types = Object.keys(REFERENCE_NODES[lang])));
  return types;
}

/** Through the public `SyntaxNode` API (used when the native binding is not the expected one). */
function wrapperCallees(root: Parser.SyntaxNode, lang: ParsedLanguage): Callee[] {
  const kinds = REFERENCE_NODES[lang];
  const out: Callee[] = [];
  for (const node of root.descendantsOfType(typesFor(lang))) {
    const [kind, field] = kinds[node.type];
    const callee = node.childForFieldName(field);
    if (callee) out.push({ kind, start: callee.startIndex, end: callee.endIndex });
  }
  return out;
}

const NODE_WORDS = 6;

/** Marshalled node data (6 words) of a wrapper-cached `SyntaxNode` handed back instead of a type id. */
function wordsOf(value: unknown): ArrayLike<number> {
  return value as ArrayLike<number>;
}

/**
 * The same walk on node-tree-sitter's binding: nodes stay marshalled words (start byte = word 2,
 * in UTF-16 bytes) and no `SyntaxNode` is created. Two native calls per call site, the field asked by id.
 */
function nativeCallees(native: NativeBinding, tree: Parser.Tree, lang: ParsedLanguage): Callee[] {
  const kinds = REFERENCE_NODES[lang];
  let names = typeNames.get(lang);
  if (!names) typeNames.set(lang, (names = native.getNodeTypeNamesById(grammarFor(lang))));
  const methods = native.NodeMethods;
  const fieldIds = fieldIdsOf(native, grammarFor(lang) as object);
  const root = wordsOf(tree.rootNode);
  const transfer = native.nodeTransferArray;
  for (let k = 0; k < NODE_WORDS; k++) transfer[k] = root[k];
  const found = methods.descendantsOfType(tree, typesFor(lang)) as (number | { type: string })[] | undefined;
  if (!found) return [];
  // Later calls reuse the transfer buffer (which may have been reallocated): copy the results out.
  let buffer = native.nodeTransferArray;
  const words = new Uint32Array(found.length * NODE_WORDS);
  const types: string[] = new Array(found.length);
  for (let i = 0, offset = 0; i < found.length; i++) {
    const value = found[i];
    if (typeof value === 'number') {
      words.set(buffer.subarray(offset, offset + NODE_WORDS), i * NODE_WORDS);
      offset += NODE_WORDS;
      types[i] = names[value] ?? '';
    } else {
      const cached = wordsOf(value);
      for (let k = 0; k < NODE_WORDS; k++) words[i * NODE_WORDS + k] = cached[k];
      types[i] = value.type;
    }
  }
  const out: Callee[] = [];
  for (let i = 0; i < found.length; i++) {
    const entry = kinds[types[i]];
    if (!entry) continue;
    buffer = native.nodeTransferArray;
    buffer.set(words.subarray(i * NODE_WORDS, (i + 1) * NODE_WORDS));
    const fieldId = fieldIds.get(entry[1]);
    if (fieldId === undefined) continue;
    const child = methods.childForFieldId(tree, fieldId);
    if (child === null || child === undefined) continue;
    buffer = native.nodeTransferArray;
    // A number means the child was marshalled into the buffer, where `endIndex` reads it; a cached
    // node has to be put there first.
    if (typeof child !== 'number') {
      const cached = wordsOf(child);
      for (let k = 0; k < NODE_WORDS; k++) buffer[k] = cached[k];
    }
    const start = buffer[2] / 2;
    const end = methods.endIndex(tree) as number;
    out.push({ kind: entry[0], start, end });
  }
  return out;
}
