import type { FusedItem, SourceContribution, SourceName, SourceRanking, SourceWeights } from './fusion.types';

/** A source's ranking after validation, with duplicates removed and its weight resolved. */
export interface PreparedRanking {
  source: SourceName;
  weight: number;
  /** Items by id: 1-based rank of the first occurrence and its raw score. */
  entries: Array<{ id: string; rank: number; score: number }>;
}

/**
 * Validates rankings and weights, drops zero-weight sources and duplicate ids inside a
 * list (first occurrence wins), and orders sources by name so that fusion never depends
 * on the order sources answered in.
 */
export function prepareRankings(rankings: readonly SourceRanking[], weights: SourceWeights = {}): PreparedRanking[] {
  for (const [source, w] of Object.entries(weights)) {
    if (w !== undefined && (!Number.isFinite(w) || w < 0)) throw new RangeError(`Fusion weight for source "${source}" must be a finite number >= 0, got ${w}`);
  }
  const seen = new Set<string>();
  const prepared: PreparedRanking[] = [];
  for (const ranking of rankings) {
    if (seen.has(ranking.source)) throw new Error(`Source "${ranking.source}" appears twice in the rankings to fuse; merge its lists first`);
    seen.add(ranking.source);
    const weight = weights[ranking.source] ?? 1;
    if (weight === 0) continue;
    const ids = new Set<string>();
    const entries: PreparedRanking['entries'] = [];
    ranking.items.forEach((item, index) => {
      if (!Number.isFinite(item.score)) throw new RangeError(`Source "${ranking.source}" gave item "${item.id}" a non-finite score (${item.score})`);
      if (ids.has(item.id)) return;
      ids.add(item.id);
      entries.push({ id: item.id, rank: index + 1, score: item.score });
    });
    prepared.push({ source: ranking.source, weight, entries });
  }
  return prepared.sort((a, b) => compareStrings(a.source, b.source));
}

/** Per item, the sources that ranked it, with a per-source amount that the strategy computed. */
export type Accumulated = Map<string, Array<{ source: SourceName; rank: number; score: number; amount: number }>>;

/** Collects, per item, what each source contributes under `amountOf`. */
export function accumulate(prepared: readonly PreparedRanking[], amountOf: (ranking: PreparedRanking, entry: PreparedRanking['entries'][number]) => number): Accumulated {
  const byId: Accumulated = new Map();
  for (const ranking of prepared) {
    for (const entry of ranking.entries) {
      let list = byId.get(entry.id);
      if (!list) byId.set(entry.id, (list = []));
      list.push({ source: ranking.source, rank: entry.rank, score: entry.score, amount: amountOf(ranking, entry) });
    }
  }
  return byId;
}

/**
 * Turns per-source amounts into contributions whose shares sum to 1 (equal shares when
 * the amounts sum to 0), sorted by share then source name.
 */
export function toContributions(parts: ReadonlyArray<{ source: SourceName; rank: number; score: number; amount: number }>): SourceContribution[] {
  const total = parts.reduce((s, p) => s + p.amount, 0);
  return parts
    .map((p) => ({ source: p.source, rank: p.rank, score: p.score, share: total > 0 ? p.amount / total : 1 / parts.length }))
    .sort((a, b) => b.share - a.share || compareStrings(a.source, b.source));
}

/** Best (lowest) rank any source gave an item. */
export function bestRank(item: FusedItem): number {
  return item.contributions.reduce((m, c) => Math.min(m, c.rank), Number.POSITIVE_INFINITY);
}

/** The fixed output order: score desc, then best rank asc, then id asc. */
export function compareFused(a: FusedItem, b: FusedItem): number {
  return b.score - a.score || bestRank(a) - bestRank(b) || compareStrings(a.id, b.id);
}

/** Code-unit string order, independent of locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
