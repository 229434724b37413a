import * as fs from 'node:fs';
import * as path from 'node:path';
import { EmbeddingError } from '../embedding.error';

/** Weight precisions published for Transformers.js models, and the ONNX file each one is. */
export const MODEL_DTYPES = { fp32: 'model.onnx', fp16: 'model_fp16.onnx', q8: 'model_quantized.onnx', int8: 'model_int8.onnx', uint8: 'model_uint8.onnx', q4: 'model_q4.onnx', bnb4: 'model_bnb4.onnx' } as const;
export type ModelDtype = keyof typeof MODEL_DTYPES;

/** The files a sentence-embedding model needs, laid out as on the Hugging Face hub. */
export function requiredModelFiles(dtype: ModelDtype): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', `onnx/${MODEL_DTYPES[dtype]}`];
}

/** Where a model's files are: `root/name/…` is what Transformers.js loads with `localModelPath = root`. */
export interface ModelLocation {
  root: string;
  name: string;
  dir: string;
}

export interface DownloadProgress {
  file: string;
  loaded: number;
  /** From Content-Length; undefined when the server does not say. */
  total?: number;
  done: boolean;
}

export const DEFAULT_MODEL_HOST = 'https://huggingface.co';

/** The files of `dtype` missing from `dir`. */
export function missingModelFiles(dir: string, dtype: ModelDtype): string[] {
  return requiredModelFiles(dtype).filter((f) => !fs.existsSync(path.join(dir, f)));
}

/**
 * `EMBEDDINGS_MODEL_PATH` (a directory holding the files, for air-gapped installs) or the
 * model's folder in the download cache (`<data dir>/models/<org>/<model>`).
 */
export function locateModel({ model, modelPath, cacheDir }: { model: string; modelPath?: string; cacheDir: string }): ModelLocation {
  if (modelPath) {
    const dir = path.resolve(modelPath);
    return { root: path.dirname(dir), name: path.basename(dir), dir };
  }
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(model) || model.split('/').some((p) => p === '..' || p === '.')) {
    throw new EmbeddingError('config', `EMBEDDINGS_MODEL "${model}" is not a model id like "Xenova/bge-small-en-v1.5".`);
  }
  return { root: cacheDir, name: model, dir: path.join(cacheDir, model) };
}

/**
 * Makes sure every file of the model is on disk: nothing to do for a complete directory;
 * otherwise, unless the model comes from `EMBEDDINGS_MODEL_PATH`, each missing file is
 * downloaded once from `host` (`<host>/<model>/resolve/main/<file>`, the hub's layout) into a
 * `.part` file renamed when complete, so an interrupted download never leaves a truncated model.
 *
 * @example
 * await ensureModelFiles({ model: 'Xenova/bge-small-en-v1.5', location, dtype: 'q8', host: DEFAULT_MODEL_HOST, onProgress: console.log });
 */
export async function ensureModelFiles(options: {
  model: string;
  location: ModelLocation;
  dtype: ModelDtype;
  /** Undefined for EMBEDDINGS_MODEL_PATH: files there are never downloaded. */
  host?: string;
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
}): Promise<void> {
  const { model, location, dtype, host, onProgress, signal } = options;
  const missing = missingModelFiles(location.dir, dtype);
  if (!missing.length) return;
  if (!host) {
    throw new EmbeddingError(
      'config',
      `EMBEDDINGS_MODEL_PATH ${location.dir} is missing ${missing.join(', ')}. Copy a Transformers.js export of the model there (config.json, tokenizer.json, tokenizer_config.json, onnx/${MODEL_DTYPES[dtype]}), or unset EMBEDDINGS_MODEL_PATH to download ${model} on first use.`,
    );
  }
  for (const file of missing) {
    const url = `${host.replace(/\/+$/, '')}/${model}/resolve/main/${file}`;
    try {
      await downloadFile(url, path.join(location.dir, file), file, onProgress, signal);
    } catch (err) {
      if (signal?.aborted) throw new EmbeddingError('aborted', 'Model download was aborted', { cause: err });
      const reason = err instanceof Error ? err.message : String(err);
      throw new EmbeddingError(
        'network',
        `Could not download ${file} of embedding model ${model} from ${url}: ${reason}. On a machine without internet access, copy the model's files (config.json, tokenizer.json, tokenizer_config.json, onnx/${MODEL_DTYPES[dtype]}) into a directory and set EMBEDDINGS_MODEL_PATH to it; or set EMBEDDINGS_MODEL_HOST to a mirror.`,
        { cause: err },
      );
    }
  }
}

async function downloadFile(url: string, target: string, file: string, onProgress?: (p: DownloadProgress) => void, signal?: AbortSignal): Promise<void> {
  const res = await fetch(url, { signal, redirect: 'follow' });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}${res.status === 404 ? ' (no such model or file)' : res.status === 401 ? ' (the model is gated or private)' : ''}`);
  const total = Number(res.headers.get('content-length')) || undefined;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const part = `${target}.part`;
  const out = fs.createWriteStream(part);
  let writeError: Error | undefined;
  out.on('error', (err) => (writeError ??= err));
  let loaded = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      loaded += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      onProgress?.({ file, loaded, total, done: false });
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err || writeError ? reject(err ?? writeError) : resolve())));
    if (total !== undefined && loaded !== total) throw new Error(`received ${loaded} of ${total} bytes`);
    fs.renameSync(part, target);
    onProgress?.({ file, loaded, total, done: true });
  } catch (err) {
    // The stream opens its file asynchronously: remove the .part only once it is closed, or an
    // open still in flight would create it again after the removal.
    await new Promise<void>((resolve) => {
      if (out.closed) return resolve();
      out.once('close', () => resolve());
      out.destroy();
    });
    fs.rmSync(part, { force: true });
    throw err;
  }
}

/** `hidden_size` of a downloaded model's config.json (its embedding width), when the file is there. */
export function readHiddenSize(dir: string): number | undefined {
  try {
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as { hidden_size?: unknown; d_model?: unknown; dim?: unknown };
    const size = config.hidden_size ?? config.d_model ?? config.dim;
    return typeof size === 'number' && size > 0 ? size : undefined;
  } catch {
    return undefined;
  }
}
