import type { Language } from '../language/language';
import { materializeChunks, type ChunkRecord } from '../chunking/chunk-assembler';
import type { ChunkRecordsResult } from '../chunking/chunk-records';
import type { ChunkFileResult, ChunkType } from '../chunking/code-chunk';
import type { ImportReference, ReferenceKind, SymbolDefinition, SymbolKind, SymbolReference } from '../symbols/file-symbols';

/**
 * A symbol as sent: the index of the definition that has it (symbols repeat as parents, reference
 * origins and chunk symbols), or the string itself when no definition has it.
 */
type SymbolRef = number | string | null;
/** An import source as sent: its index among the file's import sources, or the string itself. */
type SourceRef = number | string;

type RecordTuple = [
  id: string,
  chunkType: ChunkType,
  name: string | null,
  symbol: SymbolRef,
  signature: string | null,
  docstring: string | null,
  imports: SourceRef[],
  /** Index of the parent's record (parents come first), -1 for none. */
  parent: number,
  startLine: number,
  endLine: number,
  startByte: number,
  endByte: number,
  contentHash: string,
  start: number,
  end: number,
  headerLines: string[] | null,
  /** The chunk's keyword tokens, space-separated, when they were asked for. */
  keywordTokens?: string,
];
type DefinitionTuple = [name: string, symbol: string, kind: SymbolKind, parent: SymbolRef, startLine: number, endLine: number, startByte: number, endByte: number];
type ReferenceTuple = [name: string, kind: ReferenceKind, line: number, from: SymbolRef, receiver?: string | null, column?: number];
/** `extra` carries the graph's fields (module, bindings, wildcard, reexport) when the import has any. */
type ImportTuple = [source: string, names: string[], line: number, extra?: Pick<ImportReference, 'module' | 'bindings' | 'wildcard' | 'reexport'>];

interface ChunkMessage {
  records: RecordTuple[];
  definitions: DefinitionTuple[];
  references: ReferenceTuple[];
  imports: ImportTuple[];
  parse: ChunkFileResult['parse'];
  error?: string;
  hasSyntaxErrors?: boolean;
}

/**
 * What a worker sends back for one file: its chunk records and symbols as JSON of positional
 * tuples, with repeated strings (symbols, import sources, parent ids) sent once and referred to by
 * index. The JSON is half the size of the records' own, and both stringify and parse scale with it.
 */
export function encodeChunkMessage(result: ChunkRecordsResult, keywordTokens?: readonly string[]): string {
  const { definitions, references, imports } = result.symbols;
  const definitionIndex = new Map<string, number>();
  definitions.forEach((d, i) => {
    if (!definitionIndex.has(d.symbol)) definitionIndex.set(d.symbol, i);
  });
  const symbolRef = (symbol: string | null): SymbolRef => (symbol === null ? null : (definitionIndex.get(symbol) ?? symbol));
  const sources = importSources(imports);
  const sourceRef = (source: string): SourceRef => {
    const index = sources.indexOf(source);
    return index >= 0 ? index : source;
  };
  const recordIndex = new Map<string, number>();
  const message: ChunkMessage = {
    records: result.records.map((r, i): RecordTuple => {
      recordIndex.set(r.id, i);
      const parent = r.parentId === null ? -1 : recordIndex.get(r.parentId)!;
      const tuple: RecordTuple = [r.id, r.chunkType, r.name, symbolRef(r.symbol), r.signature, r.docstring, r.imports.map(sourceRef), parent, r.startLine, r.endLine, r.startByte, r.endByte, r.contentHash, r.start, r.end, r.headerLines];
      if (keywordTokens) tuple.push(keywordTokens[i]);
      return tuple;
    }),
    definitions: definitions.map((d): DefinitionTuple => [d.name, d.symbol, d.kind, symbolRef(d.parent), d.startLine, d.endLine, d.startByte, d.endByte]),
    references: references.map((r): ReferenceTuple => (r.receiver === undefined && r.column === undefined ? [r.name, r.kind, r.line, symbolRef(r.from)] : [r.name, r.kind, r.line, symbolRef(r.from), r.receiver ?? null, r.column])),
    imports: imports.map((i): ImportTuple => {
      const { source, names, line, ...extra } = i;
      return Object.keys(extra).length ? [source, names, line, extra] : [source, names, line];
    }),
    parse: result.parse,
  };
  if (result.error !== undefined) message.error = result.error;
  if (result.hasSyntaxErrors !== undefined) message.hasSyntaxErrors = result.hasSyntaxErrors;
  return JSON.stringify(message);
}

/** The {@link ChunkFileResult} a worker's message stands for, given the input the file was sent with. */
export function decodeChunkMessage(json: string, input: { workspaceId: string; repoId: string; path: string; lang: Language | null; text: string }): ChunkFileResult {
  const message = JSON.parse(json) as ChunkMessage;
  const definitions = message.definitions.map(
    ([name, symbol, kind, parent, startLine, endLine, startByte, endByte]): SymbolDefinition => ({ name, symbol, kind, parent: null, startLine, endLine, startByte, endByte }),
  );
  const symbolOf = (ref: SymbolRef): string | null => (typeof ref === 'number' ? definitions[ref].symbol : ref);
  message.definitions.forEach((tuple, i) => {
    definitions[i].parent = symbolOf(tuple[3]);
  });
  const imports = message.imports.map(([source, names, line, extra]): ImportReference => ({ source, names, line, ...extra }));
  const sources = importSources(imports);
  const records: ChunkRecord[] = [];
  for (const tuple of message.records) {
    const [id, chunkType, name, symbol, signature, docstring, used, parent, startLine, endLine, startByte, endByte, contentHash, start, end, headerLines] = tuple;
    records.push({
      id,
      chunkType,
      name,
      symbol: symbolOf(symbol)!,
      signature,
      docstring,
      imports: used.map((ref) => (typeof ref === 'number' ? sources[ref] : ref)),
      parentId: parent < 0 ? null : records[parent].id,
      startLine,
      endLine,
      startByte,
      endByte,
      contentHash,
      start,
      end,
      headerLines,
    });
  }
  const references = message.references.map(([name, kind, line, from, receiver, column]): SymbolReference => {
    const ref: SymbolReference = { name, kind, line, from: symbolOf(from) };
    if (receiver !== undefined) ref.receiver = receiver;
    if (column !== undefined && column !== null) ref.column = column;
    return ref;
  });
  const chunks = materializeChunks(records, input);
  message.records.forEach((tuple, i) => {
    if (tuple[16] !== undefined) chunks[i].keywordTokens = tuple[16];
  });
  const result: ChunkFileResult = {
    chunks,
    symbols: { path: input.path, definitions, references, imports },
    parse: message.parse,
  };
  if (message.error !== undefined) result.error = message.error;
  if (message.hasSyntaxErrors !== undefined) result.hasSyntaxErrors = message.hasSyntaxErrors;
  return result;
}

function importSources(imports: ImportReference[]): string[] {
  return [...new Set(imports.map((i) => i.source))];
}
