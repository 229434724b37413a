import { Injectable } from '@nestjs/common';
import type { LinearRankerModel } from '@sextant/retrieval';

/** One candidate file of a ranked list and its feature vector (FEATURE_NAMES order). */
export interface LoggedCandidate {
  path: string;
  features: number[];
}

/**
 * What feature logging writes, one record per list the learned ranker sees:
 * - `train`: a training list (a past task, `position` tasks into the history, or a rated search
 *   asked when `position` tasks existed) as the search saw it with only `as_of` tasks of history,
 *   its labels (grade per relevant path) and `relevant_total` (recall's denominator); in the
 *   order training reads them (the newest quarter of the past tasks is the validation set);
 * - `search`: the candidates a default search re-ranked (`pass` `title` for the first-paragraph
 *   search of a multi-paragraph query, `full` for the whole query);
 * - `model`: a fitted model and whether it became active.
 */
export type RankerFeatureRecord =
  | { kind: 'train'; source: 'task' | 'rating'; query: string; position: number; as_of: number; labels: Record<string, number>; relevant_total: number; candidates: LoggedCandidate[] }
  | { kind: 'search'; pass: 'full' | 'title'; query: string; candidates: LoggedCandidate[] }
  | { kind: 'model'; accepted: boolean; model: LinearRankerModel };

/**
 * Feature logging for offline ranker work (`sextant eval run --ranker-features FILE`): the lists
 * the learned ranker trains on and ranks, with every candidate's features, so another model or
 * feature can be tried on them without running a search again. Off unless a sink is set; the
 * server never sets one (queries would be written to disk).
 */
@Injectable()
export class RankerFeatureLog {
  private sink: ((record: RankerFeatureRecord) => void) | null = null;

  get enabled(): boolean {
    return this.sink !== null;
  }

  start(sink: (record: RankerFeatureRecord) => void): void {
    this.sink = sink;
  }

  stop(): void {
    this.sink = null;
  }

  write(record: RankerFeatureRecord): void {
    this.sink?.(record);
  }
}

/** Candidates as logged: paths with plain-array feature vectors. */
export function loggedCandidates(paths: readonly string[], features: readonly Float64Array[]): LoggedCandidate[] {
  return paths.map((path, i) => ({ path, features: Array.from(features[i]) }));
}
