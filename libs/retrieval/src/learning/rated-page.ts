import { fuse, type FusionStrategy } from '../fusion/fuse';
import type { SourceName, SourceRanking, SourceWeights } from '../fusion/fusion.types';
import { applyPriors, DEFAULT_STRUCTURAL_PRIORS, orderRankingsByPrior, PRIOR_BEFORE_FUSION, type StructuralPriors } from '../ranking/structural-priors';
import { poolEvidence } from './credit-assignment';
import type { PairwiseGradientInput, PageItem } from './pairwise-gradient';

/** A logged search as the learner judges its ratings: see {@link ratedPage}. */
export interface RatedPage {
  /** Sources that answered the search (the participants of an update). */
  sources: SourceName[];
  /** The weights the search used. */
  weights: SourceWeights;
  /** Evidence of every pooled item per source. */
  evidence: Map<string, Record<string, number>>;
  /** What each pooled item's fused score was multiplied by: its structural prior, or 1 under the rank fusions, which weighed the prior into each source's order instead. */
  priors: Map<string, number>;
  /** Ids of the first `pageSize` results, in the order the search showed them. */
  shown: string[];
}

/** Input of {@link ratedPage}. */
export interface RatedPageInput {
  strategy: FusionStrategy;
  pool: readonly SourceRanking[];
  weights: SourceWeights;
  /** How many results count as shown (K; at most what the search returned). */
  pageSize: number;
  /** Path of an item id (priors are per path). */
  pathOf: (id: string) => string;
  priors?: StructuralPriors;
}

/** The cascade split SearchService uses (only `cascade` reads it). */
const PRIMARY = ['file.dense', 'file.keyword', 'file.symbol'];
const SECONDARY = ['task.dense', 'task.keyword'];

/**
 * Rebuilds what a search showed from its logged pool — the same fusion with the same
 * weights and the structural priors where the search applied them — with every item's
 * evidence, so ratings of the search can be judged pairwise ({@link pageItems}).
 *
 * @example
 * ratedPage({ strategy: 'weighted', pool, weights, pageSize: 10, pathOf: (id) => id.slice(id.indexOf(':', 5) + 1) }).shown // first 10 ids
 */
export function ratedPage(input: RatedPageInput): RatedPage {
  const { strategy, pool, weights, pageSize, pathOf, priors = DEFAULT_STRUCTURAL_PRIORS } = input;
  const beforeFusion = PRIOR_BEFORE_FUSION.has(strategy);
  const lists = beforeFusion ? orderRankingsByPrior(pool, priors, pathOf) : pool;
  const ranked = applyPriors(fuse(strategy, lists, { weights, primary: PRIMARY, secondary: SECONDARY }), priors, (f) => pathOf(f.id), { scale: !beforeFusion });
  return {
    sources: pool.map((r) => r.source),
    weights,
    evidence: poolEvidence(strategy, lists),
    priors: new Map(ranked.map((f) => [f.id, beforeFusion ? 1 : f.prior])),
    shown: ranked.slice(0, Math.max(1, pageSize)).map((f) => f.id),
  };
}

/**
 * The page's items for {@link pairwiseGradient}: the shown results (unrated = a neutral 0)
 * and every item the principal rated, each with the rating the weights learned from it.
 */
export function pageItems(page: RatedPage, learned: ReadonlyMap<string, number>, temperature: number): PairwiseGradientInput {
  const ids = [...new Set([...page.shown, ...learned.keys()])];
  const items: PageItem[] = ids.map((id) => ({ id, rating: learned.get(id) ?? 0, evidence: page.evidence.get(id) ?? {}, prior: page.priors.get(id) ?? 1 }));
  return { items, sources: page.sources, weights: page.weights, temperature };
}
