import { cohensD, compareSystems, latencySummary, pairedTTest, percentile } from './index';

describe('pairedTTest', () => {
  it('matches the closed-form t distribution for 4 degrees of freedom', () => {
    // d = [1, 0, 1, 1, 2]: mean 1, sample sd √0.5, t = 1 / (√0.5/√5) = √10.
    // For ν = 4, F(t) = 1/2 + (3/4)·u·(1 - u²/3) with u = t/√(4 + t²), so p = 2(1 - F(√10)) = 0.0341094.
    const res = pairedTTest([1, 2, 3, 4, 5], [2, 2, 4, 5, 7]);
    const u = Math.sqrt(10) / Math.sqrt(14);
    expect(res.t).toBeCloseTo(Math.sqrt(10), 10);
    expect(res.df).toBe(4);
    expect(res.pValue).toBeCloseTo(2 * (1 - (0.5 + 0.75 * u * (1 - (u * u) / 3))), 10);
    expect(res.pValue).toBeCloseTo(0.0341094, 6);
  });

  it('matches the Cauchy distribution for one degree of freedom, and is symmetric', () => {
    // d = [0, 2]: mean 1, sd √2, t = 1/(√2/√2) = 1; ν = 1: p = 2(1/2 - atan(1)/π) = 0.5
    expect(pairedTTest([1, 1], [1, 3]).pValue).toBeCloseTo(0.5, 12);
    expect(pairedTTest([1, 3], [1, 1]).t).toBeCloseTo(-1, 12);
  });

  it('handles degenerate samples without NaN', () => {
    expect(pairedTTest([0.5, 0.5], [0.5, 0.5])).toMatchObject({ t: 0, pValue: 1 });
    expect(pairedTTest([0.1, 0.2], [0.2, 0.3])).toMatchObject({ t: Number.POSITIVE_INFINITY, pValue: 0 });
    expect(pairedTTest([0.1], [0.9])).toMatchObject({ pValue: 1, n: 1 });
    expect(() => pairedTTest([1, 2], [1])).toThrow(/equal lengths/);
  });
});

describe('cohensD and compareSystems', () => {
  it("uses seed 000's pooled population standard deviation", () => {
    // means 0.3 and 0.6, population sd 0.1 each -> d = 0.3 / 0.1 = 3
    expect(cohensD([0.2, 0.4], [0.5, 0.7])).toBeCloseTo(3, 12);
  });

  it('reports significance, effect size band and improvement', () => {
    const cmp = compareSystems([1, 2, 3, 4, 5], [2, 2, 4, 5, 7]);
    expect(cmp.isSignificant).toBe(true);
    expect(cmp.meanImprovement).toBe(1);
    expect(cmp.improvementPct).toBeCloseTo((1 / 3) * 100, 10);
    // population variances 2 and 18/5 = 3.6; pooled = √((2 + 3.6)/2) = 1.6733 -> d = 0.598 -> medium
    expect(cmp.cohensD).toBeCloseTo(1 / Math.sqrt((2 + 3.6) / 2), 10);
    expect(cmp.effectSize).toBe('medium');
    expect(compareSystems([0, 0], [0, 0]).improvementPct).toBeNull();
  });
});

describe('percentile', () => {
  it('interpolates linearly like numpy', () => {
    expect(percentile([10, 20, 30, 40], 50)).toBe(25);
    expect(percentile([40, 10, 30, 20], 95)).toBeCloseTo(38.5, 10); // index 2.85
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('summarises latency', () => {
    expect(latencySummary([5, 1, 3])).toEqual({ n: 3, p50: 3, p95: 4.8, mean: 3, max: 5 });
  });
});
