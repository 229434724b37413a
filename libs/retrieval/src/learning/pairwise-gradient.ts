import type { SourceName, SourceWeights } from '../fusion/fusion.types';
import { normaliseWeights } from './normalise-weights';

/** One result of a rated search page: the principal's rating (0 = shown but not rated) and each source's evidence for it. */
export interface PageItem {
  id: string;
  /** Signed rating in [-1, 1] the weights have learned (or will learn) from this principal; 0 for a neutral or unrated result. */
  rating: number;
  /** Evidence in [0, 1] per source of the search (see `poolEvidence`); a missing source counts as 0. */
  evidence: Readonly<Record<string, number>>;
  /** The structural prior the search multiplied the item's fused score by (default 1); it only enters f. */
  prior?: number;
}

/** Input of {@link pairwiseGradient}. */
export interface PairwiseGradientInput {
  /** The page: the search's shown results and every result the principal rated. */
  items: readonly PageItem[];
  /** Sources that answered the search (the participants of the update). */
  sources: readonly SourceName[];
  /** The weights the search used (they set the fused scores f of the pair weights). */
  weights: SourceWeights;
  /** T of the pair weight λ. */
  temperature: number;
}

/**
 * The learning signal of one principal's ratings of one search page — a pairwise credit:
 * for every pair of page items with different ratings, i preferred to j (r_i > r_j),
 *
 * ```
 * G_s = (1/Z) · Σ_{r_i > r_j}  λ_ij · (r_i − r_j)/2 · (g_s(i) − g_s(j))
 * λ_ij = 4σ(x)σ(−x),  x = (f_j − f_i)/T,   f = prior · Σ_s p_s g_s  (p = the search's weights normalised over `sources`)
 * Z = number of such pairs
 * ```
 *
 * A source earns credit only for ranking the preferred item *above* the other one (sources
 * that rank both equally get nothing), so a source that rarely answers is no longer rewarded
 * for being absent from the disliked results. Each page weighs at most 1 (positive and
 * negative ratings of a page weigh equally, however many there are).
 *
 * λ is the slope of the pair's smoothed misordering σ(x) (the loss is a smoothed count of
 * misordered pairs), scaled to 1 for a tie: pairs the search scored close together — the
 * ones a weight change can reorder — teach the most; pairs it already ordered well by a wide
 * margin, and pairs it ordered wrongly by a wide margin, teach little. The loss is
 * symmetric (σ(x) + σ(−x) = 1): if a pair's order is flipped by a wrong rating with
 * probability ε < ½, its expected loss is (1 − 2ε)·σ(x) + ε, so rating noise slows learning
 * but does not move where the loss is smallest. (A logistic/RankNet weight 2σ(x) instead
 * gives the largest weight, 2, to a wrong rating of a result the search ranked well.)
 * Items with no evidence from any source (no source ranked them) take no part.
 *
 * @example
 * pairwiseGradient({ items: [{ id: 'a', rating: 1, evidence: { 'task.dense': 1 } }, { id: 'b', rating: -1, evidence: { 'file.dense': 1, 'task.dense': 1 } }],
 *   sources: ['file.dense', 'task.dense'], weights: { 'file.dense': 1, 'task.dense': 1 }, temperature: 0.5 })
 * // { 'file.dense': -0.78…, 'task.dense': 0 }   (x = (1 − 0.5)/0.5 = 1, λ = 4σ(1)σ(−1) = 0.7864; the search put the disliked b first)
 */
export function pairwiseGradient(input: PairwiseGradientInput): Record<string, number> {
  const { sources, temperature } = input;
  const p = normaliseWeights(input.weights, sources);
  const items = input.items
    .map((it) => ({ rating: it.rating, prior: it.prior ?? 1, g: sources.map((s) => clamp01(it.evidence[s] ?? 0)) }))
    .filter((it) => Number.isFinite(it.rating) && it.g.some((v) => v > 0));
  // The search's own (normalised) score of each item: how it ordered them.
  const f = items.map((it) => it.prior * it.g.reduce((acc, v, k) => acc + p[sources[k]] * v, 0));
  const out = new Array<number>(sources.length).fill(0);
  let pairs = 0;
  for (let i = 0; i < items.length; i++) {
    for (let j = 0; j < items.length; j++) {
      const diff = items[i].rating - items[j].rating;
      if (!(diff > 0)) continue;
      pairs++;
      const x = (f[j] - f[i]) / Math.max(temperature, 1e-9);
      const lambda = 4 * sigmoid(x) * sigmoid(-x);
      for (let k = 0; k < sources.length; k++) out[k] += lambda * (diff / 2) * (items[i].g[k] - items[j].g[k]);
    }
  }
  return Object.fromEntries(sources.map((s, k) => [s, pairs ? out[k] / pairs : 0]));
}

/**
 * What one rating action teaches: the page's gradient after it minus before it (same page,
 * the rated item's learned rating changed). Learning each action's difference makes the
 * weights' total exponent for a page depend only on its final ratings, not their order;
 * replaying a rating is a zero step and withdrawing one is the opposite step.
 */
export function ratingGradient(before: PairwiseGradientInput, after: PairwiseGradientInput): Record<string, number> {
  const a = pairwiseGradient(after);
  const b = pairwiseGradient(before);
  return Object.fromEntries(Object.keys(a).map((s) => [s, a[s] - (b[s] ?? 0)]));
}

const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));
const clamp01 = (v: number) => (Number.isFinite(v) ? (v < 0 ? 0 : v > 1 ? 1 : v) : 0);
