import { parentPort } from 'node:worker_threads';
import { chunkFile } from '../chunking/chunk-file';
import type { ChunkFileInput, ChunkOptions } from '../chunking/code-chunk';

interface ChunkRequest {
  id: number;
  input: ChunkFileInput;
  options?: ChunkOptions;
}

parentPort?.on('message', (request: ChunkRequest) => {
  try {
    // A JSON string crosses threads faster than structured-cloning thousands of small objects.
    parentPort!.postMessage({ id: request.id, json: JSON.stringify(chunkFile(request.input, request.options)) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
  }
});
