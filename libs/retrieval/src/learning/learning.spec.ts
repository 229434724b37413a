import { assignCredit } from './credit-assignment';
import { applyFloor } from './normalise-weights';
import { capRatingChange, planRatingChange } from './rating-cap';
import { pairwiseGradient, ratingGradient } from './pairwise-gradient';
import { pageItems, ratedPage } from './rated-page';
import { scheduledStep, updateWeights } from './weight-update';

const plain = { learningRate: 0.1, floor: 0, decay: 0 };

// Expected numbers were worked out by hand (calculator), not by running this code.
describe('updateWeights: hand-computed steps', () => {
  it('a step of +1 for file.dense (0 for task.dense) moves weight from task.dense to file.dense by e^η / (1 + e^η)', () => {
    const r = updateWeights({ weights: { 'file.dense': 1, 'task.dense': 1 }, prior: { 'file.dense': 1, 'task.dense': 1 }, gradient: { 'file.dense': 1, 'task.dense': 0 }, params: plain });
    expect(r.changed).toBe(true);
    expect(r.normalised['file.dense']).toBeCloseTo(0.52497918747894, 12);
    expect(r.normalised['task.dense']).toBeCloseTo(1 - 0.52497918747894, 12);
    // The fusion scale (sum 2) is kept.
    expect(r.weights['file.dense']).toBeCloseTo(2 * 0.52497918747894, 12);
  });

  it('a step of -1 on a followed by decay 0.1 toward an even prior: (0.8, 0.2) -> (0.75517, 0.24483)', () => {
    const r = updateWeights({ weights: { a: 0.8, b: 0.2 }, prior: { a: 1, b: 1 }, gradient: { a: -1, b: 0 }, params: { learningRate: 0.1, floor: 0, decay: 0.1 } });
    expect(r.normalised.a).toBeCloseTo(0.7551673798527769, 12);
    expect(r.normalised.b).toBeCloseTo(0.24483262014722307, 12);
  });

  it('the floor stops a source from dying: (0.97, 0.03) with a large step lands on (0.98, 0.02), not (0.98875, 0.01125)', () => {
    const r = updateWeights({ weights: { a: 0.97, b: 0.03 }, prior: { a: 1, b: 1 }, gradient: { a: 1, b: 0 }, params: { learningRate: 1, floor: 0.02, decay: 0 } });
    expect(r.normalised.a).toBeCloseTo(0.98, 12);
    expect(r.normalised.b).toBeCloseTo(0.02, 12);
  });

  it('a source that did not answer the search keeps its weight; the others share their own mass', () => {
    const r = updateWeights({ weights: { a: 1, b: 1, c: 1 }, prior: { a: 1, b: 1, c: 1 }, gradient: { a: 1, b: 0 }, params: plain });
    expect(r.normalised.a).toBeCloseTo(0.34998612498596, 12);
    expect(r.normalised.b).toBeCloseTo(0.31668054168070664, 12);
    expect(r.normalised.c).toBeCloseTo(1 / 3, 12);
  });

  it('a step that says nothing (every participant the same, e.g. all 0) changes nothing, not even by decay', () => {
    const w = { a: 3, b: 1 };
    expect(updateWeights({ weights: w, prior: { a: 1, b: 1 }, gradient: { a: 0.4, b: 0.4 }, params: { decay: 0.5 } })).toMatchObject({ changed: false, weights: w });
    expect(updateWeights({ weights: w, prior: { a: 1, b: 1 }, gradient: { a: 0, b: 0 }, params: { decay: 0.5 } })).toMatchObject({ changed: false, weights: w });
  });

  it('rejects a floor that cannot hold for every source', () => {
    expect(() => applyFloor({ a: 0.5, b: 0.5, c: 0 }, 0.4)).toThrow(/floor 0.4 is too high for 3 sources/);
  });

  it('step schedule: after 300 updates with n0 = 100, η and λ are halved (1/√4)', () => {
    expect(scheduledStep(300, { learningRate: 1.5, decay: 0.001, annealRatings: 100 })).toEqual({ learningRate: 0.75, decay: 0.0005 });
    expect(scheduledStep(0, { learningRate: 1.5, decay: 0.001, annealRatings: 100 })).toEqual({ learningRate: 1.5, decay: 0.001 });
    expect(scheduledStep(5000, { learningRate: 1.5, decay: 0.001, annealRatings: 0 })).toEqual({ learningRate: 1.5, decay: 0.001 });
  });
});

describe('pairwiseGradient: hand-computed credit', () => {
  // A is s1's best item and s2's worst; B the opposite; C in between for both. Even weights: every f is 0.5, so x = 0 and λ = 1.
  const A = { id: 'A', evidence: { s1: 1, s2: 0 } };
  const B = { id: 'B', evidence: { s1: 0, s2: 1 } };
  const C = { id: 'C', evidence: { s1: 0.5, s2: 0.5 } };
  const page = (rA: number, rB: number, rC: number, weights = { s1: 1, s2: 1 }, temperature = 0.05) => ({
    items: [
      { ...A, rating: rA },
      { ...B, rating: rB },
      { ...C, rating: rC },
    ],
    sources: ['s1', 's2'],
    weights,
    temperature,
  });

  it('A +1, B -1, C unrated: pairs (A,B) 1·(1,-1), (A,C) ½·(½,-½), (C,B) ½·(½,-½); mean over 3 pairs = (0.5, -0.5)', () => {
    const g = pairwiseGradient(page(1, -1, 0));
    expect(g.s1).toBeCloseTo(0.5, 12);
    expect(g.s2).toBeCloseTo(-0.5, 12);
  });

  it('a lone +1 on A is judged against the shown, unrated B and C: ((½,-½) + (¼,-¼)) / 2 = (0.375, -0.375)', () => {
    const g = pairwiseGradient(page(1, 0, 0));
    expect(g.s1).toBeCloseTo(0.375, 12);
    expect(g.s2).toBeCloseTo(-0.375, 12);
  });

  it('a rating teaches the change it makes to its page: B -1 after A +1 = (0.5, -0.5) - (0.375, -0.375) = (0.125, -0.125)', () => {
    const g = ratingGradient(page(1, 0, 0), page(1, -1, 0));
    expect(g.s1).toBeCloseTo(0.125, 12);
    expect(g.s2).toBeCloseTo(-0.125, 12);
  });

  it('λ = 4σ(x)σ(−x), x = (f_j − f_i)/T: with weights (3, 1) (f_A = 0.75, f_B = 0.25) and T = 0.5, λ = 4σ(1)σ(−1) = 0.786448 whichever item is preferred', () => {
    const items = (rA: number, rB: number, temperature = 0.5) => ({ items: [{ ...A, rating: rA }, { ...B, rating: rB }], sources: ['s1', 's2'], weights: { s1: 3, s2: 1 }, temperature });
    // Preferring A, which the search already put first: x = (0.25 − 0.75)/0.5 = −1.
    const right = pairwiseGradient(items(1, -1));
    expect(right.s1).toBeCloseTo(0.7864477329659274, 12);
    expect(right.s2).toBeCloseTo(-0.7864477329659274, 12);
    // Preferring B (x = +1) weighs the same: a wrong rating and its correction cancel exactly.
    const wrong = pairwiseGradient(items(-1, 1));
    expect(wrong.s1).toBeCloseTo(-0.7864477329659274, 12);
    expect(wrong.s2).toBeCloseTo(0.7864477329659274, 12);
    // T = 0.25: the same pair is twice as far apart (x = ±2), λ = 4σ(2)σ(−2) = 0.419974 — it teaches less than a close pair.
    expect(pairwiseGradient(items(1, -1, 0.25)).s1).toBeCloseTo(0.41997434161402597, 12);
  });

  it('a source that gives every item the same evidence earns nothing; an item no source ranked takes no part', () => {
    const flat = pairwiseGradient({ items: [{ id: 'x', rating: 1, evidence: { s1: 1, s2: 0.7 } }, { id: 'y', rating: -1, evidence: { s1: 0.2, s2: 0.7 } }], sources: ['s1', 's2'], weights: { s1: 1, s2: 1 }, temperature: 0.05 });
    expect(flat.s2).toBe(0);
    expect(flat.s1).toBeGreaterThan(0);
    const withGhost = pairwiseGradient({ ...page(1, -1, 0), items: [...page(1, -1, 0).items, { id: 'ghost', rating: -1, evidence: {} }] });
    expect(withGhost).toEqual(pairwiseGradient(page(1, -1, 0)));
  });

  it('a page whose ratings are all equal teaches nothing', () => {
    expect(pairwiseGradient(page(-1, -1, -1))).toEqual({ s1: 0, s2: 0 });
  });
});

describe('ratedPage: what the search showed, rebuilt from its pool', () => {
  const pathOf = (id: string) => id.slice(id.indexOf(':', 5) + 1);
  const pool = [{ source: 'file.dense', items: [{ id: 'file:r:src/a.test.ts', score: 1 }, { id: 'file:r:src/b.ts', score: 0.9 }, { id: 'file:r:src/c.ts', score: 0 }] }];

  it('orders by fused score × structural prior: the test file (prior 0.8: 1 × 0.8) falls below src/b.ts (0.9 × 1)', () => {
    const page = ratedPage({ strategy: 'weighted', pool, weights: { 'file.dense': 1 }, pageSize: 2, pathOf });
    expect(page.shown).toEqual(['file:r:src/b.ts', 'file:r:src/a.test.ts']);
    expect(page.priors.get('file:r:src/a.test.ts')).toBe(0.8);
    expect(page.evidence.get('file:r:src/b.ts')).toEqual({ 'file.dense': 0.9 });
  });

  it('rrf: the prior re-orders the source before fusing, so the page keeps the source order unless scores are close, and no item is multiplied again', () => {
    const close = [{ source: 'file.dense', items: [{ id: 'file:r:src/a.test.ts', score: 1 }, { id: 'file:r:src/b.ts', score: 0.9 }, { id: 'file:r:docs/c.md', score: 0.8 }, { id: 'file:r:src/d.ts', score: 0.6 }] }];
    const page = ratedPage({ strategy: 'rrf', pool: close, weights: { 'file.dense': 1 }, pageSize: 4, pathOf });
    // a.test.ts: 1 × 0.8 = 0.8 < 0.9; c.md: 0.8 × 0.7 = 0.56 < 0.6.
    expect(page.shown).toEqual(['file:r:src/b.ts', 'file:r:src/a.test.ts', 'file:r:src/d.ts', 'file:r:docs/c.md']);
    expect([...page.priors.values()]).toEqual([1, 1, 1, 1]);
    // Evidence is each item's reciprocal rank in that re-ordered list, relative to the first.
    expect(page.evidence.get('file:r:src/a.test.ts')!['file.dense']).toBeCloseTo(61 / 62, 12);
  });

  it('page items: the shown results (unrated = 0) plus every rated item, with the learned ratings', () => {
    const page = ratedPage({ strategy: 'weighted', pool, weights: { 'file.dense': 1 }, pageSize: 1, pathOf });
    const input = pageItems(page, new Map([['file:r:src/c.ts', -1]]), 0.05);
    expect(input.items.map((i) => [i.id, i.rating, i.prior])).toEqual([
      ['file:r:src/b.ts', 0, 1],
      ['file:r:src/c.ts', -1, 1],
    ]);
    expect(input).toMatchObject({ sources: ['file.dense'], temperature: 0.05 });
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
