import type { Provider } from '@nestjs/common';
import { HttpReranker, LocalReranker, type Reranker } from '@sextant/retrieval';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';

/** The reranker `rerank: true` searches use: the HTTP endpoint at RERANK_URL, else the local scorer. */
export const RERANKER = Symbol('RERANKER');

export const rerankerProvider: Provider = {
  provide: RERANKER,
  useFactory: (config: AppConfig): Reranker =>
    config.rerank.url
      ? new HttpReranker({ url: config.rerank.url, style: config.rerank.style, model: config.rerank.model, apiKey: config.rerank.apiKey, timeoutMs: config.rerank.timeoutMs })
      : new LocalReranker(),
  inject: [APP_CONFIG],
};
