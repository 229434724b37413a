import { parentPort, workerData } from 'node:worker_threads';
import { tokenize } from '@sextant/retrieval';
import { chunkFileRecords } from '../chunking/chunk-records';
import { chunkIndexText, type ChunkFileInput, type ChunkOptions } from '../chunking/code-chunk';
import { readSourceFileSync, type ReadSourceOptions, type SourceFileLocation } from '../discovery/read-source-file';
import { encodeChunkMessage } from './chunk-message';

interface ChunkRequest {
  id: number;
  input: ChunkFileInput;
  /** Read the file here first (the pool's `readAndChunk`); `input.text` is then empty. */
  read?: { file: SourceFileLocation; options: ReadSourceOptions; unchangedHash: string | null };
  options?: ChunkOptions;
}

/** Set by the pool when it closes: files still queued here are answered without being started. */
const stop = (workerData as { stop?: Int32Array } | null)?.stop;

parentPort?.on('message', (request: ChunkRequest) => {
  if (stop && Atomics.load(stop, 0) === 1) {
    parentPort!.postMessage({ id: request.id, error: 'pool closed' });
    return;
  }
  let read: { text: string; contentHash: string; redactions: number } | undefined;
  try {
    let input = request.input;
    if (request.read) {
      const found = readSourceFileSync(request.read.file, request.read.options);
      if (!found.ok) {
        parentPort!.postMessage({ id: request.id, skipped: { reason: found.reason, ...(found.detail !== undefined ? { detail: found.detail } : {}) } });
        return;
      }
      if (found.contentHash === request.read.unchangedHash) {
        parentPort!.postMessage({ id: request.id, unchanged: found.contentHash });
        return;
      }
      read = { text: found.text, contentHash: found.contentHash, redactions: found.redactions };
      input = { ...input, text: found.text };
    }
    // Records, not chunks: `content` and `embedText` are built from the text the pool has (sent
    // with the request, or with this answer when the file was read here), so no chunk's text travels.
    // A JSON string crosses threads faster than structured-cloning thousands of small objects.
    const result = chunkFileRecords(input, request.options);
    const { path, text } = input;
    // Tokenizing is a third of what the store's write costs; here it runs beside the parse, not on the writer's thread.
    const tokens = request.options?.keywordTokens ? result.records.map((r) => tokenize(chunkIndexText({ path, symbol: r.symbol, content: text.slice(r.start, r.end) })).join(' ')) : undefined;
    const json = encodeChunkMessage(result, tokens);
    parentPort!.postMessage({ id: request.id, json, read });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: (error as Error).message ?? String(error), read });
  }
});
