import { assignCredit } from './credit-assignment';
import { applyFloor } from './normalise-weights';
import { capRatingChange, planRatingChange } from './rating-cap';
import { updateWeights } from './weight-update';

const plain = { learningRate: 0.1, floor: 0, decay: 0 };

// Expected numbers were worked out by hand (calculator), not by running this code.
describe('updateWeights: hand-computed steps', () => {
  it('a +1 for an item only file.dense ranked moves weight from task.dense to file.dense by e^η / (1 + e^η)', () => {
    const r = updateWeights({ weights: { 'file.dense': 1, 'task.dense': 1 }, prior: { 'file.dense': 1, 'task.dense': 1 }, evidence: { 'file.dense': 1, 'task.dense': 0 }, delta: 1, params: plain });
    expect(r.changed).toBe(true);
    expect(r.normalised['file.dense']).toBeCloseTo(0.52497918747894, 12);
    expect(r.normalised['task.dense']).toBeCloseTo(1 - 0.52497918747894, 12);
    // The fusion scale (sum 2) is kept.
    expect(r.weights['file.dense']).toBeCloseTo(2 * 0.52497918747894, 12);
  });

  it('a -1 followed by decay 0.1 toward an even prior: (0.8, 0.2) -> (0.75517, 0.24483)', () => {
    const r = updateWeights({ weights: { a: 0.8, b: 0.2 }, prior: { a: 1, b: 1 }, evidence: { a: 1, b: 0 }, delta: -1, params: { learningRate: 0.1, floor: 0, decay: 0.1 } });
    expect(r.normalised.a).toBeCloseTo(0.7551673798527769, 12);
    expect(r.normalised.b).toBeCloseTo(0.24483262014722307, 12);
  });

  it('the floor stops a source from dying: (0.97, 0.03) with a large step lands on (0.98, 0.02), not (0.98875, 0.01125)', () => {
    const r = updateWeights({ weights: { a: 0.97, b: 0.03 }, prior: { a: 1, b: 1 }, evidence: { a: 1, b: 0 }, delta: 1, params: { learningRate: 1, floor: 0.02, decay: 0 } });
    expect(r.normalised.a).toBeCloseTo(0.98, 12);
    expect(r.normalised.b).toBeCloseTo(0.02, 12);
  });

  it('a source that did not answer the search keeps its weight; the others share their own mass', () => {
    const r = updateWeights({ weights: { a: 1, b: 1, c: 1 }, prior: { a: 1, b: 1, c: 1 }, evidence: { a: 1, b: 0 }, delta: 1, params: plain });
    expect(r.normalised.a).toBeCloseTo(0.34998612498596, 12);
    expect(r.normalised.b).toBeCloseTo(0.31668054168070664, 12);
    expect(r.normalised.c).toBeCloseTo(1 / 3, 12);
  });

  it('replacing +1 by -1 (delta -2) undoes the +1 and applies a -1', () => {
    const start = { a: 1, b: 1 };
    const up = updateWeights({ weights: start, prior: start, evidence: { a: 1, b: 0 }, delta: 1, params: plain });
    const swapped = updateWeights({ weights: up.weights, prior: start, evidence: { a: 1, b: 0 }, delta: -2, params: plain });
    const down = updateWeights({ weights: start, prior: start, evidence: { a: 1, b: 0 }, delta: -1, params: plain });
    expect(swapped.normalised.a).toBeCloseTo(down.normalised.a, 12);
    expect(down.normalised.a).toBeCloseTo(1 / (1 + Math.exp(0.1)), 12);
  });

  it('a rating that says nothing (all sources equally sure, or delta 0) changes nothing, not even by decay', () => {
    const w = { a: 3, b: 1 };
    expect(updateWeights({ weights: w, prior: { a: 1, b: 1 }, evidence: { a: 1, b: 1 }, delta: 1, params: { decay: 0.5 } })).toMatchObject({ changed: false, weights: w });
    expect(updateWeights({ weights: w, prior: { a: 1, b: 1 }, evidence: { a: 1, b: 0 }, delta: 0, params: { decay: 0.5 } })).toMatchObject({ changed: false, weights: w });
  });

  it('rejects a floor that cannot hold for every source', () => {
    expect(() => applyFloor({ a: 0.5, b: 0.5, c: 0 }, 0.4)).toThrow(/floor 0.4 is too high for 3 sources/);
  });
});

describe('assignCredit: shares and evidence recomputed from the pool', () => {
  const pool = [
    { source: 'file.dense', items: [{ id: 'x', score: 1 }, { id: 'y', score: 0.5 }, { id: 'z', score: 0 }] },
    { source: 'file.keyword', items: [{ id: 'y', score: 10 }, { id: 'x', score: 5 }] },
  ];

  it('weighted: shares follow weight × min-max score; evidence is the min-max score alone', () => {
    const x = assignCredit({ strategy: 'weighted', pool, weights: { 'file.dense': 2, 'file.keyword': 1 }, itemId: 'x' });
    expect(x).toEqual([
      { source: 'file.dense', rank: 1, score: 1, share: 1, evidence: 1 },
      { source: 'file.keyword', rank: 2, score: 5, share: 0, evidence: 0 },
    ]);
    const y = assignCredit({ strategy: 'weighted', pool, weights: { 'file.dense': 2, 'file.keyword': 1 }, itemId: 'y' });
    // dense: 2 × 0.5 = 1, keyword: 1 × 1 = 1 -> even shares, though the sources' own opinions differ.
    expect(y.map((c) => [c.source, c.share, c.evidence])).toEqual([
      ['file.dense', 0.5, 0.5],
      ['file.keyword', 0.5, 1],
    ]);
  });

  it('rrf: evidence is (k+1)/(k+rank)', () => {
    const y = assignCredit({ strategy: 'rrf', pool, weights: {}, itemId: 'y' });
    const dense = y.find((c) => c.source === 'file.dense')!;
    expect(dense.share).toBeCloseTo(0.4959349593495934, 12);
    expect(dense.evidence).toBeCloseTo(61 / 62, 12);
    expect(y.find((c) => c.source === 'file.keyword')!.evidence).toBe(1);
  });

  it('an item no source ranked gets no credit', () => {
    expect(assignCredit({ strategy: 'weighted', pool, weights: {}, itemId: 'nowhere' })).toEqual([]);
  });
});

describe('per-principal cap and rating ledger', () => {
  it('lets through only what is left of the window budget, with the sign of the request', () => {
    expect(capRatingChange({ requested: -2, usedInWindow: 39, cap: 40 })).toBe(-1);
    expect(capRatingChange({ requested: 1, usedInWindow: 40, cap: 40 })).toBe(0);
    expect(capRatingChange({ requested: 0.5, usedInWindow: 0, cap: 40 })).toBe(0.5);
  });

  it('re-rating applies the difference; replaying applies nothing; a capped rating applies the rest later', () => {
    expect(planRatingChange({ rating: -1, applied: 1, usedInWindow: 0, cap: 40 })).toEqual({ requested: -2, allowed: -2, appliedAfter: -1 });
    expect(planRatingChange({ rating: 1, applied: 1, usedInWindow: 0, cap: 40 })).toEqual({ requested: 0, allowed: 0, appliedAfter: 1 });
    const capped = planRatingChange({ rating: 1, applied: 0, usedInWindow: 40, cap: 40 });
    expect(capped).toEqual({ requested: 1, allowed: 0, appliedAfter: 0 });
    expect(planRatingChange({ rating: 1, applied: capped.appliedAfter, usedInWindow: 0, cap: 40 }).allowed).toBe(1);
  });
});
