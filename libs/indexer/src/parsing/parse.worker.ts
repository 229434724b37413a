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
    const result = chunkFile(request.input, request.options);
    // embedText ends with a second copy of content: ship only its header, the pool re-joins them.
    for (const chunk of result.chunks) chunk.embedText = chunk.embedText.slice(0, chunk.embedText.length - chunk.content.length);
    // A JSON string crosses threads faster than structured-cloning thousands of small objects.
    parentPort!.postMessage({ id: request.id, json: JSON.stringify(result) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
  }
});
