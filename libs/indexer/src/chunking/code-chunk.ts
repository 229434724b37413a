import type { Language } from '../language/language';
import type { FileSymbols } from '../symbols/file-symbols';

export type ChunkType = 'file' | 'class' | 'method' | 'function' | 'section' | 'window';

/**
 * One searchable unit of a file. Lines are 0-indexed and inclusive (seed 004);
 * bytes are UTF-8 offsets into the (redacted) text, end exclusive.
 */
export interface CodeChunk {
  /** UUIDv5 over workspace, repository, path, chunk type, qualified symbol and content hash. */
  id: string;
  workspaceId: string;
  repoId: string;
  path: string;
  lang: Language | null;
  chunkType: ChunkType;
  /** Short name of the symbol (`refresh`), the heading for sections, `null` for file/window chunks. */
  name: string | null;
  /** Qualified symbol, e.g. `auth/session.ts:SessionStore.refresh`; the path alone for file/window chunks. */
  symbol: string;
  signature: string | null;
  docstring: string | null;
  /** Import sources whose bindings this chunk uses (all of them for the file chunk). */
  imports: string[];
  parentId: string | null;
  startLine: number;
  endLine: number;
  startByte: number;
  endByte: number;
  /** sha256 (hex) of `content`. */
  contentHash: string;
  /** The raw source slice. */
  content: string;
  /** A short header (path, symbol, signature) followed by `content`: what gets embedded. */
  embedText: string;
  /**
   * The keyword tokens of {@link chunkIndexText}, space-separated, when the chunk was made on a
   * `ParsePool` worker with `keywordTokens` set: the store then does not tokenize on its thread.
   */
  keywordTokens?: string;
}

/** What a chunk is indexed under for keyword search: its path, qualified symbol and content. */
export function chunkIndexText(chunk: Pick<CodeChunk, 'path' | 'symbol' | 'content'>): string {
  return `${chunk.path}\n${chunk.symbol ?? ''}\n${chunk.content}`;
}

/** Tunables for {@link chunkFile}; every field has a default. */
export interface ChunkOptions {
  /** Size budget per chunk in non-whitespace characters (default 1500). */
  maxChunkChars?: number;
  /** Lines repeated between consecutive plain-text windows (default 3). */
  windowOverlapLines?: number;
  /** Force the line-window fallback (used when a parse timed out or failed elsewhere). */
  forceFallback?: boolean;
  /** Reported as `error` when `forceFallback` is set. */
  fallbackReason?: string;
  /**
   * Collect call sites into `symbols.references` (default true). Finding them walks the whole
   * syntax tree once more (about a quarter of a parse); callers that keep only definitions and
   * imports, like the API's indexing jobs, turn it off.
   */
  references?: boolean;
  /**
   * Budget for tree-sitter's parse in ms (default: none). tree-sitter checks it as it goes and gives
   * up; the file then falls back to line windows with `error: 'timeout'`. `ParsePool` sets it to its
   * per-file timeout, so a slow parse ends on its own instead of the worker being killed mid-parse.
   */
  parseTimeoutMs?: number;
  /**
   * Also tokenize each chunk's {@link chunkIndexText} (into `keywordTokens`). Only `ParsePool`
   * honours it: the tokens are computed on the worker, off the thread that writes the index.
   */
  keywordTokens?: boolean;
}

export const DEFAULT_CHUNK_OPTIONS: Required<Omit<ChunkOptions, 'fallbackReason' | 'parseTimeoutMs' | 'keywordTokens'>> & { fallbackReason?: string; parseTimeoutMs?: number } = {
  maxChunkChars: 1500,
  windowOverlapLines: 3,
  forceFallback: false,
  references: true,
};

export interface ChunkFileInput {
  workspaceId: string;
  repoId: string;
  /** Posix path relative to the repository root. */
  path: string;
  lang: Language | null;
  text: string;
}

export interface ChunkFileResult {
  /** Parents always come before their children. */
  chunks: CodeChunk[];
  symbols: FileSymbols;
  /** `fallback`: parsing failed/timed out/was mostly errors, line windows were used. `unsupported`: not a parsed language. */
  parse: 'ok' | 'fallback' | 'unsupported';
  error?: string;
  /** True when tree-sitter recovered from syntax errors (chunks are still structural). */
  hasSyntaxErrors?: boolean;
}
