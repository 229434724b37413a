import { parentPort, workerData } from 'node:worker_threads';
import { chunkFileRecords } from '../chunking/chunk-records';
import type { ChunkFileInput, ChunkOptions } from '../chunking/code-chunk';
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
    const json = encodeChunkMessage(chunkFileRecords(request.input, request.options));
    parentPort!.postMessage({ id: request.id, json });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
  }
});
