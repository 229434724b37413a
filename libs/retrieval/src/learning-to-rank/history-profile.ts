import { lowerBound, topByScore } from './sorted-arrays';

/**
 * One query's history-profile scores ({@link ChangeHistory.profile}): the files with any
 * evidence, ranked by score (ties by path). Ranks are counted for the files asked about and
 * the best files picked with a bounded heap, instead of sorting every profiled file (most of
 * the workspace for common words).
 */
export class HistoryProfile {
  /** The best score (0 when no file has evidence). */
  readonly max: number;

  /**
   * `files`: the file ids with evidence; `scores`: every file id's score (0 without evidence);
   * `paths` / `ids`: the history's id <-> path tables; `pathOrder`: each file id's place in path order.
   */
  constructor(
    private readonly files: readonly number[],
    private readonly scores: Float64Array,
    private readonly paths: readonly string[],
    private readonly ids: ReadonlyMap<string, number>,
    private readonly pathOrder: Int32Array,
  ) {
    let max = 0;
    for (const f of files) if (scores[f] > max) max = scores[f];
    this.max = max;
  }

  /** How many files have evidence. */
  get size(): number {
    return this.files.length;
  }

  /** The file's score (0 without evidence). */
  score(path: string): number {
    const id = this.ids.get(path);
    return id === undefined ? 0 : this.scores[id];
  }

  /**
   * Each file's 1-based rank among the files with evidence (0 without evidence), in one pass
   * over the profile: a profiled file ranks above the asked files with a lower score (found by
   * binary search among their sorted scores) and above those with its score and a later path
   * (counted per score once the pass has gathered the path places of each asked score).
   */
  ranks(paths: readonly string[]): Int32Array {
    const ranks = new Int32Array(paths.length);
    const asked: Array<{ k: number; score: number; order: number }> = [];
    for (let k = 0; k < paths.length; k++) {
      const id = this.ids.get(paths[k]);
      if (id !== undefined && this.scores[id] > 0) asked.push({ k, score: this.scores[id], order: this.pathOrder[id] });
    }
    if (!asked.length) return ranks;
    asked.sort((a, b) => a.score - b.score);
    const m = asked.length;
    const sorted = new Float64Array(m);
    for (let c = 0; c < m; c++) sorted[c] = asked[c].score;
    // above[c]: profiled files scoring above the asked files before c but not above c; summed from the top below.
    const above = new Int32Array(m + 1);
    // tied[c], for the first asked file c of each score: the path places of the profiled files with that score.
    const tied: Array<number[] | undefined> = [];
    const lowest = sorted[0];
    for (const f of this.files) {
      const s = this.scores[f];
      if (s < lowest) continue;
      let lo = 0;
      let hi = m;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid] < s) lo = mid + 1;
        else hi = mid;
      }
      above[lo] += 1;
      if (lo < m && sorted[lo] === s) (tied[lo] ??= []).push(this.pathOrder[f]);
    }
    let higher = 0;
    for (let c = m - 1; c >= 0; c--) {
      higher += above[c + 1];
      ranks[asked[c].k] = 1 + higher;
    }
    tied.forEach((places, first) => {
      if (!places || places.length < 2) return;
      const ascending = new Int32Array(places).sort();
      for (let c = first; c < m && sorted[c] === sorted[first]; c++) ranks[asked[c].k] += lowerBound(ascending, asked[c].order);
    });
    return ranks;
  }

  /** The paths of the `k` best files, best first. */
  top(k: number): string[] {
    return topByScore(this.files, this.scores, k, (f) => this.pathOrder[f]).map((f) => this.paths[f]);
  }
}
