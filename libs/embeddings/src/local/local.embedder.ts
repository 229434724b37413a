import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Embedder, EmbedderHealth } from '../embedder.port';
import { EmbeddingDimensionMismatchError } from '../embedding-dimension-mismatch.error';
import { EmbeddingError } from '../embedding.error';
import type { LocalEmbedWorkerData } from './local-embed.worker';
import { DEFAULT_MODEL_HOST, ensureModelFiles, locateModel, missingModelFiles, MODEL_DTYPES, readHiddenSize, type DownloadProgress, type ModelDtype, type ModelLocation } from './model-files';

export const DEFAULT_LOCAL_MODEL = 'Xenova/bge-small-en-v1.5';

/** What is known about popular models without opening them: width, pooling, and the query instruction of their model card. */
const KNOWN_MODELS: Record<string, { dimensions: number; pooling: 'cls' | 'mean'; queryPrefix?: string }> = {
  'Xenova/bge-small-en-v1.5': { dimensions: 384, pooling: 'cls', queryPrefix: 'Represent this sentence for searching relevant passages: ' },
  'Xenova/bge-base-en-v1.5': { dimensions: 768, pooling: 'cls', queryPrefix: 'Represent this sentence for searching relevant passages: ' },
  'Xenova/all-MiniLM-L6-v2': { dimensions: 384, pooling: 'mean' },
  'jinaai/jina-embeddings-v2-base-code': { dimensions: 768, pooling: 'mean' },
  'Xenova/jina-embeddings-v2-base-code': { dimensions: 768, pooling: 'mean' },
};

export interface LocalEmbedderOptions {
  /** Model id on the hub (default {@link DEFAULT_LOCAL_MODEL}); with `modelPath`, only its name in the embedder id. */
  model?: string;
  /** A directory with the model's files (air-gapped installs); never downloaded into. */
  modelPath?: string;
  /** Where downloads go (`<data dir>/models`). */
  cacheDir: string;
  /** Download host (default https://huggingface.co); `null` forbids downloading. */
  host?: string | null;
  dtype?: ModelDtype;
  /** Default: the model's own (bge: cls), else mean. */
  pooling?: 'cls' | 'mean';
  /** Prepended to queries (bge's retrieval instruction by default for bge models). */
  queryPrefix?: string;
  /** Vector width; read from config.json when the model is on disk, else the known-model table. */
  dimensions?: number;
  /** Worker threads, each with its own copy of the model (default: cores - 1, 1 to 4). */
  workers?: number;
  /** Texts per inference call. Default 16. */
  batchSize?: number;
  onProgress?: (p: DownloadProgress) => void;
}

type Pending = { worker: Worker; resolve: (v: { buffer: ArrayBuffer; dims: number }) => void; reject: (err: Error) => void };

/**
 * A sentence-embedding model (ONNX, via Transformers.js and onnxruntime-node) run in this
 * process on worker threads: semantic vectors with no server and no API key. On first use the
 * model is downloaded once into the data dir (progress reported), or read from
 * `modelPath` for machines without internet access; documents are embedded in batches spread
 * over the workers. The id names the model and precision, so the embedding cache never mixes
 * models and switching re-embeds once.
 *
 * @example
 * const embedder = new LocalEmbedder({ cacheDir: path.join(dataDir, 'models') }); // Xenova/bge-small-en-v1.5, q8
 * const [v] = await embedder.embedDocuments(['export function refreshSession(id) { … }']);
 * await embedder.close();
 */
export class LocalEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly semantic = true;
  readonly model: string;
  private readonly location: ModelLocation;
  private readonly dtype: ModelDtype;
  private readonly pooling: 'cls' | 'mean';
  private readonly queryPrefix: string;
  private readonly host: string | undefined;
  private readonly workerCount: number;
  private readonly batchSize: number;
  private prepared?: Promise<void>;
  private workers: Worker[] = [];
  private next = 0;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly options: LocalEmbedderOptions) {
    this.location = locateModel({ model: options.model ?? DEFAULT_LOCAL_MODEL, modelPath: options.modelPath, cacheDir: options.cacheDir });
    this.model = options.modelPath ? (options.model ?? this.location.name) : (options.model ?? DEFAULT_LOCAL_MODEL);
    this.dtype = options.dtype ?? 'q8';
    if (!(this.dtype in MODEL_DTYPES)) throw new EmbeddingError('config', `EMBEDDINGS_DTYPE "${this.dtype}" is not one of ${Object.keys(MODEL_DTYPES).join(', ')}.`);
    const known = KNOWN_MODELS[this.model];
    const dims = options.dimensions ?? readHiddenSize(this.location.dir) ?? known?.dimensions;
    if (!dims) throw new EmbeddingError('config', `The width of embedding model ${this.model} is unknown until it is downloaded; set EMBEDDINGS_DIM (its hidden_size).`);
    this.dimensions = dims;
    this.pooling = options.pooling ?? known?.pooling ?? 'mean';
    this.queryPrefix = options.queryPrefix ?? known?.queryPrefix ?? '';
    this.host = options.modelPath || options.host === null ? undefined : (options.host ?? DEFAULT_MODEL_HOST);
    this.workerCount = Math.max(1, options.workers ?? Math.min(4, Math.max(1, os.availableParallelism() - 1)));
    this.batchSize = Math.max(1, options.batchSize ?? 16);
    this.id = `local:${this.model}:${this.dtype}:${dims}`;
  }

  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (!texts.length) return [];
    await this.prepare(signal);
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) batches.push(texts.slice(i, i + this.batchSize));
    const results = await Promise.all(batches.map((b) => this.run(b, signal)));
    return results.flat();
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    await this.prepare(signal);
    const [v] = await this.run([this.queryPrefix + text], signal);
    return v;
  }

  /** Never downloads: says where the model is and whether it is there yet. */
  async health(): Promise<EmbedderHealth> {
    const missing = missingModelFiles(this.location.dir, this.dtype);
    const what = `${this.id}: local ONNX model (semantic), ${this.workerCount} worker thread(s)`;
    if (!missing.length) return { ok: true, detail: `${what}; files in ${this.location.dir}` };
    if (!this.host) return { ok: false, detail: `${what}; ${this.location.dir} is missing ${missing.join(', ')} (EMBEDDINGS_MODEL_PATH)` };
    return { ok: true, detail: `${what}; downloaded from ${this.host} into ${this.location.dir} on first use` };
  }

  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /** Downloads the model (once; a failed attempt is retried by the next call) and starts the workers. */
  private prepare(signal?: AbortSignal): Promise<void> {
    this.prepared ??= (async () => {
      await ensureModelFiles({ model: this.model, location: this.location, dtype: this.dtype, host: this.host, onProgress: this.options.onProgress, signal });
      const width = readHiddenSize(this.location.dir);
      if (width !== undefined && width !== this.dimensions) throw new EmbeddingDimensionMismatchError(this.id, this.dimensions, width);
    })().catch((err: unknown) => {
      this.prepared = undefined;
      throw err;
    });
    return this.prepared;
  }

  private async run(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (signal?.aborted) throw new EmbeddingError('aborted', 'Embedding was aborted', { cause: signal.reason });
    const worker = this.pickWorker();
    const id = this.nextId++;
    const { buffer, dims } = await new Promise<{ buffer: ArrayBuffer; dims: number }>((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      worker.postMessage({ id, texts });
    });
    if (dims !== this.dimensions) throw new EmbeddingDimensionMismatchError(this.id, this.dimensions, dims);
    return Array.from({ length: texts.length }, (_, i) => new Float32Array(buffer, i * dims * 4, dims));
  }

  private pickWorker(): Worker {
    while (this.workers.length < this.workerCount) this.workers.push(this.spawn());
    return this.workers[this.next++ % this.workers.length];
  }

  private spawn(): Worker {
    // From TypeScript sources (Jest, ts benches) the worker needs a TS loader; from dist it is plain JS.
    const fromSource = __filename.endsWith('.ts');
    const script = path.join(__dirname, fromSource ? 'local-embed.worker.ts' : 'local-embed.worker.js');
    const data: LocalEmbedWorkerData = { root: this.location.root, name: this.location.name, dtype: this.dtype, pooling: this.pooling, intraOpThreads: 1 };
    const worker = new Worker(script, { workerData: data, ...(fromSource ? { execArgv: ['-r', '@swc-node/register'] } : {}) });
    worker.unref();
    worker.on('message', ({ id, buffer, dims, error }: { id: number; buffer?: ArrayBuffer; dims?: number; error?: string }) => {
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      if (buffer) p.resolve({ buffer, dims: dims! });
      else p.reject(new EmbeddingError('bad_response', `local embedding model ${this.model} failed: ${error}`));
    });
    const fail = (err: Error) => {
      this.workers = this.workers.filter((w) => w !== worker); // the next batch starts a fresh worker
      for (const [id, p] of this.pending) {
        if (p.worker !== worker) continue;
        this.pending.delete(id);
        p.reject(new EmbeddingError('server_error', `local embedding worker stopped: ${err.message}`));
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if ([...this.pending.values()].some((p) => p.worker === worker)) fail(new Error(`exit code ${code}`));
    });
    return worker;
  }
}
