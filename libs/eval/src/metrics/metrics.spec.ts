import type { EvalQuery } from '@sextant/contracts';
import { accuracyAtK, complementarity, coverageImprovement, ndcgAtK, precisionAtK, recallAtK, reciprocalRank, scoreRun } from './index';

describe('ranking metrics', () => {
  it('compute P@k, R@k, RR and NDCG@k with binary relevance', () => {
    expect(precisionAtK(['a', 'x', 'b'], ['a', 'b'], 5)).toBe(0.4); // short lists are not rewarded
    expect(recallAtK(['a', 'x', 'b'], ['a', 'b', 'c', 'd'], 2)).toBe(0.25);
    expect(reciprocalRank(['x', 'y', 'a'], ['a'])).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank(['x'], ['a'])).toBe(0);
    expect(ndcgAtK(['x', 'a'], ['a'], 10)).toBeCloseTo(1 / Math.log2(3), 12);
    expect(ndcgAtK(['a', 'b'], ['a', 'b'], 10)).toBe(1);
    expect(recallAtK(['a'], [], 5)).toBe(0);
  });

  it('count a file listed twice only once', () => {
    expect(precisionAtK(['a', 'a', 'a'], ['a'], 3)).toBeCloseTo(1 / 3, 12);
    expect(ndcgAtK(['a', 'a'], ['a', 'b'], 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
    expect(reciprocalRank(['x', 'x', 'a'], ['a'])).toBe(0.5);
  });
});

describe('scoreRun on a hand-computed dataset', () => {
  const queries: EvalQuery[] = [
    { id: 'q1', query: 'fix parseToken', relevant: ['a', 'b'], type: 'specific' },
    { id: 'q2', query: 'how sessions expire', relevant: ['c', 'd', 'e', 'f'], type: 'conceptual' },
    { id: 'q3', query: 'rate limiting', relevant: ['g'], type: 'conceptual' },
    { id: 'q4', query: 'nothing relevant', relevant: [], type: 'conceptual' },
  ];
  const run = {
    q1: ['a', 'x', 'b', 'y', 'z', 'c'],
    q2: ['x', 'y', 'c'],
    // q3 unanswered -> counts as an empty list
    q4: ['a'],
  };
  // q1: P@5 = 2/5 = 0.4, P@10 = 0.2, R@5 = R@10 = 2/2 = 1, RR = 1,
  //     NDCG@10 = (1/log2 2 + 1/log2 4) / (1/log2 2 + 1/log2 3) = 1.5 / 1.630930 = 0.919721
  // q2: P@5 = 1/5 = 0.2, P@10 = 0.1, R@5 = R@10 = 1/4, RR = 1/3,
  //     NDCG@10 = (1/log2 4) / (1 + 0.630930 + 0.5 + 0.430677) = 0.5 / 2.561606 = 0.195190
  // q3: all 0. q4: skipped (no relevant files).
  // overall (3 queries): P@5 = 0.6/3 = 0.2, P@10 = 0.1, R@5 = 1.25/3 = 0.416667, MRR = (4/3)/3 = 0.444444,
  //                      NDCG@10 = (0.919721 + 0.195190)/3 = 0.371637
  // conceptual (q2, q3): P@5 = 0.1, R@10 = 0.125, MRR = 1/6, NDCG@10 = 0.097595
  const score = scoreRun(run, queries);

  it('averages over answered and unanswered queries alike', () => {
    expect(score.overall.queries).toBe(3);
    expect(score.overall.p5).toBeCloseTo(0.2, 6);
    expect(score.overall.p10).toBeCloseTo(0.1, 6);
    expect(score.overall.r5).toBeCloseTo(0.416667, 6);
    expect(score.overall.r10).toBeCloseTo(0.416667, 6);
    expect(score.overall.mrr).toBeCloseTo(0.444444, 6);
    expect(score.overall.ndcg10).toBeCloseTo(0.371637, 6);
    expect(score.unanswered).toEqual(['q3']);
    expect(score.skipped).toEqual(['q4']);
  });

  it('splits by query type', () => {
    expect(Object.keys(score.byType)).toEqual(['conceptual', 'specific']);
    expect(score.byType.specific).toMatchObject({ queries: 1, p5: 0.4, r10: 1, mrr: 1 });
    expect(score.byType.specific.ndcg10).toBeCloseTo(0.919721, 6);
    expect(score.byType.conceptual.queries).toBe(2);
    expect(score.byType.conceptual.p5).toBeCloseTo(0.1, 6);
    expect(score.byType.conceptual.r10).toBeCloseTo(0.125, 6);
    expect(score.byType.conceptual.mrr).toBeCloseTo(1 / 6, 6);
    expect(score.byType.conceptual.ndcg10).toBeCloseTo(0.097595, 6);
  });

  it('keeps per-query metrics for significance tests', () => {
    expect(score.perQuery.map((q) => [q.id, q.answered, q.metrics.mrr])).toEqual([
      ['q1', true, 1],
      ['q2', true, 1 / 3],
      ['q3', false, 0],
    ]);
  });
});

describe('seed 000 fusion metrics', () => {
  it('complementarity = files found by exactly one source / all files found', () => {
    expect(complementarity(['a', 'b'], ['b', 'c'])).toBeCloseTo(2 / 3, 12);
    expect(complementarity(['a'], ['a'])).toBe(0);
    expect(complementarity([], [])).toBe(0);
  });

  it('coverage improvement compares fused recall with the better single source', () => {
    expect(coverageImprovement({ taskOnly: ['a'], fileOnly: ['b', 'x'], fused: ['a', 'b'], relevant: ['a', 'b', 'c'] })).toEqual({
      taskOnlyRecall: 1 / 3,
      fileOnlyRecall: 1 / 3,
      fusedRecall: 2 / 3,
      improvement: 1 / 3,
    });
  });
});

describe('accuracyAtK', () => {
  it('counts a query only when every relevant file is within the top k', () => {
    expect(accuracyAtK(['a', 'x', 'b'], ['a', 'b'], 3)).toBe(1);
    expect(accuracyAtK(['a', 'x', 'b'], ['a', 'b'], 2)).toBe(0);
    expect(accuracyAtK(['a'], ['a'], 1)).toBe(1);
    expect(accuracyAtK(['x', 'a'], ['a'], 1)).toBe(0);
    // A repeated path counts once (first occurrences), as in every metric here.
    expect(accuracyAtK(['a', 'a', 'b'], ['a', 'b'], 2)).toBe(1);
  });
  it('is 0 with nothing relevant and rejects k <= 0', () => {
    expect(accuracyAtK(['a'], [], 5)).toBe(0);
    expect(() => accuracyAtK(['a'], ['a'], 0)).toThrow(RangeError);
  });
});
