import type { FusedItem, SourceName, SourceRanking, SourceWeights } from './fusion.types';
import { compareStrings, prepareRankings } from './source-rankings';

/** Options for {@link concatenate}. */
export interface ConcatenateOptions {
  /** Sources in the order their lists are appended; unlisted sources follow by name (default {@link DEFAULT_SOURCE_ORDER}). */
  order?: readonly SourceName[];
  /** A weight of 0 drops a source; other weights are ignored. */
  weights?: SourceWeights;
}

/** File sources before task sources, dense before keyword before symbol. */
export const DEFAULT_SOURCE_ORDER: readonly SourceName[] = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword'];

/**
 * The "no fusion" ablation: the sources' lists appended one after another in a fixed
 * source order, keeping only the first occurrence of each id. Scores are synthetic,
 * `1 / position`, so they decrease down the list. The source that placed an item gets
 * share 1; later sources that also listed it appear with share 0.
 *
 * @example
 * concatenate(rankings).map((f) => f.id) // file.dense's list, then new ids from file.keyword, ...
 */
export function concatenate(rankings: readonly SourceRanking[], options: ConcatenateOptions = {}): FusedItem[] {
  const { order = DEFAULT_SOURCE_ORDER, weights = {} } = options;
  const position = new Map(order.map((s, i) => [s as string, i]));
  const prepared = prepareRankings(rankings, weights).sort(
    (a, b) => (position.get(a.source) ?? order.length) - (position.get(b.source) ?? order.length) || compareStrings(a.source, b.source),
  );
  const byId = new Map<string, FusedItem>();
  const out: FusedItem[] = [];
  for (const ranking of prepared) {
    for (const entry of ranking.entries) {
      const existing = byId.get(entry.id);
      if (existing) {
        existing.contributions.push({ source: ranking.source, rank: entry.rank, score: entry.score, share: 0 });
        continue;
      }
      const item: FusedItem = { id: entry.id, score: 1 / (out.length + 1), contributions: [{ source: ranking.source, rank: entry.rank, score: entry.score, share: 1 }] };
      byId.set(entry.id, item);
      out.push(item);
    }
  }
  return out;
}
