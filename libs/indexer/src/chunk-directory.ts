import type { ChunkFileResult, ChunkOptions } from './chunking/code-chunk';
import { discoverFiles, type DiscoveredFile, type DiscoveryOptions, type SkippedFile } from './discovery/discover-files';
import { readSourceFile, type ReadSourceOptions } from './discovery/read-source-file';
import { emptySkipCounts, type SkipReason } from './discovery/skip-reason';
import { ParsePool } from './parsing/parse-pool';

/** Files read or chunked at once, per pool worker. */
const FILES_IN_FLIGHT_PER_WORKER = 4;

export interface ChunkDirectoryOptions extends DiscoveryOptions, ReadSourceOptions {
  workspaceId: string;
  repoId: string;
  chunk?: ChunkOptions;
  /** Use this pool (left open) instead of creating and closing one. */
  pool?: ParsePool;
  poolSize?: number;
  timeoutMs?: number;
  /** Called after each file, e.g. for progress events. */
  onFile?: (file: DiscoveredFile, result: ChunkFileResult) => void;
}

export interface ChunkedFile {
  file: DiscoveredFile;
  contentHash: string;
  redactions: number;
  result: ChunkFileResult;
}

export interface ChunkDirectoryResult {
  files: ChunkedFile[];
  /** Discovery skips plus files refused on read (binary, minified, ...). */
  skipped: SkippedFile[];
  skippedByReason: Record<SkipReason, number>;
  parse: { ok: number; fallback: number; unsupported: number; timeouts: number };
  redactions: number;
}

/**
 * Discover, read (with redaction) and chunk a whole directory on a worker pool.
 * One bad file never breaks the batch: it is skipped or falls back, and counted.
 *
 * @example
 * const out = await chunkDirectory('/srv/repo', { workspaceId: 'ws', repoId: 'repo' });
 * out.files.flatMap((f) => f.result.chunks).length;
 */
export async function chunkDirectory(root: string, options: ChunkDirectoryOptions): Promise<ChunkDirectoryResult> {
  const discovery = await discoverFiles(root, options);
  const skipped = [...discovery.skipped];
  const skippedByReason = { ...emptySkipCounts(), ...discovery.skippedByReason };
  const pool = options.pool ?? new ParsePool({ size: options.poolSize, timeoutMs: options.timeoutMs });
  const parse = { ok: 0, fallback: 0, unsupported: 0, timeouts: 0 };
  let redactions = 0;
  const files: ChunkedFile[] = [];
  // A bounded number of files in flight: opening every file of a large repository at once runs out of
  // file descriptors (EMFILE), and the files that hit it were lost as "unreadable".
  const inFlight = Math.max(1, pool.size * FILES_IN_FLIGHT_PER_WORKER);
  let next = 0;
  const drain = async (): Promise<void> => {
    while (next < discovery.files.length) {
      const file = discovery.files[next++];
      const read = await readSourceFile(file, options);
      if (!read.ok) {
        skipped.push({ path: file.path, reason: read.reason });
        skippedByReason[read.reason]++;
        continue;
      }
      redactions += read.redactions;
      const result = await pool.chunk(
        { workspaceId: options.workspaceId, repoId: options.repoId, path: file.path, lang: file.lang, text: read.text },
        options.chunk,
      );
      parse[result.parse]++;
      if (result.error === 'timeout') parse.timeouts++;
      files.push({ file, contentHash: read.contentHash, redactions: read.redactions, result });
      options.onFile?.(file, result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(inFlight, discovery.files.length) }, drain));
  } finally {
    if (!options.pool) await pool.close();
  }
  files.sort((a, b) => (a.file.path < b.file.path ? -1 : 1));
  return { files, skipped, skippedByReason, parse, redactions };
}
