/** Where a ranked file list came from. Extensible: any string works, these are the built-in sources. */
export type SourceName = 'file.dense' | 'file.keyword' | 'file.symbol' | 'task.dense' | 'task.keyword' | (string & {});

/** One ranked entry of a source (a file id/path and the source's own score). */
export interface RankedItem {
  id: string;
  score: number;
}

/** One source's ranked list, best first; rank = index + 1. */
export interface SourceRanking {
  source: SourceName;
  items: RankedItem[];
}

/** What one source did for a fused item: its rank and raw score there, and its share of the fused score. */
export interface SourceContribution {
  source: SourceName;
  /** 1-based rank in that source's list. */
  rank: number;
  /** The source's own (raw) score for the item. */
  score: number;
  /** Fraction of the fused score this source earned (shares of an item sum to 1); used for credit assignment. */
  share: number;
}

/** A fused result: its fused score and which sources put it there. */
export interface FusedItem {
  id: string;
  score: number;
  /** Sources that ranked the item, largest share first (ties by source name). */
  contributions: SourceContribution[];
}

/** Per-source weights; sources not listed weigh 1, a weight of 0 removes the source. */
export type SourceWeights = Partial<Record<SourceName, number>>;
