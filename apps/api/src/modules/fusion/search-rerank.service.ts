import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ExternalResult, ParsedSearchRequest, SearchResult } from '@sextant/contracts';
import { applyRerank, RerankerUnavailableError, type RerankCandidate, type Reranker } from '@sextant/retrieval';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { RERANKER } from './reranker.provider';

/**
 * The reranking step of `rerank: true` searches: one reranker call scores the indexed results
 * and the external ones on the 0–4 scale; each list is re-ordered by it and results under the
 * threshold are dropped or flagged. A reranker that fails or times out changes nothing but
 * `limits`: the results keep their fused order.
 */
@Injectable()
export class SearchRerankService {
  private readonly logger = new Logger(SearchRerankService.name);

  constructor(
    @Inject(RERANKER) private readonly reranker: Reranker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether searches that do not say `rerank` are reranked (RERANK_BY_DEFAULT). */
  get byDefault(): boolean {
    return this.config.rerank.byDefault;
  }

  async rerank(
    request: ParsedSearchRequest,
    results: SearchResult[],
    external: ExternalResult[],
    limits: string[],
    signal?: AbortSignal,
  ): Promise<{ results: SearchResult[]; external: ExternalResult[] }> {
    if (!results.length && !external.length) return { results, external };
    const threshold = request.rerank_threshold ?? this.config.rerank.threshold;
    const mode = request.rerank_mode ?? this.config.rerank.mode;
    const best = results.reduce((m, r) => Math.max(m, r.score), 0);
    const candidates: RerankCandidate[] = [
      ...results.map((r) => ({ title: r.path, text: (r.evidence.length ? r.evidence : r.chunk ? [r.chunk] : []).map((c) => c.snippet).join('\n'), fusedShare: best > 0 ? r.score / best : 0 })),
      ...external.map((e, i) => ({ title: e.title, text: e.text.slice(0, 8000), fusedShare: 1 - i / Math.max(1, external.length) })),
    ];
    let scores: number[];
    try {
      scores = await this.reranker.rerank(request.query, candidates, signal);
    } catch (err) {
      if (!(err instanceof RerankerUnavailableError)) this.logger.warn({ err }, 'Reranker failed');
      limits.push(`rerank: skipped (${this.reranker.name}: ${(err as Error).message}); results keep their fused order`);
      return { results, external };
    }
    const files = applyRerank(results, scores.slice(0, results.length), { threshold, mode });
    const outside = applyRerank(external, scores.slice(results.length), { threshold, mode });
    const dropped = files.dropped + outside.dropped;
    if (dropped) limits.push(`rerank: ${dropped} result(s) under ${threshold} dropped`);
    return { results: files.items.map((r, i) => ({ ...r, rank: i + 1 })), external: outside.items.map((e, i) => ({ ...e, rank: i + 1 })) };
  }
}
