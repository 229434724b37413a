import type { Language } from '../language/language';
import type { ImportReference } from '../symbols/file-symbols';
import { chunkId, sha256Hex } from './chunk-id';
import type { ChunkType, CodeChunk } from './code-chunk';
import type { SourceText } from './source-text';

/** A chunk before ids and derived fields exist. Ranges are char indexes, end exclusive. */
export interface ChunkDraft {
  chunkType: ChunkType;
  name: string | null;
  /** Symbol path after `path:` (e.g. `SessionStore.refresh`); null for file/window chunks. */
  qualifiedName: string | null;
  signature: string | null;
  docstring: string | null;
  start: number;
  end: number;
  parent: ChunkDraft | null;
  /** Extra lines for the embed header (file outline, heading path). */
  headerLines?: string[];
  /** Filled by assembly. */
  id?: string;
}

export function newDraft(fields: Partial<ChunkDraft> & Pick<ChunkDraft, 'chunkType'>): ChunkDraft {
  return {
    name: null,
    qualifiedName: null,
    signature: null,
    docstring: null,
    start: -1,
    end: -1,
    parent: null,
    ...fields,
  };
}

const IDENTIFIER_CHAR = /[\w$]/;

/** Whole-word occurrence test, cheaper than tokenizing every chunk. */
function usesName(content: string, name: string): boolean {
  for (let at = content.indexOf(name); at !== -1; at = content.indexOf(name, at + 1)) {
    const before = at > 0 ? content[at - 1] : ' ';
    const after = at + name.length < content.length ? content[at + name.length] : ' ';
    if (!IDENTIFIER_CHAR.test(before) && !IDENTIFIER_CHAR.test(after)) return true;
  }
  return false;
}

/**
 * A finished chunk without the parts that are slices of the file text or follow
 * from its other fields: `content` is `text.slice(start, end)` and `embedText` is
 * the {@link embedHeader} + `content`. This is what crosses threads (the receiver
 * has the text), so each file's text is copied once.
 */
export interface ChunkRecord extends Omit<CodeChunk, 'workspaceId' | 'repoId' | 'path' | 'lang' | 'content' | 'embedText'> {
  /** Char range of `content` in the text. */
  start: number;
  end: number;
  /** Extra embed header lines (file outline, heading path, enclosing class). */
  headerLines: string[] | null;
}

/** What precedes a chunk's content in `embedText`: path, symbol, signature, extra lines, a blank line. */
export function embedHeader(path: string, symbol: string, signature: string | null, headerLines: string[] | null): string {
  let header = `path: ${path}`;
  // The symbol is the path alone for file and window chunks.
  if (symbol !== path) header += `\nsymbol: ${symbol}`;
  if (signature) header += `\nsignature: ${signature}`;
  if (headerLines) for (const line of headerLines) header += `\n${line}`;
  return `${header}\n\n`;
}

/** Full chunks from records and the text they were cut from. */
export function materializeChunks(records: ChunkRecord[], input: { workspaceId: string; repoId: string; path: string; lang: Language | null; text: string }): CodeChunk[] {
  const text = input.text;
  return records.map((r) => {
    const content = text.slice(r.start, r.end);
    return {
      id: r.id,
      workspaceId: input.workspaceId,
      repoId: input.repoId,
      path: input.path,
      lang: input.lang,
      chunkType: r.chunkType,
      name: r.name,
      symbol: r.symbol,
      signature: r.signature,
      docstring: r.docstring,
      imports: r.imports,
      parentId: r.parentId,
      startLine: r.startLine,
      endLine: r.endLine,
      startByte: r.startByte,
      endByte: r.endByte,
      contentHash: r.contentHash,
      content,
      embedText: embedHeader(input.path, r.symbol, r.signature, r.headerLines) + content,
    };
  });
}

/**
 * Turns drafts (created parents-first) into chunk records: content ranges,
 * hashes, deterministic ids, lines, UTF-8 offsets, used imports and embed headers.
 */
export function assembleChunks(
  drafts: ChunkDraft[],
  input: { workspaceId: string; repoId: string; path: string; lang: Language | null },
  src: SourceText,
  imports: ImportReference[],
): ChunkRecord[] {
  const text = src.text;
  const seen = new Map<string, number>();
  const chunks: ChunkRecord[] = [];
  const allSources = [...new Set(imports.map((i) => i.source))];
  const importNames = imports.flatMap((i) => i.names.map((name) => [name, i.source] as const));

  for (const draft of drafts) {
    if (draft.start < 0 || draft.end < draft.start) {
      if (draft.chunkType !== 'file') continue;
      draft.start = 0;
      draft.end = 0;
    }
    let start = draft.start;
    let end = draft.end;
    // Error recovery can hand out ranges that begin or end in whitespace; chunks start at their first
    // code line and end at their last non-blank character.
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    // Start at the beginning of the line when only indentation precedes, so the slice reads naturally.
    let k = start;
    while (k > 0 && (text.charCodeAt(k - 1) === 32 || text.charCodeAt(k - 1) === 9)) k--;
    if (k === 0 || text.charCodeAt(k - 1) === 10) start = k;
    const content = text.slice(start, end);
    if (draft.chunkType !== 'file' && src.size(start, end) === 0) continue;

    const contentHash = sha256Hex(content);
    const symbol = draft.qualifiedName ? `${input.path}:${draft.qualifiedName}` : input.path;
    const key = `${draft.chunkType}\u0000${symbol}\u0000${contentHash}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const id = chunkId({ workspaceId: input.workspaceId, repoId: input.repoId, path: input.path, chunkType: draft.chunkType, symbol, contentHash, occurrence });
    draft.id = id;

    let usedImports: string[];
    if (draft.chunkType === 'file') usedImports = allSources;
    else if (importNames.length === 0) usedImports = [];
    else {
      usedImports = [...new Set(importNames.filter(([name]) => usesName(content, name)).map(([, source]) => source))];
    }

    const startLine = src.lineOf(start);
    const endLine = end > start ? src.lineOf(end - 1) : startLine;

    chunks.push({
      id,
      chunkType: draft.chunkType,
      name: draft.name,
      symbol,
      signature: draft.signature,
      docstring: draft.docstring,
      imports: usedImports,
      parentId: findParentId(draft),
      startLine,
      endLine,
      startByte: src.byteOffset(start),
      endByte: src.byteOffset(end),
      contentHash,
      start,
      end,
      headerLines: draft.headerLines ?? null,
    });
  }
  return chunks;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9 || code === 12 || code === 11;
}

function findParentId(draft: ChunkDraft): string | null {
  let parent = draft.parent;
  while (parent && !parent.id) parent = parent.parent;
  return parent?.id ?? null;
}
