import { parentPort, workerData } from 'node:worker_threads';
import { tokenize } from '@sextant/retrieval';
import { chunkFileRecords } from '../chunking/chunk-records';
import { chunkIndexText, type ChunkFileInput, type ChunkOptions } from '../chunking/code-chunk';
import { encodeChunkMessage } from './chunk-message';

interface ChunkRequest {
  id: number;
  input: ChunkFileInput;
  options?: ChunkOptions;
}

/** Set by the pool when it closes: files still queued here are answered without being started. */
const stop = (workerData as { stop?: Int32Array } | null)?.stop;

parentPort?.on('message', (request: ChunkRequest) => {
  if (stop && Atomics.load(stop, 0) === 1) {
    parentPort!.postMessage({ id: request.id, error: 'pool closed' });
    return;
  }
  try {
    // Records, not chunks: `content` and `embedText` are built from the text the pool already has,
    // so the file's text never travels back. A JSON string crosses threads faster than
    // structured-cloning thousands of small objects.
    const result = chunkFileRecords(request.input, request.options);
    const { path, text } = request.input;
    // Tokenizing is a third of what the store's write costs; here it runs beside the parse, not on the writer's thread.
    const tokens = request.options?.keywordTokens ? result.records.map((r) => tokenize(chunkIndexText({ path, symbol: r.symbol, content: text.slice(r.start, r.end) })).join(' ')) : undefined;
    const json = encodeChunkMessage(result, tokens);
    parentPort!.postMessage({ id: request.id, json });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
  }
});
