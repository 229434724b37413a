import { Embedder } from './embedder.port';
import { EmbeddingError } from './embedding.error';
import { HashEmbedder } from './hash/hash.embedder';
import { ThreadedHashEmbedder } from './hash/threaded-hash.embedder';
import { LocalEmbedder } from './local/local.embedder';
import type { DownloadProgress, ModelDtype } from './local/model-files';
import { OpenAIEmbedder } from './openai/openai.embedder';

/** Embedder settings as read once from config (`EMBEDDINGS_PROVIDER`, `EMBEDDINGS_MODEL`, `EMBEDDINGS_DIM`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`). */
export interface EmbedderConfig {
  provider: 'hash' | 'openai' | 'local';
  /** openai: model name (default `text-embedding-3-small`). hash: must be empty or `hash-v1`. */
  model?: string;
  /** Vector length (hash default 384; openai: see {@link OpenAIEmbedder}). */
  dimensions?: number;
  baseURL?: string;
  apiKey?: string;
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** hash: compute large document batches on a worker thread ({@link ThreadedHashEmbedder}); for servers and index jobs. */
  workerThread?: boolean;
  /** local: a directory with the model's files (`EMBEDDINGS_MODEL_PATH`). */
  modelPath?: string;
  /** local: where downloaded models go (`<data dir>/models`). */
  modelCacheDir?: string;
  /** local: download host (`EMBEDDINGS_MODEL_HOST`, default https://huggingface.co). */
  modelHost?: string;
  /** local: weight precision (`EMBEDDINGS_DTYPE`, default q8). */
  dtype?: ModelDtype;
  /** local: pooling (`EMBEDDINGS_POOLING`; default the model's own). */
  pooling?: 'cls' | 'mean';
  /** local: worker threads (`EMBEDDINGS_THREADS`). */
  workers?: number;
  /** local: model download progress. */
  onProgress?: (p: DownloadProgress) => void;
}

/**
 * Builds the configured embedder. Wrap the result in a {@link CachedEmbedder} for indexing.
 *
 * @example
 * const embedder = createEmbedder({ provider: 'openai', baseURL: 'http://ollama:11434/v1', model: 'nomic-embed-text', dimensions: 768 });
 */
export function createEmbedder(config: EmbedderConfig): Embedder {
  switch (config.provider) {
    case 'hash':
      if (config.model && config.model !== 'hash-v1') {
        throw new EmbeddingError('config', `The hash provider has no models; got model "${config.model}". Unset EMBEDDINGS_MODEL or use provider "openai".`);
      }
      return config.workerThread ? new ThreadedHashEmbedder({ dimensions: config.dimensions }) : new HashEmbedder({ dimensions: config.dimensions });
    case 'openai':
      return new OpenAIEmbedder({
        baseURL: config.baseURL,
        apiKey: config.apiKey,
        model: config.model,
        dimensions: config.dimensions,
        batchSize: config.batchSize,
        timeoutMs: config.timeoutMs,
        maxRetries: config.maxRetries,
      });
    case 'local':
      if (!config.modelCacheDir && !config.modelPath) throw new EmbeddingError('config', 'The local provider needs a model cache directory or EMBEDDINGS_MODEL_PATH.');
      return new LocalEmbedder({
        model: config.model,
        modelPath: config.modelPath,
        cacheDir: config.modelCacheDir ?? config.modelPath!,
        host: config.modelHost,
        dtype: config.dtype,
        pooling: config.pooling,
        dimensions: config.dimensions,
        workers: config.workers,
        batchSize: config.batchSize,
        onProgress: config.onProgress,
      });
    default:
      throw new EmbeddingError('config', `Unknown embeddings provider "${(config as { provider: unknown }).provider}"; expected "hash", "openai" or "local".`);
  }
}
