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

/**
 * The `k` best of `items` by `scores[item]`, higher first, equal scores by ascending
 * `tieKey(item)`, best first. Two passes instead of sorting every item or keeping a heap of
 * items (which, with the many equal scores BM25 gives short texts, keeps swapping ties): a
 * heap of the best score values finds the k-th best score, then the items above it and the
 * first of those at it by tie key are taken and sorted.
 */
export function topByScore(items: readonly number[], scores: Float64Array, k: number, tieKey: (item: number) => number): number[] {
  if (k <= 0 || items.length === 0) return [];
  let picked: number[];
  if (items.length <= k) picked = [...items];
  else {
    const threshold = kthLargest(items, scores, k);
    picked = [];
    const tied: number[] = [];
    for (const item of items) {
      if (scores[item] > threshold) picked.push(item);
      else if (scores[item] === threshold) tied.push(item);
    }
    if (tied.length > k - picked.length) tied.sort((a, b) => tieKey(a) - tieKey(b)).length = k - picked.length;
    picked.push(...tied);
  }
  return picked.sort((a, b) => scores[b] - scores[a] || tieKey(a) - tieKey(b));
}

/** The k-th largest of the items' scores (k <= items), with a min-heap of the k largest values. */
function kthLargest(items: readonly number[], scores: Float64Array, k: number): number {
  const heap = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    heap[i] = scores[items[i]];
    for (let j = i; j > 0; ) {
      const parent = (j - 1) >> 1;
      if (heap[parent] <= heap[j]) break;
      const t = heap[parent];
      heap[parent] = heap[j];
      heap[j] = t;
      j = parent;
    }
  }
  for (let i = k; i < items.length; i++) {
    const v = scores[items[i]];
    if (v <= heap[0]) continue;
    heap[0] = v;
    for (let j = 0; ; ) {
      const l = 2 * j + 1;
      const r = l + 1;
      let least = j;
      if (l < k && heap[l] < heap[least]) least = l;
      if (r < k && heap[r] < heap[least]) least = r;
      if (least === j) break;
      const t = heap[least];
      heap[least] = heap[j];
      heap[j] = t;
      j = least;
    }
  }
  return heap[0];
}
