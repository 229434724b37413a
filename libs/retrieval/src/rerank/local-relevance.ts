import { tokenize } from '../tokenizer';
import { RERANK_SCALE_MAX } from './rerank-scale';
import type { RerankCandidate, Reranker } from './reranker.port';

/** How much each signal weighs in the local score (they sum to 1; the score is 4 × the weighted sum). */
export interface LocalRelevanceParams {
  /** Share of the query's distinct terms found in the text. */
  coverage: number;
  /** How close together the found terms are (the shortest window holding all of them). */
  proximity: number;
  /** Share of the query's terms found in the path or title. */
  title: number;
  /** The result's fused score relative to the list's best. */
  fused: number;
}

export const DEFAULT_LOCAL_RELEVANCE: LocalRelevanceParams = { coverage: 0.5, proximity: 0.15, title: 0.15, fused: 0.2 };

/**
 * A relevance score on the 0–4 scale with no model: query-term coverage of the text, how
 * tightly the matched terms sit together, whether the path/title names them, and the fused
 * score. A result holding every query term within a few lines, ranked first, scores near 4;
 * one sharing no term with the query scores at most its fused share.
 *
 * @example scoreLocalRelevance(['session', 'refresh'], { text: 'function refreshSession() {…}', fusedShare: 1 }) // ≈ 3.7
 */
export function scoreLocalRelevance(queryTerms: readonly string[], candidate: RerankCandidate, params: LocalRelevanceParams = DEFAULT_LOCAL_RELEVANCE): number {
  const wanted = [...new Set(queryTerms)];
  const fused = clamp01(candidate.fusedShare ?? 0);
  if (!wanted.length) return RERANK_SCALE_MAX * params.fused * fused;
  const tokens = tokenize(candidate.text);
  const positions = new Map<string, number[]>();
  const wantedSet = new Set(wanted);
  // A term also matches longer forms of itself (`session` ~ `sessions`, `refresh` ~ `refreshed`): no stemmer, just prefixes.
  const prefixes = wanted.filter((w) => w.length >= 4);
  tokens.forEach((t, i) => {
    const hits = wantedSet.has(t) ? [t] : prefixes.filter((w) => t.length > w.length && t.length <= w.length + 3 && t.startsWith(w));
    for (const w of hits) positions.set(w, [...(positions.get(w) ?? []), i]);
  });
  const coverage = positions.size / wanted.length;
  const proximity = positions.size < 2 ? (positions.size === 1 && wanted.length === 1 ? 1 : 0) : windowTightness(positions);
  const titleTokens = tokenize(candidate.title ?? '');
  const title = wanted.filter((w) => titleTokens.some((t) => t === w || (w.length >= 4 && t.startsWith(w) && t.length <= w.length + 3))).length / wanted.length;
  const sum = params.coverage * coverage + params.proximity * proximity + params.title * title + params.fused * fused;
  return Math.min(RERANK_SCALE_MAX, RERANK_SCALE_MAX * sum);
}

/** 1 when all found terms are adjacent, falling towards 0 as the shortest window holding one of each grows. */
function windowTightness(positions: Map<string, number[]>): number {
  const events = [...positions.entries()].flatMap(([term, list]) => list.map((p) => ({ term, p }))).sort((a, b) => a.p - b.p);
  const need = positions.size;
  const count = new Map<string, number>();
  let best = Infinity;
  let left = 0;
  for (let right = 0; right < events.length; right++) {
    count.set(events[right].term, (count.get(events[right].term) ?? 0) + 1);
    while (count.size === need) {
      best = Math.min(best, events[right].p - events[left].p + 1);
      const t = events[left].term;
      const c = count.get(t)! - 1;
      if (c === 0) count.delete(t);
      else count.set(t, c);
      left++;
    }
  }
  // A window of `need` tokens is perfect; 40 tokens apart (a few lines of code) still counts half.
  return Math.min(1, need / best) ** 0.5 * (best <= need * 20 ? 1 : 0.5);
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));

/** The default reranker: {@link scoreLocalRelevance} over each candidate; needs no model and no network. */
export class LocalReranker implements Reranker {
  readonly name = 'local';
  constructor(private readonly params: LocalRelevanceParams = DEFAULT_LOCAL_RELEVANCE) {}

  async rerank(query: string, candidates: readonly RerankCandidate[]): Promise<number[]> {
    const terms = tokenize(query, { removeStopWords: true });
    return candidates.map((c) => scoreLocalRelevance(terms, c, this.params));
  }
}
