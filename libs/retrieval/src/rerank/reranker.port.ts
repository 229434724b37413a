/** One result as a reranker sees it: the text it is judged on and its fused score (0..1 within the list). */
export interface RerankCandidate {
  text: string;
  /** Path or title: what a person would read first. */
  title?: string;
  /** The result's fused score divided by the list's best fused score (0..1). */
  fusedShare?: number;
}

/**
 * Scores search results against the query on seed 002's 0–4 scale (one score per candidate,
 * in candidate order). Implementations: the local scorer (no model) and an HTTP reranker.
 */
export interface Reranker {
  readonly name: string;
  rerank(query: string, candidates: readonly RerankCandidate[], signal?: AbortSignal): Promise<number[]>;
}

/** Raised by a reranker that could not answer (unreachable, timed out, bad response); search keeps its fused order. */
export class RerankerUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RerankerUnavailableError';
  }
}
