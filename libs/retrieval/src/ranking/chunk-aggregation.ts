/** A chunk-level search hit; any extra fields ride along as evidence. */
export interface ChunkHit {
  chunkId: string;
  /** File the chunk belongs to (relative path). */
  path: string;
  score: number;
}

/** A file ranked from its chunks, with the best chunks kept as evidence. */
export interface FileFromChunks<T extends ChunkHit = ChunkHit> {
  /** Same as `path`; lets the result feed fusion's `{ id, score }` lists directly. */
  id: string;
  path: string;
  score: number;
  /** The best chunk's score before the multi-chunk bonus. */
  bestChunkScore: number;
  /** How many distinct chunks of the file matched. */
  matchingChunks: number;
  /** Best chunks first, at most `evidencePerFile`. */
  evidence: T[];
}

/** Options for {@link aggregateChunksToFiles}. */
export interface AggregateChunksOptions {
  /** Bonus per matching chunk beyond the best one, as a fraction of the best score (default 0.1). */
  bonusPerExtraChunk?: number;
  /** At most this many extra chunks earn the bonus (default 3), so a huge file cannot win on volume. */
  maxBonusChunks?: number;
  /** Chunks kept per file as evidence (default 3). */
  evidencePerFile?: number;
}

/**
 * Turns chunk hits into a file ranking. A file scores
 *
 *     score = best + |best| × bonusPerExtraChunk × min(matchingChunks - 1, maxBonusChunks)
 *
 * i.e. `best × (1 + bonus × min(extra, max))` for the usual non-negative scores. The file
 * is as good as its best chunk, and a few more matching chunks nudge it up (defaults: up to
 * +30 %) without letting long files win on volume. Using `|best|` keeps the rule sensible
 * for negative scores (dense cosine can be below 0): extra chunks still move the score up,
 * towards 0, instead of multiplying it further below 0. Duplicate chunk ids count once.
 * Output: best file first; ties by path.
 *
 * @example
 * aggregateChunksToFiles([
 *   { chunkId: 'a#1', path: 'src/auth.ts', score: 0.8 },
 *   { chunkId: 'a#2', path: 'src/auth.ts', score: 0.5 },
 *   { chunkId: 'b#1', path: 'src/db.ts', score: 0.85 },
 * ]) // [{ path: 'src/auth.ts', score: 0.88, ... }, { path: 'src/db.ts', score: 0.85, ... }]
 */
export function aggregateChunksToFiles<T extends ChunkHit>(hits: readonly T[], options: AggregateChunksOptions = {}): Array<FileFromChunks<T>> {
  const { bonusPerExtraChunk = 0.1, maxBonusChunks = 3, evidencePerFile = 3 } = options;
  if (bonusPerExtraChunk < 0 || maxBonusChunks < 0 || evidencePerFile < 0) {
    throw new RangeError('aggregateChunksToFiles options must be >= 0');
  }
  const byPath = new Map<string, Map<string, T>>();
  for (const hit of hits) {
    if (!Number.isFinite(hit.score)) continue; // a broken score must not sink the whole result
    let chunks = byPath.get(hit.path);
    if (!chunks) byPath.set(hit.path, (chunks = new Map()));
    const seen = chunks.get(hit.chunkId);
    if (!seen || hit.score > seen.score) chunks.set(hit.chunkId, hit);
  }
  const files: Array<FileFromChunks<T>> = [];
  for (const [path, chunks] of byPath) {
    const ranked = [...chunks.values()].sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0));
    const best = ranked[0].score;
    const extra = Math.min(ranked.length - 1, maxBonusChunks);
    files.push({
      id: path,
      path,
      score: best + Math.abs(best) * bonusPerExtraChunk * extra,
      bestChunkScore: best,
      matchingChunks: ranked.length,
      evidence: ranked.slice(0, evidencePerFile),
    });
  }
  return files.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
