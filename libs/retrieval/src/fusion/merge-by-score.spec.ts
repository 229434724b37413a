import { mergeByScore } from './index';

describe('mergeByScore', () => {
  it('orders by the weighted mean of both scores, keeping the primary entry and probabilities', () => {
    const primary = [
      { id: 'a', score: 0.9, why: 'primary' },
      { id: 'b', score: 0.5, why: 'primary' },
      { id: 'c', score: 0.1, why: 'primary' },
    ];
    const secondary = [
      { id: 'b', score: 0.9, why: 'secondary' },
      { id: 'd', score: 0.8, why: 'secondary' },
    ];
    const merged = mergeByScore(primary, secondary, 0.5);
    expect(merged.map((m) => m.id)).toEqual(['b', 'a', 'd', 'c']);
    expect(merged[0]).toEqual({ id: 'b', score: (0.5 + 0.45) / 1.5, why: 'primary' });
    expect(merged.find((m) => m.id === 'd')).toEqual({ id: 'd', score: 0.4 / 1.5, why: 'secondary' });
    for (const m of merged) expect(m.score).toBeLessThanOrEqual(1);
  });

  it('keeps the primary order on ties and with an empty secondary ranking', () => {
    const primary = [{ id: 'x', score: 0.5 }, { id: 'y', score: 0.5 }];
    expect(mergeByScore(primary, [], 0.5).map((m) => m.id)).toEqual(['x', 'y']);
    expect(mergeByScore(primary, [], 0.5)[0].score).toBeCloseTo(1 / 3);
  });
});
