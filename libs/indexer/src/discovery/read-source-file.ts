import { createHash } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import type { DiscoveredFile } from './discover-files';
import { isSecretFileName } from './file-classes';
import { redactSecrets } from './redact-secrets';
import type { SkipReason } from './skip-reason';

export interface ReadSourceOptions {
  /** Default 1 MB. */
  maxFileBytes?: number;
  /** A file with any line longer than this is treated as minified (default 5000). */
  maxLineLength?: number;
  /** A file over 2 KB whose average line is longer than this is treated as minified (default 300). */
  maxAverageLineLength?: number;
  /** Replace high-confidence secrets with `[REDACTED]` (default true). */
  redact?: boolean;
}

export type ReadSourceResult =
  | { ok: true; text: string; contentHash: string; redactions: number }
  | { ok: false; reason: SkipReason; detail?: string };

/** What reading a file needs from its discovery: the repository-relative path (secret file names) and where it is. */
export type SourceFileLocation = Pick<DiscoveredFile, 'path' | 'absPath'>;

const BINARY_PROBE_BYTES = 8 * 1024;

/**
 * Read a discovered file for chunking: refuses secret files, binaries (NUL byte
 * in the first 8 KB), minified text (very long lines) and oversize files, and
 * redacts secrets in what it returns. `contentHash` is sha256 of the bytes on disk.
 *
 * @example
 * const read = await readSourceFile(file);
 * if (read.ok) chunkFile({ workspaceId, repoId, path: file.path, lang: file.lang, text: read.text });
 */
export async function readSourceFile(file: SourceFileLocation, options: ReadSourceOptions = {}): Promise<ReadSourceResult> {
  if (isSecretFileName(file.path)) return { ok: false, reason: 'secret-file' };
  let buffer: Buffer;
  try {
    buffer = await fs.readFile(file.absPath);
  } catch (error) {
    return { ok: false, reason: 'unreadable', detail: (error as Error).message };
  }
  return examineSource(buffer, options);
}

/** {@link readSourceFile} on the calling thread: what a parse worker uses, where blocking on the read costs nothing else. */
export function readSourceFileSync(file: SourceFileLocation, options: ReadSourceOptions = {}): ReadSourceResult {
  if (isSecretFileName(file.path)) return { ok: false, reason: 'secret-file' };
  let buffer: Buffer;
  try {
    buffer = readFileSync(file.absPath);
  } catch (error) {
    return { ok: false, reason: 'unreadable', detail: (error as Error).message };
  }
  return examineSource(buffer, options);
}

function examineSource(buffer: Buffer, options: ReadSourceOptions): ReadSourceResult {
  const { maxFileBytes = 1024 * 1024, maxLineLength = 5000, maxAverageLineLength = 300, redact = true } = options;
  if (buffer.length > maxFileBytes) return { ok: false, reason: 'too-large' };
  if (buffer.subarray(0, BINARY_PROBE_BYTES).includes(0)) return { ok: false, reason: 'binary' };
  let text = buffer.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (looksMinified(text, maxLineLength, maxAverageLineLength)) return { ok: false, reason: 'minified' };
  const contentHash = createHash('sha256').update(buffer).digest('hex');
  if (!redact) return { ok: true, text, contentHash, redactions: 0 };
  const redacted = redactSecrets(text);
  return { ok: true, text: redacted.text, contentHash, redactions: redacted.redactions };
}

function looksMinified(text: string, maxLineLength: number, maxAverageLineLength: number): boolean {
  let lines = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i - lineStart > maxLineLength) return true;
    lineStart = i + 1;
    lines++;
  }
  if (text.length - lineStart > maxLineLength) return true;
  return text.length > 2048 && text.length / lines > maxAverageLineLength;
}
