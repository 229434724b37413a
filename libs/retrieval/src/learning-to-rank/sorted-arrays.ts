/** First index in [from, end) whose value is >= x in an ascending array. */
export function lowerBound(list: ArrayLike<number>, x: number, from = 0, end = list.length): number {
  let lo = from;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [from, end) whose value is > x in an ascending array. */
export function upperBound(list: ArrayLike<number>, x: number, from = 0, end = list.length): number {
  let lo = from;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The `k` best of `items` by `scores[item]` (higher first; equal scores in `tie` order), best
 * first, without sorting every item: a bounded min-heap of the current best.
 */
export function topByScore(items: readonly number[], scores: Float64Array, k: number, tie: (a: number, b: number) => number): number[] {
  const better = (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && tie(a, b) < 0);
  const heap: number[] = [];
  if (k <= 0) return heap;
  for (const item of items) {
    // Most items lose to the worst of a full heap on score alone.
    if (heap.length === k && scores[item] < scores[heap[0]]) continue;
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!better(heap[parent], heap[i])) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    } else if (better(item, heap[0])) {
      heap[0] = item;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < heap.length && better(heap[worst], heap[l])) worst = l;
        if (r < heap.length && better(heap[worst], heap[r])) worst = r;
        if (worst === i) break;
        [heap[i], heap[worst]] = [heap[worst], heap[i]];
        i = worst;
      }
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}
