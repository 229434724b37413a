/**
 * Binary-relevance ranking metrics (docs/eval-format.md). A ranked list may repeat an
 * id; only its first occurrence counts, so a run cannot score twice for one file.
 */

function firstOccurrences(ranked: readonly string[]): string[] {
  return [...new Set(ranked)];
}

function hitsInTopK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  return firstOccurrences(ranked).slice(0, k).filter((id) => relevant.has(id)).length;
}

const asSet = (relevant: Iterable<string>): ReadonlySet<string> => (relevant instanceof Set ? relevant : new Set(relevant));

/**
 * P@k = (relevant files in the top k) / k. A list shorter than k is not rewarded for it.
 *
 * @example
 * precisionAtK(['a', 'x', 'b'], ['a', 'b'], 5) // 0.4
 */
export function precisionAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  if (!(k > 0)) throw new RangeError(`k must be > 0, got ${k}`);
  return hitsInTopK(ranked, asSet(relevant), k) / k;
}

/**
 * R@k = (relevant files in the top k) / (all relevant files); 0 when nothing is relevant.
 *
 * @example
 * recallAtK(['a', 'x', 'b'], ['a', 'b', 'c', 'd'], 2) // 0.25
 */
export function recallAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  if (!(k > 0)) throw new RangeError(`k must be > 0, got ${k}`);
  const rel = asSet(relevant);
  return rel.size === 0 ? 0 : hitsInTopK(ranked, rel, k) / rel.size;
}

/**
 * 1 / rank of the first relevant file, 0 when none is ranked (its mean over queries is MRR).
 *
 * @example
 * reciprocalRank(['x', 'y', 'a'], ['a']) // 1/3
 */
export function reciprocalRank(ranked: readonly string[], relevant: Iterable<string>): number {
  const rel = asSet(relevant);
  const index = firstOccurrences(ranked).findIndex((id) => rel.has(id));
  return index === -1 ? 0 : 1 / (index + 1);
}

/**
 * NDCG@k with binary gains: DCG = Σ_{i≤k} rel_i / log2(i + 1), divided by the DCG of a
 * perfect list (all relevant files first, `min(|relevant|, k)` of them). Equals seed 000's
 * `(2^rel - 1)` form for rel ∈ {0, 1}. 0 when nothing is relevant.
 *
 * @example
 * ndcgAtK(['x', 'a'], ['a'], 10) // 1/log2(3) ≈ 0.631
 */
export function ndcgAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  if (!(k > 0)) throw new RangeError(`k must be > 0, got ${k}`);
  const rel = asSet(relevant);
  if (rel.size === 0) return 0;
  let dcg = 0;
  firstOccurrences(ranked)
    .slice(0, k)
    .forEach((id, i) => {
      if (rel.has(id)) dcg += 1 / Math.log2(i + 2);
    });
  let idcg = 0;
  for (let i = 0; i < Math.min(rel.size, k); i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

/**
 * Acc@k: 1 when every relevant file is in the top k, else 0 (the issue-report evaluation's
 * measure: a fix is found only when all the files it touched are shown). 0 when nothing is relevant.
 *
 * @example
 * accuracyAtK(['a', 'x', 'b'], ['a', 'b'], 3) // 1
 * accuracyAtK(['a', 'x', 'b'], ['a', 'b'], 1) // 0
 */
export function accuracyAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  if (!(k > 0)) throw new RangeError(`k must be > 0, got ${k}`);
  const rel = asSet(relevant);
  return rel.size > 0 && hitsInTopK(ranked, rel, k) === rel.size ? 1 : 0;
}
