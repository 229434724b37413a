import { parentPort, workerData } from 'node:worker_threads';
import { l2Normalize } from '../l2-normalize.util';

/** What LocalEmbedder hands each worker: where the model is and how to pool it. */
export interface LocalEmbedWorkerData {
  root: string;
  name: string;
  dtype: string;
  pooling: 'mean' | 'cls';
  /** onnxruntime threads inside this worker. */
  intraOpThreads: number;
}

/**
 * Worker side of LocalEmbedder: loads the ONNX model once (from disk only; the main thread
 * downloaded it), then answers each batch of texts with one transferred Float32Array buffer
 * of unit vectors, row after row.
 */
const data = workerData as LocalEmbedWorkerData;

const ready = (async () => {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = data.root.endsWith('/') ? data.root : `${data.root}/`;
  return pipeline('feature-extraction', data.name, { dtype: data.dtype as 'q8', session_options: { intraOpNumThreads: data.intraOpThreads, interOpNumThreads: 1 } });
})();
// An unobserved rejection would kill the worker before the first batch could report it.
ready.catch(() => undefined);

parentPort!.on('message', async ({ id, texts }: { id: number; texts: string[] }) => {
  try {
    const extract = await ready;
    const output = await extract(texts.map((t) => (t.length ? t : ' ')), { pooling: data.pooling, normalize: false });
    const [rows, dims] = output.dims as [number, number];
    const out = new Float32Array(rows * dims);
    out.set(output.data as Float32Array);
    for (let r = 0; r < rows; r++) l2Normalize(out.subarray(r * dims, (r + 1) * dims));
    parentPort!.postMessage({ id, buffer: out.buffer, dims }, [out.buffer]);
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
