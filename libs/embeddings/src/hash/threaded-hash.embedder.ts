import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Embedder, EmbedderHealth } from '../embedder.port';
import { EmbeddingError } from '../embedding.error';
import { HashEmbedder, type HashEmbedderOptions } from './hash.embedder';

/** Below this many texts a batch is hashed inline: the worker round trip would cost more. */
const DEFAULT_MIN_WORKER_BATCH = 32;

type Pending = { resolve: (buffer: ArrayBuffer) => void; reject: (err: Error) => void };

/**
 * The hash embedder with large document batches computed on a worker thread. An index job's
 * main thread also writes the stores; hashing 100k chunks there (~40 µs each) made it the
 * bottleneck while the second core idled between parse batches. Queries and small batches stay
 * inline. Same id, same vectors as {@link HashEmbedder}; the worker starts on first use, does not
 * keep the process alive, and is started again after a crash.
 *
 * @example
 * const embedder = new ThreadedHashEmbedder({ dimensions: 384 });
 * const vectors = await embedder.embedDocuments(chunkTexts); // off the calling thread
 * await embedder.close();
 */
export class ThreadedHashEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly cacheable = false;
  readonly semantic = false;
  private readonly inline: HashEmbedder;
  private worker?: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly options: HashEmbedderOptions = {},
    private readonly minWorkerBatch = DEFAULT_MIN_WORKER_BATCH,
  ) {
    this.inline = new HashEmbedder(options);
    this.id = this.inline.id;
    this.dimensions = this.inline.dimensions;
  }

  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length < this.minWorkerBatch) return this.inline.embedDocuments(texts, signal);
    if (signal?.aborted) throw new EmbeddingError('aborted', 'Embedding was aborted', { cause: signal.reason });
    const buffer = await this.request(texts);
    const dims = this.dimensions;
    return Array.from({ length: texts.length }, (_, i) => new Float32Array(buffer, i * dims * 4, dims));
  }

  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    return this.inline.embedQuery(text, signal);
  }

  async health(): Promise<EmbedderHealth> {
    const h = await this.inline.health();
    return { ...h, detail: `${h.detail}; document batches on a worker thread` };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private request(texts: string[]): Promise<ArrayBuffer> {
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise<ArrayBuffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    });
  }

  private spawn(): Worker {
    // From TypeScript sources (Jest, ts benches) the worker needs a TS loader; from dist it is plain JS.
    const fromSource = __filename.endsWith('.ts');
    const script = path.join(__dirname, fromSource ? 'hash-embed.worker.ts' : 'hash-embed.worker.js');
    const worker = new Worker(script, { workerData: this.options, ...(fromSource ? { execArgv: ['-r', '@swc-node/register'] } : {}) });
    worker.unref();
    worker.on('message', ({ id, buffer, error }: { id: number; buffer?: ArrayBuffer; error?: string }) => {
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      if (buffer) p.resolve(buffer);
      else p.reject(new EmbeddingError('bad_response', `hash embedding worker failed: ${error}`));
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = undefined; // the next batch starts a fresh worker
      for (const p of this.pending.values()) p.reject(new EmbeddingError('server_error', `hash embedding worker stopped: ${err.message}`));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.pending.size) fail(new Error(`exit code ${code}`));
    });
    return worker;
  }
}
