import { DEFAULT_STRUCTURAL_PRIORS, type QueryClass, type SourceWeights, type StructuralPriors } from '@sextant/retrieval';
import { rankOffline, type PooledQuery, type SimMetric } from './offline-ranker';
import { scoreRanking } from '@sextant/eval';

/** Every weight vector on the simplex over `sources` with the given step (0.1 -> 1001 points for 5 sources). */
export function simplexGrid(sources: readonly string[], step: number): SourceWeights[] {
  const units = Math.round(1 / step);
  const out: SourceWeights[] = [];
  const rec = (i: number, left: number, acc: number[]) => {
    if (i === sources.length - 1) {
      const w: SourceWeights = {};
      [...acc, left].forEach((u, j) => (w[sources[j]] = u / units));
      out.push(w);
      return;
    }
    for (let u = 0; u <= left; u++) rec(i + 1, left - u, [...acc, u]);
  };
  rec(0, units, []);
  // A source with weight 0 is removed from fusion; keep at least one source on.
  return out.filter((w) => Object.values(w).some((v) => (v ?? 0) > 0));
}

/** The grid point with the best mean `metric` over `queries` of one class (ties: first found). */
export function bestFixedWeights(queries: readonly PooledQuery[], queryClass: QueryClass, grid: readonly SourceWeights[], metric: SimMetric, priors: StructuralPriors = DEFAULT_STRUCTURAL_PRIORS): { weights: SourceWeights; score: number } {
  const mine = queries.filter((q) => q.queryClass === queryClass);
  let best = { weights: grid[0], score: -1 };
  for (const w of grid) {
    let total = 0;
    for (const q of mine) total += scoreRanking(rankOffline(q.rankings, w, priors), q.relevant)[metric];
    const score = mine.length ? total / mine.length : 0;
    if (score > best.score + 1e-12) best = { weights: w, score };
  }
  return best;
}
