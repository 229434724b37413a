/**
 * Merges two rankings of the same kind of scored items (scores in [0, 1]): each item's score is
 * the weighted mean of its score in `primary` (weight 1) and in `secondary` (weight
 * `secondaryWeight`), 0 where a ranking lacks it, so merged scores stay in [0, 1] and the order
 * follows them (ties keep `primary`'s order, then `secondary`'s). Where both have an item,
 * `primary`'s entry is kept (its other fields, such as explanations).
 *
 * @example
 * mergeByScore([{ id: 'a', score: 0.9 }, { id: 'b', score: 0.5 }], [{ id: 'b', score: 0.9 }], 0.5)
 * // [{ id: 'a', score: 0.6 }, { id: 'b', score: 0.633… }] -> b first
 */
export function mergeByScore<T extends { id: string; score: number }>(primary: readonly T[], secondary: readonly T[], secondaryWeight: number): T[] {
  const secondaryScore = new Map(secondary.map((f) => [f.id, f.score]));
  const inPrimary = new Set(primary.map((f) => f.id));
  return [...primary, ...secondary.filter((f) => !inPrimary.has(f.id))]
    .map((item, order) => ({
      item,
      order,
      score: ((inPrimary.has(item.id) ? item.score : 0) + secondaryWeight * (secondaryScore.get(item.id) ?? 0)) / (1 + secondaryWeight),
    }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ item, score }) => Object.assign({}, item, { score }));
}
