import fc from 'fast-check';
import { assignCredit, poolEvidence } from './credit-assignment';
import { pairwiseGradient, ratingGradient, type PageItem } from './pairwise-gradient';
import { planRatingChange } from './rating-cap';
import { updateWeights } from './weight-update';

const SOURCES = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword'];

const weightsArb = fc.record(Object.fromEntries(SOURCES.map((s) => [s, fc.double({ min: 0.001, max: 10, noNaN: true })])) as Record<string, fc.Arbitrary<number>>);
const gradientArb = fc.subarray(SOURCES, { minLength: 1 }).chain((present) => fc.tuple(...present.map((s) => fc.double({ min: -2, max: 2, noNaN: true }).map((g) => [s, g] as const))).map((e) => Object.fromEntries(e)));
const paramsArb = fc.record({ learningRate: fc.double({ min: 0, max: 3, noNaN: true }), floor: fc.double({ min: 0, max: 0.19, noNaN: true }), decay: fc.double({ min: 0, max: 0.5, noNaN: true }) });
const ratingArb = fc.constantFrom(-1, -0.5, 0, 0.5, 1);
const evidenceArb = fc.record(Object.fromEntries(SOURCES.map((s) => [s, fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true }))])) as Record<string, fc.Arbitrary<number>>);
/** A search page: up to 8 items with evidence from the five sources and a learned rating each. */
const pageArb = fc.array(fc.record({ rating: ratingArb, evidence: evidenceArb }), { minLength: 1, maxLength: 8 }).map((xs) => xs.map((x, i): PageItem => ({ id: `i${i}`, ...x })));
const temperatureArb = fc.double({ min: 0.01, max: 2, noNaN: true });
const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
const withRating = (items: readonly PageItem[], id: string, rating: number) => items.map((it) => (it.id === id ? { ...it, rating } : it));

/** A ranked list of distinct ids with non-increasing scores. */
const listArb = fc.uniqueArray(fc.constantFrom(...'abcdefgh'.split('')), { minLength: 1, maxLength: 8 }).chain((ids) =>
  fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: ids.length, maxLength: ids.length }).map((scores) => {
    const sorted = [...scores].sort((a, b) => b - a);
    return ids.map((id, i) => ({ id, score: sorted[i] }));
  }),
);
const poolArb = fc.uniqueArray(fc.constantFrom(...SOURCES), { minLength: 1, maxLength: 5 }).chain((sources) => fc.tuple(...sources.map((source) => listArb.map((items) => ({ source, items })))));

describe('learner properties', () => {
  it('weights stay normalised and above the floor after any sequence of updates', () => {
    fc.assert(
      fc.property(weightsArb, weightsArb, paramsArb, fc.array(gradientArb, { minLength: 1, maxLength: 30 }), (start, prior, params, steps) => {
        let w: Record<string, number> = start;
        const total = sum(start);
        for (const gradient of steps) {
          const r = updateWeights({ weights: w, prior, gradient, params });
          expect(sum(r.normalised)).toBeCloseTo(1, 9);
          if (r.changed) for (const v of Object.values(r.normalised)) expect(v).toBeGreaterThanOrEqual(params.floor - 1e-12);
          expect(sum(r.weights)).toBeCloseTo(total, 6);
          w = r.weights;
        }
      }),
    );
  });

  it('the pairwise gradient of any page is bounded by 2 per source (each page weighs at most one pair)', () => {
    fc.assert(
      fc.property(pageArb, weightsArb, temperatureArb, (items, weights, temperature) => {
        const g = pairwiseGradient({ items, sources: SOURCES, weights, temperature });
        for (const s of SOURCES) expect(Math.abs(g[s])).toBeLessThanOrEqual(2 + 1e-9);
      }),
    );
  });

  it('a rating for an item no source ranked changes nothing', () => {
    fc.assert(
      fc.property(poolArb, pageArb, weightsArb, weightsArb, paramsArb, ratingArb, temperatureArb, fc.constantFrom('weighted', 'rrf', 'vote', 'cascade') as fc.Arbitrary<'weighted'>, (pool, page, weights, prior, params, rating, temperature, strategy) => {
        expect(assignCredit({ strategy, pool, weights, itemId: 'not-in-any-list' })).toEqual([]);
        expect(poolEvidence(strategy, pool).get('not-in-any-list')).toBeUndefined();
        // The item is on the page with no evidence (every source answered but gave it nothing); rate it.
        const sources = pool.map((r) => r.source);
        const before = [...page, { id: 'not-in-any-list', rating: 0, evidence: Object.fromEntries(sources.map((s) => [s, 0])) }];
        const gradient = ratingGradient({ items: before, sources, weights, temperature }, { items: withRating(before, 'not-in-any-list', rating), sources, weights, temperature });
        const r = updateWeights({ weights, prior, gradient, params });
        expect(r.changed).toBe(false);
        for (const s of SOURCES) expect(r.weights[s]).toBeCloseTo(weights[s], 12);
      }),
    );
  });

  it('replaying the same rating is idempotent (the ledger asks for no change, so the page teaches nothing new)', () => {
    fc.assert(
      fc.property(weightsArb, pageArb, temperatureArb, ratingArb, fc.constantFrom(-1, 0, 1), fc.integer({ min: 0, max: 50 }), (weights, page, temperature, rating, earlier, used) => {
        const id = page[0].id;
        const at = (r: number) => ({ items: withRating(page, id, r), sources: SOURCES, weights, temperature });
        const first = planRatingChange({ rating, applied: earlier, usedInWindow: 0, cap: 40 });
        const once = updateWeights({ weights, prior: weights, gradient: ratingGradient(at(earlier), at(first.appliedAfter)) });
        const replay = planRatingChange({ rating, applied: first.appliedAfter, usedInWindow: used, cap: 40 });
        expect(replay.allowed).toBe(0);
        const twice = updateWeights({ weights: once.weights, prior: weights, gradient: ratingGradient(at(first.appliedAfter), at(replay.appliedAfter)) });
        expect(twice.changed).toBe(false);
        expect(twice.weights).toEqual(once.weights);
      }),
    );
  });

  it('a source that gives every item of the page the same evidence earns no credit', () => {
    fc.assert(
      fc.property(pageArb, weightsArb, temperatureArb, fc.constantFrom(...SOURCES), fc.double({ min: 0, max: 1, noNaN: true }), (page, weights, temperature, flat, level) => {
        const items = page.map((it) => ({ ...it, evidence: { ...it.evidence, [flat]: level } }));
        expect(pairwiseGradient({ items, sources: SOURCES, weights, temperature })[flat]).toBeCloseTo(0, 12);
      }),
    );
  });

  it('liking the item a source alone ranks, over one it does not rank, raises that source (no decay, no floor)', () => {
    fc.assert(
      // (T and η bounded below so a pair the search already ordered well still moves the weights by more than rounding.)
      fc.property(weightsArb, fc.double({ min: 0.05, max: 2, noNaN: true }), fc.constantFrom(...SOURCES), fc.double({ min: 0.05, max: 1, noNaN: true }), fc.double({ min: 0.1, max: 3, noNaN: true }), (weights, temperature, src, g, lr) => {
        const others = Object.fromEntries(SOURCES.filter((s) => s !== src).map((s) => [s, 0.5]));
        const items: PageItem[] = [
          { id: 'liked', rating: 0, evidence: { ...others, [src]: g } },
          { id: 'other', rating: 0, evidence: { ...others } },
        ];
        const page = (r: number) => ({ items: withRating(items, 'liked', r), sources: SOURCES, weights, temperature });
        const params = { learningRate: lr, floor: 0, decay: 0 };
        const before = updateWeights({ weights, prior: weights, gradient: {}, params }).normalised[src];
        expect(updateWeights({ weights, prior: weights, gradient: ratingGradient(page(0), page(1)), params }).normalised[src]).toBeGreaterThan(before);
        expect(updateWeights({ weights, prior: weights, gradient: ratingGradient(page(0), page(-1)), params }).normalised[src]).toBeLessThan(before);
      }),
    );
  });

  it('what a page teaches does not depend on the order of its ratings (no floor, no decay)', () => {
    fc.assert(
      fc.property(weightsArb, pageArb, temperatureArb, fc.double({ min: 0, max: 2, noNaN: true }), (weights, page, temperature, lr) => {
        const params = { learningRate: lr, floor: 0, decay: 0 };
        const replay = (order: readonly PageItem[]) => {
          let learned = page.map((it) => ({ ...it, rating: 0 }));
          let w: Record<string, number> = weights;
          for (const it of order) {
            const next = withRating(learned, it.id, it.rating);
            w = updateWeights({ weights: w, prior: weights, gradient: ratingGradient({ items: learned, sources: SOURCES, weights, temperature }, { items: next, sources: SOURCES, weights, temperature }), params }).weights;
            learned = next;
          }
          return w;
        };
        const forward = replay(page);
        const backward = replay([...page].reverse());
        for (const s of SOURCES) expect(backward[s]).toBeCloseTo(forward[s], 8);
      }),
    );
  });

  it('without floor and decay, a rating followed by its withdrawal restores the weights', () => {
    fc.assert(
      fc.property(weightsArb, gradientArb, fc.double({ min: 0, max: 2, noNaN: true }), (weights, gradient, lr) => {
        const params = { learningRate: lr, floor: 0, decay: 0 };
        const there = updateWeights({ weights, prior: weights, gradient, params });
        const back = updateWeights({ weights: there.weights, prior: weights, gradient: Object.fromEntries(Object.entries(gradient).map(([s, g]) => [s, -g])), params });
        for (const s of SOURCES) expect(back.weights[s]).toBeCloseTo(weights[s], 8);
      }),
    );
  });
});
