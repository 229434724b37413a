import type Parser from 'tree-sitter';
import { isParsedLanguage, type ParsedLanguage } from '../language/language';
import { liteRoot } from '../parsing/lite-node';
import { parseFile, ParseTimeoutError } from '../parsing/parse-file';
import { extractImports } from '../symbols/extract-imports';
import { extractReferences } from '../symbols/extract-references';
import type { FileSymbols, ImportReference, SymbolDefinition } from '../symbols/file-symbols';
import { CastChunker } from './cast-chunker';
import { assembleChunks, newDraft, type ChunkDraft, type ChunkRecord } from './chunk-assembler';
import { DEFAULT_CHUNK_OPTIONS, type ChunkFileInput, type ChunkFileResult, type ChunkOptions } from './code-chunk';

/** {@link ChunkFileResult} with chunk records instead of chunks (see `materializeChunks`). */
export interface ChunkRecordsResult extends Omit<ChunkFileResult, 'chunks'> {
  records: ChunkRecord[];
}
import { languageSpec } from './language-spec';
import { markdownDrafts } from './markdown-chunker';
import { SourceText } from './source-text';
import { windowDrafts } from './window-chunker';

/** Above this share of error-node text the tree is not worth following. */
const MAX_ERROR_SHARE = 0.5;

/**
 * Everything {@link chunkFile} does except slicing `content`/`embedText` out of
 * the text: what a worker thread computes and sends back.
 */
export function chunkFileRecords(input: ChunkFileInput, options: ChunkOptions = {}): ChunkRecordsResult {
  const opts = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  const budget = Math.max(20, opts.maxChunkChars);
  const src = new SourceText(input.text);
  const emptySymbols = (): FileSymbols => ({ path: input.path, definitions: [], references: [], imports: [] });
  const windows = (): ChunkDraft[] => windowDrafts(src, budget, opts.windowOverlapLines);

  if (opts.forceFallback) {
    return {
      records: assembleChunks(windows(), input, src, []),
      symbols: emptySymbols(),
      parse: 'fallback',
      error: opts.fallbackReason ?? 'fallback requested',
    };
  }
  if (input.lang === 'markdown') {
    return { records: assembleChunks(markdownDrafts(src, budget), input, src, []), symbols: emptySymbols(), parse: 'ok' };
  }
  if (!isParsedLanguage(input.lang)) {
    return { records: assembleChunks(windows(), input, src, []), symbols: emptySymbols(), parse: 'unsupported' };
  }

  // The grammar the tree was parsed with: node type and field ids below are that grammar's.
  let lang: ParsedLanguage = input.lang;
  let tree: Parser.Tree;
  const parseBudget = opts.parseTimeoutMs;
  const parseStarted = performance.now();
  try {
    tree = parseFile(input.text, lang, { timeoutMs: parseBudget });
    // tree-sitter-javascript 0.25 rejects JSX attributes named with a reserved word (Preact's
    // `class=`, MUI's `in=`; tree-sitter-javascript#387); the TSX grammar, a superset, reads them.
    if (lang === 'javascript' && tree.rootNode.hasError) {
      // The second parse gets what is left of the file's budget.
      const left = parseBudget ? Math.max(1, parseBudget - (performance.now() - parseStarted)) : undefined;
      const tsx = retryParse(input.text, left);
      if (tsx && !tsx.rootNode.hasError) {
        tree = tsx;
        lang = 'tsx';
      }
    }
  } catch (error) {
    return fallback(error instanceof ParseTimeoutError ? 'timeout' : `parse failed: ${(error as Error).message}`);
  }
  try {
    const root = tree.rootNode;
    const hasSyntaxErrors = root.hasError;
    if (hasSyntaxErrors && errorShare(root, src) > MAX_ERROR_SHARE) return fallback('syntax errors cover most of the file');

    const spec = languageSpec(lang);
    const chunker = new CastChunker(src, spec, input.path, budget, lang === 'python');
    const lite = liteRoot(tree);
    const { drafts, file } = chunker.run(lite);
    addUncoveredWindows(drafts, file, src, budget);
    // A file that starts straight with a definition (one class covering the whole file, say) has no
    // prelude: rather than an empty `file` chunk, its top-level chunks become the roots.
    if (file.start < 0 || src.size(file.start, file.end) === 0) drafts.splice(drafts.indexOf(file), 1);
    const imports = extractImports(lite, lang, spec.imports, src);
    file.headerLines = outline(imports, chunker.definitions);
    const references = opts.references ? extractReferences(tree, lang, chunker.definitions, { text: input.text, lineOf: (index) => src.lineOf(index), byteOffset: (index) => src.byteOffset(index), lineStart: (line) => src.lineStarts[line] }) : [];
    const symbols: FileSymbols = { path: input.path, definitions: chunker.definitions, references, imports };
    const result: ChunkRecordsResult = { records: assembleChunks(drafts, input, src, imports), symbols, parse: 'ok' };
    if (hasSyntaxErrors) result.hasSyntaxErrors = true;
    return result;
  } catch (error) {
    return fallback(`chunking failed: ${(error as Error).message}`);
  }

  function fallback(reason: string): ChunkRecordsResult {
    return { records: assembleChunks(windows(), input, src, []), symbols: emptySymbols(), parse: 'fallback', error: reason };
  }
}

/** The TSX re-read of a JavaScript file; out of time, the JavaScript tree (with its errors) is kept. */
function retryParse(text: string, timeoutMs: number | undefined): Parser.Tree | null {
  try {
    return parseFile(text, 'tsx', { timeoutMs });
  } catch (error) {
    if (error instanceof ParseTimeoutError) return null;
    throw error;
  }
}

function errorShare(root: Parser.SyntaxNode, src: SourceText): number {
  const total = src.size(0, src.length);
  if (total === 0) return 0;
  if (root.isError) return 1;
  let covered = 0;
  let lastEnd = -1;
  for (const node of root.descendantsOfType('ERROR')) {
    if (node.startIndex < lastEnd) continue;
    covered += src.size(node.startIndex, node.endIndex);
    lastEnd = node.endIndex;
  }
  return covered / total;
}

/** Safety net: any non-blank text no chunk covers becomes a window chunk, so no line is ever lost. */
function addUncoveredWindows(drafts: ChunkDraft[], file: ChunkDraft, src: SourceText, budget: number): void {
  const ranges = drafts.filter((d) => d.start >= 0 && d.end > d.start).sort((a, b) => a.start - b.start);
  const gaps: [number, number][] = [];
  let cursor = 0;
  for (const range of ranges) {
    if (range.start > cursor && src.size(cursor, range.start) > 0) gaps.push([cursor, range.start]);
    cursor = Math.max(cursor, range.end);
  }
  if (src.length > cursor && src.size(cursor, src.length) > 0) gaps.push([cursor, src.length]);
  const text = src.text;
  for (let [start, end] of gaps) {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    let partStart = start;
    let line = src.lineOf(start);
    while (partStart < end) {
      let stop = partStart;
      let size = 0;
      while (stop < end) {
        const lineEnd = Math.min(end, src.lineEnd(line) + 1);
        const s = src.size(stop, lineEnd);
        if (size > 0 && size + s > budget) break;
        size += s;
        stop = lineEnd;
        line++;
      }
      if (src.size(partStart, stop) > 0) {
        if (file.start < 0 && partStart === 0) {
          file.start = partStart;
          file.end = stop;
        } else drafts.push(newDraft({ chunkType: 'window', start: partStart, end: stop, parent: file }));
      }
      partStart = stop;
    }
  }
}

function outline(imports: ImportReference[], definitions: SymbolDefinition[]): string[] {
  const lines: string[] = [];
  if (imports.length > 0) lines.push(`imports: ${[...new Set(imports.map((i) => i.source))].join(', ')}`);
  const topLevel = definitions.filter((d) => d.parent === null).slice(0, 50);
  if (topLevel.length > 0) lines.push(`defines: ${topLevel.map((d) => `${d.kind} ${d.name}`).join(', ')}`);
  return lines;
}
