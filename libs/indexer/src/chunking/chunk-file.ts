import { materializeChunks } from './chunk-assembler';
import { chunkFileRecords } from './chunk-records';
import type { ChunkFileInput, ChunkFileResult, ChunkOptions } from './code-chunk';
import type { ParsePool } from '../parsing/parse-pool';

/**
 * Chunk one file, synchronously in the calling thread: tree-sitter + cAST for
 * code, headings for Markdown, overlapping line windows for anything else (and
 * for code that fails to parse). Never throws for bad input: failures come back
 * as `parse: 'fallback'` with `error`.
 *
 * Each parsed file's syntax tree (~30× the file's size in native memory) is freed only after the event
 * loop turns: node-tree-sitter releases trees from a finalizer Node runs as an immediate. A long
 * synchronous loop over many files should `await new Promise((r) => setImmediate(r))` every few
 * hundred files, or use {@link ParsePool} (measured: 10,000 files in one synchronous loop, 1.4 GB
 * RSS; yielding every 100 files, 190 MB).
 *
 * @example
 * const { chunks, symbols } = chunkFile({
 *   workspaceId: 'ws', repoId: 'repo', path: 'auth/session.ts', lang: 'typescript',
 *   text: 'export class SessionStore { refresh() { return 1; } }',
 * });
 * chunks.map((c) => `${c.chunkType} ${c.symbol}`);
 * // ['file auth/session.ts', 'class auth/session.ts:SessionStore']
 */
export function chunkFile(input: ChunkFileInput, options: ChunkOptions = {}): ChunkFileResult {
  const { records, ...rest } = chunkFileRecords(input, options);
  return { chunks: materializeChunks(records, input), ...rest };
}
