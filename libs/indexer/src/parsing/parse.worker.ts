import { parentPort } from 'node:worker_threads';
import { chunkFileRecords } from '../chunking/chunk-records';
import type { ChunkFileInput, ChunkOptions } from '../chunking/code-chunk';

interface ChunkRequest {
  id: number;
  input: ChunkFileInput;
  options?: ChunkOptions;
}

parentPort?.on('message', (request: ChunkRequest) => {
  try {
    // Records, not chunks: `content` and `embedText` are slices of the text the pool already has,
    // so the file's text never travels back. A JSON string crosses threads faster than
    // structured-cloning thousands of small objects.
    const result = chunkFileRecords(request.input, request.options);
    parentPort!.postMessage({ id: request.id, json: JSON.stringify(result) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
  }
});
