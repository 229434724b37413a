/** One result entering the merge: its list's priority, its position in that list, and its text embedding. */
export interface MergeEntry<T> {
  value: T;
  priority: number;
  /** Rank within its own source (1 = best). */
  rank: number;
  vector?: Float32Array | null;
}

export interface MergeOptions {
  /** Cosine similarity at or above which two results are the same (seed 002: 0.95). */
  dedupThreshold: number;
  dedup: boolean;
  /** Entries kept at most (`max_merged_results`); Infinity for no cap. */
  max: number;
}

export interface MergeOutcome<T> {
  kept: Array<MergeEntry<T>>;
  /** Removed as duplicates, each with the kept entry it duplicated. */
  duplicates: Array<{ dropped: MergeEntry<T>; keptAs: MergeEntry<T>; similarity: number }>;
}

/**
 * Seed 002's merge: higher priority first (then each source's own rank), near-duplicates
 * (cosine ≥ threshold on L2-normalised vectors) removed keeping the higher-priority copy,
 * capped at `max`. Stable for equal priorities and ranks (input order).
 *
 * @example mergeByPriority([index hit (p1), mcp hit (p2), same text via mcp (p2)], { dedupThreshold: 0.95, dedup: true, max: 15 })
 */
export function mergeByPriority<T>(entries: ReadonlyArray<MergeEntry<T>>, options: MergeOptions): MergeOutcome<T> {
  const ordered = entries.map((e, i) => ({ e, i })).sort((a, b) => b.e.priority - a.e.priority || a.e.rank - b.e.rank || a.i - b.i);
  const kept: Array<MergeEntry<T>> = [];
  const duplicates: MergeOutcome<T>['duplicates'] = [];
  for (const { e } of ordered) {
    if (options.dedup && e.vector) {
      let match: { entry: MergeEntry<T>; similarity: number } | null = null;
      for (const k of kept) {
        if (!k.vector) continue;
        const similarity = cosine(e.vector, k.vector);
        if (similarity >= options.dedupThreshold && (!match || similarity > match.similarity)) match = { entry: k, similarity };
      }
      if (match) {
        duplicates.push({ dropped: e, keptAs: match.entry, similarity: match.similarity });
        continue;
      }
    }
    kept.push(e);
  }
  return { kept: kept.slice(0, Number.isFinite(options.max) ? options.max : kept.length), duplicates };
}

/** Cosine of two vectors (not assumed normalised). */
export function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
