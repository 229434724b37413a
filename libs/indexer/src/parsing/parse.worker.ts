import { parentPort } from 'node:worker_threads';
import { chunkFileRecords } from '../chunking/chunk-records';
import type { ChunkFileInput, ChunkOptions } from '../chunking/code-chunk';
import { encodeChunkMessage } from './chunk-message';

interface ChunkRequest {
  id: number;
  input: ChunkFileInput;
  options?: ChunkOptions;
}

parentPort?.on('message', (request: ChunkRequest) => {
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
