import fc from 'fast-check';
import { assignCredit } from './credit-assignment';
import { planRatingChange } from './rating-cap';
import { updateWeights } from './weight-update';

const SOURCES = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword'];

const weightsArb = fc.record(Object.fromEntries(SOURCES.map((s) => [s, fc.double({ min: 0.001, max: 10, noNaN: true })])) as Record<string, fc.Arbitrary<number>>);
const evidenceArb = fc.subarray(SOURCES, { minLength: 1 }).chain((present) => fc.tuple(...present.map((s) => fc.double({ min: 0, max: 1, noNaN: true }).map((g) => [s, g] as const))).map((e) => Object.fromEntries(e)));
const paramsArb = fc.record({ learningRate: fc.double({ min: 0, max: 2, noNaN: true }), floor: fc.double({ min: 0, max: 0.19, noNaN: true }), decay: fc.double({ min: 0, max: 0.5, noNaN: true }) });
const deltaArb = fc.oneof(fc.constantFrom(-2, -1, -0.5, 0.5, 1, 2), fc.double({ min: -2, max: 2, noNaN: true }));
const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

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
      fc.property(weightsArb, weightsArb, paramsArb, fc.array(fc.tuple(evidenceArb, deltaArb), { minLength: 1, maxLength: 30 }), (start, prior, params, steps) => {
        let w: Record<string, number> = start;
        const total = sum(start);
        for (const [evidence, delta] of steps) {
          const r = updateWeights({ weights: w, prior, evidence, delta, params });
          expect(sum(r.normalised)).toBeCloseTo(1, 9);
          if (r.changed) for (const v of Object.values(r.normalised)) expect(v).toBeGreaterThanOrEqual(params.floor - 1e-12);
          expect(sum(r.weights)).toBeCloseTo(total, 6);
          w = r.weights;
        }
      }),
    );
  });

  it('a rating for an item no source ranked changes nothing', () => {
    fc.assert(
      fc.property(poolArb, weightsArb, weightsArb, paramsArb, deltaArb, fc.constantFrom('weighted', 'rrf', 'vote', 'cascade') as fc.Arbitrary<'weighted'>, (pool, weights, prior, params, delta, strategy) => {
        const credit = assignCredit({ strategy, pool, weights, itemId: 'not-in-any-list' });
        expect(credit).toEqual([]);
        // Every source in the pool answered but gave the item nothing.
        const evidence = Object.fromEntries(pool.map((r) => [r.source, 0]));
        const r = updateWeights({ weights, prior, evidence, delta, params });
        expect(r.changed).toBe(false);
        for (const s of SOURCES) expect(r.weights[s]).toBeCloseTo(weights[s], 12);
      }),
    );
  });

  it('replaying the same rating is idempotent (the ledger asks for no change, so the weights do not move)', () => {
    fc.assert(
      fc.property(weightsArb, evidenceArb, fc.constantFrom(-1, -0.5, 0, 0.5, 1), fc.constantFrom(-1, 0, 1), fc.integer({ min: 0, max: 50 }), (weights, evidence, rating, earlier, used) => {
        const first = planRatingChange({ rating, applied: earlier, usedInWindow: 0, cap: 40 });
        const once = updateWeights({ weights, prior: weights, evidence, delta: first.allowed });
        const replay = planRatingChange({ rating, applied: first.appliedAfter, usedInWindow: used, cap: 40 });
        expect(replay.allowed).toBe(0);
        const twice = updateWeights({ weights: once.weights, prior: weights, evidence, delta: replay.allowed });
        expect(twice.changed).toBe(false);
        expect(twice.weights).toEqual(once.weights);
      }),
    );
  });

  it('a positive rating raises the source with the strongest evidence and a negative one lowers it (no decay, no floor)', () => {
    fc.assert(
      fc.property(weightsArb, evidenceArb, fc.double({ min: 0.01, max: 1, noNaN: true }), fc.double({ min: 0.1, max: 2, noNaN: true }), (weights, evidence, lr, magnitude) => {
        const entries = Object.entries(evidence).sort((a, b) => b[1] - a[1]);
        fc.pre(entries.length >= 2 && entries[0][1] - entries[1][1] > 1e-3);
        const best = entries[0][0];
        const params = { learningRate: lr, floor: 0, decay: 0 };
        const before = updateWeights({ weights, prior: weights, evidence, delta: 0, params }).normalised[best];
        expect(updateWeights({ weights, prior: weights, evidence, delta: magnitude, params }).normalised[best]).toBeGreaterThan(before);
        expect(updateWeights({ weights, prior: weights, evidence, delta: -magnitude, params }).normalised[best]).toBeLessThan(before);
      }),
    );
  });

  it('without floor and decay, a rating followed by its withdrawal restores the weights', () => {
    fc.assert(
      fc.property(weightsArb, evidenceArb, deltaArb, fc.double({ min: 0, max: 1, noNaN: true }), (weights, evidence, delta, lr) => {
        const params = { learningRate: lr, floor: 0, decay: 0 };
        const there = updateWeights({ weights, prior: weights, evidence, delta, params });
        const back = updateWeights({ weights: there.weights, prior: weights, evidence, delta: -delta, params });
        for (const s of SOURCES) expect(back.weights[s]).toBeCloseTo(weights[s], 8);
      }),
    );
  });
});
