import type { Embedder, EmbedderHealth } from '@sextant/embeddings';
import type { Counter, Histogram } from 'prom-client';
import type { MetricsService } from '../modules/metrics/metrics.service';

/**
 * The embedding model behind the cache, timed: how long each call to the model (or the hash
 * worker) takes and how often it fails, by call kind. Cache hits never reach it.
 */
export class MeasuredEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly cacheable?: boolean;
  readonly semantic?: boolean;
  private readonly duration: Histogram<'kind'>;
  private readonly errors: Counter<'kind'>;

  constructor(
    private readonly inner: Embedder,
    metrics: MetricsService,
  ) {
    this.id = inner.id;
    this.dimensions = inner.dimensions;
    this.cacheable = inner.cacheable;
    this.semantic = inner.semantic;
    this.duration = metrics.histogram('embedder_duration_seconds', 'Embedding model call latency by kind (documents batch or query)', ['kind'], [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30]);
    this.errors = metrics.counter('embedder_errors_total', 'Embedding model calls that failed, by kind', ['kind']);
  }

  embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return this.measure('documents', () => this.inner.embedDocuments(texts, signal));
  }

  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    return this.measure('query', () => this.inner.embedQuery(text, signal));
  }

  health(): Promise<EmbedderHealth> {
    return this.inner.health();
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }

  private async measure<T>(kind: 'documents' | 'query', call: () => Promise<T>): Promise<T> {
    const end = this.duration.startTimer({ kind });
    try {
      return await call();
    } catch (err) {
      this.errors.inc({ kind });
      throw err;
    } finally {
      end();
    }
  }
}
