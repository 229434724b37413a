import { materializeChunks } from './chunk-assembler';
import { chunkFileRecords } from './chunk-records';
import type { ChunkFileInput, ChunkFileResult, ChunkOptions } from './code-chunk';

/**
 * Chunk one file, synchronously in the calling thread: tree-sitter + cAST for
 * code, headings for Markdown, overlapping line windows for anything else (and
 * for code that fails to parse). Never throws for bad input: failures come back
 * as `parse: 'fallback'` with `error`.
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
