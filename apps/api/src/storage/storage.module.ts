import * as path from 'node:path';
import { Global, Inject, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { CachedEmbedder, createEmbedder, SqliteEmbeddingCache, type Embedder } from '@sextant/embeddings';
import { CHUNK_INDEX, TASK_INDEX, type ChunkIndex, type TaskIndex } from '@sextant/retrieval';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { HealthRegistry } from '../modules/health/health.registry';
import { openEmbeddedStore, type EmbeddedStore } from './embedded';
import { MetricsService } from '../modules/metrics/metrics.service';
import { MeasuredEmbedder } from './measured-embedder';
import { modelDownloadProgress } from './model-download-progress';
import { QdrantChunkIndex, QdrantTaskIndex } from './qdrant';

export const EMBEDDER = Symbol.for('sextant.Embedder');
const EMBEDDED_STORE = Symbol.for('sextant.EmbeddedStore');
const EMBEDDING_CACHE = Symbol.for('sextant.EmbeddingCache');

export const EMBEDDED_VECTORS_FILE = 'vectors.sqlite';
export const EMBEDDING_CACHE_FILE = 'embedding-cache.sqlite';

/**
 * Wires the ports to adapters from config: the embedded store (SQLite + in-memory int8)
 * unless QDRANT_URL is set; the embedder behind a persistent (model, content hash) cache.
 */
@Global()
@Module({
  providers: [
    {
      provide: EMBEDDING_CACHE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SqliteEmbeddingCache({ path: path.join(config.storage.dataDir, EMBEDDING_CACHE_FILE) }),
    },
    {
      provide: EMBEDDER,
      inject: [APP_CONFIG, EMBEDDING_CACHE, MetricsService],
      useFactory: (config: AppConfig, cache: SqliteEmbeddingCache, metrics: MetricsService): CachedEmbedder => {
        const e = config.embeddings;
        const embedder = createEmbedder(
          e.provider === 'hash'
            ? { provider: 'hash', dimensions: e.dimensions, workerThread: true }
            : e.provider === 'local'
              ? { provider: 'local', model: e.model, dimensions: e.dimensions, modelPath: e.modelPath, modelCacheDir: e.modelCacheDir, modelHost: e.modelHost, dtype: e.dtype, pooling: e.pooling, workers: e.workers, onProgress: modelDownloadProgress(e.model, downloadLine(config)) }
              : { provider: 'openai', model: e.model, dimensions: e.dimensions, baseURL: e.baseURL, apiKey: e.apiKey },
        );
        return new CachedEmbedder({ embedder: new MeasuredEmbedder(embedder, metrics), cache });
      },
    },
    {
      provide: EMBEDDED_STORE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): EmbeddedStore | null => {
        if (config.storage.qdrantUrl) return null;
        const logger = new Logger('EmbeddedStore');
        return openEmbeddedStore({ file: path.join(config.storage.dataDir, EMBEDDED_VECTORS_FILE), checkpoints: { onError: (err) => logger.warn(err.message) } });
      },
    },
    {
      provide: CHUNK_INDEX,
      inject: [APP_CONFIG, EMBEDDED_STORE, EMBEDDER],
      useFactory: async (config: AppConfig, store: EmbeddedStore | null, embedder: Embedder): Promise<ChunkIndex> => {
        if (store) return store.chunks;
        const index = new QdrantChunkIndex({ url: config.storage.qdrantUrl, apiKey: config.storage.qdrantApiKey, dims: embedder.dimensions, cluster: config.storage.qdrantCluster });
        await index.ensureCollections();
        return index;
      },
    },
    {
      provide: TASK_INDEX,
      inject: [APP_CONFIG, EMBEDDED_STORE, EMBEDDER],
      useFactory: async (config: AppConfig, store: EmbeddedStore | null, embedder: Embedder): Promise<TaskIndex> => {
        if (store) return store.tasks;
        const index = new QdrantTaskIndex({ url: config.storage.qdrantUrl, apiKey: config.storage.qdrantApiKey, dims: embedder.dimensions, cluster: config.storage.qdrantCluster });
        await index.ensureCollections();
        return index;
      },
    },
  ],
  exports: [EMBEDDER, CHUNK_INDEX, TASK_INDEX],
})
export class StorageModule implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StorageModule.name);

  constructor(
    private readonly health: HealthRegistry,
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
    @Inject(TASK_INDEX) private readonly tasks: TaskIndex,
    @Inject(EMBEDDER) private readonly embedder: CachedEmbedder,
    @Inject(EMBEDDED_STORE) private readonly store: EmbeddedStore | null,
    @Inject(EMBEDDING_CACHE) private readonly cache: SqliteEmbeddingCache,
  ) {}

  onModuleInit(): void {
    this.health.register('vector_store', async () => {
      const h = await this.chunks.health();
      return { ok: h.ok, detail: [h.backend, h.points !== undefined ? `${h.points} points` : null, h.detail].filter(Boolean).join(', ') };
    });
    this.health.register('embedder', async () => {
      const h = await this.embedder.health();
      const provider = this.embedder.id.split(':')[0];
      return { ok: h.ok, detail: h.detail ?? this.embedder.id, info: { id: this.embedder.id, provider: provider === 'hash-v1' ? 'hash' : provider, dimensions: this.embedder.dimensions, semantic: this.embedder.semantic } };
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.store) await this.store.close();
    else await Promise.allSettled([this.chunks.close(), this.tasks.close()]);
    this.cache.close();
    await this.embedder.close();
    this.logger.log('Storage closed');
  }
}

/** Model download progress: the server log, or stderr for CLI commands (whose log shows warnings only). */
function downloadLine(config: AppConfig): (line: string) => void {
  if (config.log.toStderr) return (line) => process.stderr.write(`${line}\n`);
  const logger = new Logger('EmbeddingModel');
  return (line) => logger.log(line);
}
