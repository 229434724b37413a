import type { FusedItem } from '../fusion';
import type { MentionKind } from './query-evidence';

/** A file the query names, keyed by its result id. */
export interface FileMention {
  kind: MentionKind;
  strength: number;
  mention: string;
}

/** Share of the best fused score a mention adds: a stack frame is near-proof, a dotted name a hint. */
export const MENTION_BOOST: Readonly<Record<MentionKind, number>> = { frame: 1, path: 0.8, module: 0.5 };

/** A fused item after {@link boostMentionedFiles}: the mention that lifted it, if any. */
export type WithMention<T> = T & { mention?: FileMention };

/**
 * Lifts the files a query names (stack frames, paths, modules) by a share of the best fused
 * score, so a file named in a traceback ranks with the strongest retrieval hits, and adds
 * named files no source found (with no contributions). Re-sorts stably.
 *
 * @example
 * boostMentionedFiles(fused, new Map([['file:r:src/app.py', { kind: 'frame', strength: 1, mention: 'flask/app.py' }]]))
 */
export function boostMentionedFiles<T extends FusedItem>(fused: readonly T[], mentioned: ReadonlyMap<string, FileMention>, make: (id: string) => T): Array<WithMention<T>> {
  if (!mentioned.size) return [...fused];
  const top = fused.reduce((m, f) => Math.max(m, f.score), 0) || 1;
  const out: Array<WithMention<T>> = fused.map((f) => {
    const mention = mentioned.get(f.id);
    return mention ? { ...f, score: f.score + top * MENTION_BOOST[mention.kind] * mention.strength, mention } : f;
  });
  const present = new Set(fused.map((f) => f.id));
  for (const [id, mention] of mentioned) if (!present.has(id)) out.push({ ...make(id), score: top * MENTION_BOOST[mention.kind] * mention.strength, mention });
  return out.map((item, index) => ({ item, index })).sort((a, b) => b.item.score - a.item.score || a.index - b.index).map((x) => x.item);
}
