import { parentPort, workerData } from 'node:worker_threads';
import { HashEmbedder, type HashEmbedderOptions } from './hash.embedder';

/** Worker side of ThreadedHashEmbedder: one message = one batch of texts, answered with one transferred Float32Array buffer. */
const embedder = new HashEmbedder(workerData as HashEmbedderOptions);

parentPort!.on('message', ({ id, texts }: { id: number; texts: string[] }) => {
  try {
    const dims = embedder.dimensions;
    const out = new Float32Array(texts.length * dims);
    for (let i = 0; i < texts.length; i++) out.set(embedder.embed(texts[i]), i * dims);
    parentPort!.postMessage({ id, buffer: out.buffer }, [out.buffer]);
  } catch (err) {
    parentPort!.postMessage({ id, error: (err as Error).message });
  }
});
