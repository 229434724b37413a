import { toRerankScale } from './rerank-scale';
import { RerankerUnavailableError, type RerankCandidate, type Reranker } from './reranker.port';

/**
 * Wire styles of rerank endpoints:
 * - `tei`: Hugging Face text-embeddings-inference `POST /rerank` `{query, texts}` -> `[{index, score}]`;
 * - `cohere`: Cohere/Jina/vLLM/OpenAI-compatible `POST /v1/rerank` `{model, query, documents, top_n}` -> `{results: [{index, relevance_score}]}`.
 */
export type RerankStyle = 'tei' | 'cohere';

export interface HttpRerankerOptions {
  /** The full endpoint URL (`http://tei:8080/rerank`, `https://api.cohere.com/v1/rerank`). */
  url: string;
  style: RerankStyle;
  model?: string;
  apiKey?: string;
  timeoutMs: number;
  /** Characters of each document sent (long files are cut; rerankers truncate anyway). */
  maxDocumentChars?: number;
  fetch?: typeof fetch;
}

/**
 * A cross-encoder behind an HTTP rerank endpoint. Any failure — refused connection, timeout,
 * non-2xx status, a body of the wrong shape or missing indexes — raises
 * {@link RerankerUnavailableError}, so the caller can keep its own order.
 */
export class HttpReranker implements Reranker {
  readonly name: string;
  constructor(private readonly options: HttpRerankerOptions) {
    this.name = `http:${options.style}`;
  }

  async rerank(query: string, candidates: readonly RerankCandidate[], signal?: AbortSignal): Promise<number[]> {
    if (!candidates.length) return [];
    const max = this.options.maxDocumentChars ?? 4000;
    const documents = candidates.map((c) => (c.title ? `${c.title}\n${c.text}` : c.text).slice(0, max));
    const body =
      this.options.style === 'tei'
        ? { query, texts: documents, raw_scores: false, truncate: true }
        : { ...(this.options.model ? { model: this.options.model } : {}), query, documents, top_n: documents.length };
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let json: unknown;
    try {
      const res = await (this.options.fetch ?? fetch)(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: combined,
      });
      if (!res.ok) throw new RerankerUnavailableError(`rerank endpoint answered ${res.status}`);
      json = await res.json();
    } catch (err) {
      if (err instanceof RerankerUnavailableError) throw err;
      if (timeout.aborted) throw new RerankerUnavailableError(`rerank endpoint timed out after ${this.options.timeoutMs} ms`);
      throw new RerankerUnavailableError(`rerank endpoint unreachable: ${(err as Error).message}`);
    }
    const raw = readScores(json, this.options.style, documents.length);
    return toRerankScale(raw);
  }
}

/** Scores in candidate order from either wire shape; every index must be answered exactly once. */
function readScores(json: unknown, style: RerankStyle, n: number): number[] {
  const entries = style === 'tei' ? json : (json as { results?: unknown } | null)?.results;
  if (!Array.isArray(entries)) throw new RerankerUnavailableError(`rerank endpoint answered an unexpected body (expected ${style === 'tei' ? 'an array' : '{results: [...]}'})`);
  const scores: Array<number | undefined> = new Array(n).fill(undefined);
  for (const e of entries as Array<Record<string, unknown>>) {
    const index = e?.index;
    const score = style === 'tei' ? e?.score : e?.relevance_score;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= n || typeof score !== 'number' || !Number.isFinite(score)) {
      throw new RerankerUnavailableError('rerank endpoint answered an entry without a valid index and score');
    }
    scores[index] = score;
  }
  if (scores.some((s) => s === undefined)) throw new RerankerUnavailableError(`rerank endpoint scored ${scores.filter((s) => s !== undefined).length} of ${n} documents`);
  return scores as number[];
}
