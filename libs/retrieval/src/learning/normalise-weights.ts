import type { SourceName, SourceWeights } from '../fusion/fusion.types';

/**
 * Fusion weights -> the learner's state: each weight divided by their sum, over `sources`
 * (a source without a weight weighs 1, as in fusion). All-zero weights give a uniform state.
 *
 * @example
 * normaliseWeights({ 'file.dense': 3, 'task.dense': 1 }, ['file.dense', 'task.dense']) // { 'file.dense': 0.75, 'task.dense': 0.25 }
 */
export function normaliseWeights(weights: SourceWeights, sources: readonly SourceName[]): Record<string, number> {
  const raw = sources.map((s) => Math.max(0, weights[s] ?? 1));
  const total = raw.reduce((a, b) => a + b, 0);
  const out: Record<string, number> = {};
  sources.forEach((s, i) => (out[s] = total > 0 ? raw[i] / total : 1 / sources.length));
  return out;
}

/**
 * Raises every entry of a distribution to at least `floor` and rescales the others so the
 * sum stays 1: entries that would fall below the floor are clamped to it, the rest keep
 * their proportions (repeated until no entry is below the floor).
 *
 * @example
 * applyFloor({ a: 0.99, b: 0.01 }, 0.05) // { a: 0.95, b: 0.05 }
 */
export function applyFloor(p: Readonly<Record<string, number>>, floor: number): Record<string, number> {
  const keys = Object.keys(p);
  if (floor <= 0 || keys.length === 0) return { ...p };
  if (floor * keys.length > 1) throw new RangeError(`Weight floor ${floor} is too high for ${keys.length} sources (needs floor × sources <= 1)`);
  const clamped = new Set<string>();
  for (;;) {
    const free = keys.filter((k) => !clamped.has(k));
    const freeMass = free.reduce((s, k) => s + p[k], 0);
    const budget = 1 - clamped.size * floor;
    const scale = freeMass > 0 ? budget / freeMass : 0;
    const newlyLow = free.filter((k) => (freeMass > 0 ? p[k] * scale : budget / free.length) < floor);
    if (newlyLow.length === 0) {
      const out: Record<string, number> = {};
      for (const k of keys) out[k] = clamped.has(k) ? floor : freeMass > 0 ? p[k] * scale : budget / free.length;
      return out;
    }
    for (const k of newlyLow) clamped.add(k);
  }
}
