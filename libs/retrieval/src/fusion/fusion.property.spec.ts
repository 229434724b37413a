import fc from 'fast-check';
import { fuse, FUSION_STRATEGIES, type SourceRanking } from './index';

const SOURCES = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword'];

/** A ranked list of distinct ids with non-increasing scores. */
const rankedList = fc
  .uniqueArray(fc.constantFrom(...'abcdefghijklmnop'.split('')), { maxLength: 10 })
  .chain((ids) =>
    fc.array(fc.double({ min: -1, max: 100, noNaN: true }), { minLength: ids.length, maxLength: ids.length }).map((scores) => {
      const sorted = [...scores].sort((a, b) => b - a);
      return ids.map((id, i) => ({ id, score: sorted[i] }));
    }),
  );

const rankings = fc
  .uniqueArray(fc.constantFrom(...SOURCES), { minLength: 1, maxLength: 5 })
  .chain((sources) => fc.tuple(...sources.map((source) => rankedList.map((items): SourceRanking => ({ source, items })))));

const weights = fc.dictionary(fc.constantFrom(...SOURCES), fc.oneof(fc.constant(1), fc.double({ min: 0.05, max: 3, noNaN: true })));

const strategy = fc.constantFrom(...FUSION_STRATEGIES);

describe('fusion properties (all strategies)', () => {
  it('fusing a list with itself preserves its order', () => {
    fc.assert(
      fc.property(strategy, rankedList, (s, items) => {
        const fused = fuse(s, [{ source: 'file.dense', items }, { source: 'file.keyword', items }]);
        expect(fused.map((f) => f.id)).toEqual(items.map((i) => i.id));
      }),
    );
  });

  it('a source with weight 0 has no influence at all', () => {
    fc.assert(
      fc.property(strategy, rankings, weights, rankedList, (s, lists, w, extra) => {
        const unused = SOURCES.find((src) => !lists.some((l) => l.source === src));
        fc.pre(unused !== undefined);
        const without = fuse(s, lists, { weights: w });
        const withZero = fuse(s, [...lists, { source: unused!, items: extra }], { weights: { ...w, [unused!]: 0 } });
        expect(withZero).toEqual(without);
      }),
    );
  });

  it('is deterministic whatever order the sources arrive in', () => {
    const listsAndShuffle = rankings.chain((lists) => fc.tuple(fc.constant(lists), fc.shuffledSubarray(lists, { minLength: lists.length })));
    fc.assert(
      fc.property(strategy, listsAndShuffle, weights, (s, [lists, shuffled], w) => {
        expect(fuse(s, shuffled, { weights: w })).toEqual(fuse(s, lists, { weights: w }));
      }),
    );
  });

  it('returns each id once, with non-increasing scores and shares summing to 1', () => {
    fc.assert(
      fc.property(strategy, rankings, weights, (s, lists, w) => {
        const fused = fuse(s, lists, { weights: w });
        expect(new Set(fused.map((f) => f.id)).size).toBe(fused.length);
        const expectedIds = new Set(lists.flatMap((l) => l.items.map((i) => i.id)));
        expect(new Set(fused.map((f) => f.id))).toEqual(expectedIds);
        for (let i = 1; i < fused.length; i++) expect(fused[i].score).toBeLessThanOrEqual(fused[i - 1].score);
        for (const f of fused) expect(f.contributions.reduce((a, c) => a + c.share, 0)).toBeCloseTo(1, 9);
      }),
    );
  });
});
