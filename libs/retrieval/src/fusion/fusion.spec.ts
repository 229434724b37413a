import { concatenate, fuse, fuseCascade, fuseReciprocalRank, fuseVote, fuseWeighted, type SourceRanking } from './index';

const r = (source: string, ...ids: string[]): SourceRanking => ({ source, items: ids.map((id, i) => ({ id, score: 1 - i * 0.1 })) });

describe('fuseReciprocalRank', () => {
  it('reproduces the worked example of seed 003 §6.1', () => {
    const fused = fuseReciprocalRank([
      { source: 'file.dense', items: [{ id: 'doc_A', score: 0.95 }, { id: 'doc_B', score: 0.87 }, { id: 'doc_C', score: 0.73 }] },
      { source: 'file.keyword', items: [{ id: 'doc_C', score: 89.2 }, { id: 'doc_A', score: 76.1 }, { id: 'doc_D', score: 45.3 }] },
    ]);
    expect(fused.map((f) => f.id)).toEqual(['doc_A', 'doc_C', 'doc_B', 'doc_D']);
    expect(fused.map((f) => Number(f.score.toFixed(4)))).toEqual([0.0325, 0.0323, 0.0161, 0.0159]);
  });

  it('weights sources: w / (k + rank)', () => {
    const [top] = fuseReciprocalRank([r('file.dense', 'a', 'b'), r('task.dense', 'b', 'a')], { k: 1, weights: { 'task.dense': 3 } });
    // b: 1/(1+2) + 3/(1+1) = 1.8333; a: 1/(1+1) + 3/(1+2) = 1.5
    expect(top.id).toBe('b');
    expect(top.score).toBeCloseTo(1 / 3 + 3 / 2, 12);
  });

  it('records each source rank, raw score and share of the fused score', () => {
    const fused = fuseReciprocalRank([
      { source: 'file.keyword', items: [{ id: 'x', score: 12.5 }] },
      { source: 'file.dense', items: [{ id: 'y', score: 0.9 }, { id: 'x', score: 0.4 }] },
    ], { k: 60 });
    const x = fused.find((f) => f.id === 'x')!;
    // file.keyword: 1/61, file.dense: 1/62 -> shares 62/123 and 61/123
    expect(x.contributions).toEqual([
      { source: 'file.keyword', rank: 1, score: 12.5, share: expect.closeTo(62 / 123, 12) },
      { source: 'file.dense', rank: 2, score: 0.4, share: expect.closeTo(61 / 123, 12) },
    ]);
  });

  it('breaks score ties by best rank and then by id', () => {
    // a and b both score 1/61 + 1/62; c and d only appear once at rank 1 of one list... same score as each other.
    const fused = fuseReciprocalRank([r('s1', 'a', 'b', 'd'), r('s2', 'b', 'a', 'c')]);
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('ignores duplicates inside one list and rejects a source given twice or a negative weight', () => {
    expect(fuseReciprocalRank([r('s', 'a', 'a', 'b')]).map((f) => [f.id, f.contributions[0].rank])).toEqual([['a', 1], ['b', 3]]);
    expect(() => fuseReciprocalRank([r('s', 'a'), r('s', 'b')])).toThrow(/"s" appears twice/);
    expect(() => fuseReciprocalRank([r('s', 'a')], { weights: { s: -1 } })).toThrow(/weight for source "s"/);
    expect(() => fuseReciprocalRank([{ source: 's', items: [{ id: 'a', score: Number.NaN }] }])).toThrow(/non-finite score/);
  });
});

describe('fuseWeighted', () => {
  it('min-max normalises each source so BM25 and cosine scales combine', () => {
    const fused = fuseWeighted([
      { source: 'file.keyword', items: [{ id: 'a', score: 40 }, { id: 'b', score: 30 }, { id: 'c', score: 20 }] },
      { source: 'file.dense', items: [{ id: 'c', score: 0.9 }, { id: 'b', score: 0.85 }, { id: 'a', score: 0.1 }] },
    ]);
    // a: 1 + 0 = 1; b: 0.5 + 0.9375 = 1.4375; c: 0 + 1 = 1  -> b first; a, c tie on score and best rank, then id
    expect(fused.map((f) => [f.id, f.score])).toEqual([['b', 1.4375], ['a', 1], ['c', 1]]);
  });

  it('normalises a single-item list to 1 and honours weights', () => {
    const fused = fuseWeighted([{ source: 'task.dense', items: [{ id: 'only', score: 0.2 }] }, r('file.dense', 'x', 'y')], { weights: { 'task.dense': 0.5 } });
    expect(fused.map((f) => [f.id, f.score])).toEqual([['x', 1], ['only', 0.5], ['y', 0]]);
  });

  it('handles negative cosine scores like any others', () => {
    const fused = fuseWeighted([{ source: 'file.dense', items: [{ id: 'a', score: -0.1 }, { id: 'b', score: -0.3 }] }]);
    expect(fused.map((f) => f.score)).toEqual([1, 0]);
  });
});

describe('fuseCascade', () => {
  it('puts every file found by a file source before task-only files', () => {
    const fused = fuseCascade([r('task.dense', 't1', 'shared', 't2'), r('file.dense', 'f1', 'shared'), r('file.keyword', 'f2')]);
    const ids = fused.map((f) => f.id);
    expect(ids.slice(0, 3).sort()).toEqual(['f1', 'f2', 'shared']);
    expect(ids.slice(3)).toEqual(['t1', 't2']);
    const shared = fused.find((f) => f.id === 'shared')!;
    expect(shared.contributions.find((c) => c.source === 'task.dense')!.share).toBe(0);
    for (let i = 1; i < fused.length; i++) expect(fused[i].score).toBeLessThanOrEqual(fused[i - 1].score);
  });

  it('accepts explicit tiers and ignores sources in neither', () => {
    const fused = fuseCascade([r('task.dense', 't'), r('file.dense', 'f'), r('file.symbol', 's')], { primary: ['task.dense'], secondary: ['file.dense'] });
    expect(fused.map((f) => f.id)).toEqual(['t', 'f']);
  });
});

describe('fuseVote', () => {
  it('ranks files found by more sources first, ties by RRF', () => {
    const fused = fuseVote([r('file.dense', 'a', 'b', 'c'), r('file.keyword', 'c', 'd'), r('task.dense', 'e', 'c', 'b')]);
    // c: 3 votes; b: 2 votes; a, d, e: 1 vote, ordered by RRF (rank 1 beats rank 2)
    expect(fused.map((f) => [f.id, f.score])).toEqual([['c', 3], ['b', 2], ['a', 1], ['e', 1], ['d', 1]]);
  });

  it('counts weighted votes', () => {
    const fused = fuseVote([r('file.dense', 'a'), r('file.keyword', 'b'), r('task.dense', 'b')], { weights: { 'file.dense': 2.5 } });
    expect(fused.map((f) => f.id)).toEqual(['a', 'b']);
    expect(fused[1].contributions.map((c) => c.share)).toEqual([0.5, 0.5]);
  });
});

describe('concatenate (no-fusion ablation)', () => {
  it('appends file lists before task lists and keeps the first occurrence', () => {
    const fused = concatenate([r('task.dense', 'x', 'a'), r('file.keyword', 'b', 'c'), r('file.dense', 'a', 'b')]);
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c', 'x']);
    expect(fused[0].contributions).toEqual([
      { source: 'file.dense', rank: 1, score: 1, share: 1 },
      { source: 'task.dense', rank: 2, score: 0.9, share: 0 },
    ]);
  });
});

describe('fuse dispatcher', () => {
  it('routes to every strategy and rejects unknown names', () => {
    const rankings = [r('file.dense', 'a', 'b'), r('task.dense', 'b', 'c')];
    for (const s of ['rrf', 'weighted', 'cascade', 'vote', 'concat'] as const) {
      expect(new Set(fuse(s, rankings).map((f) => f.id))).toEqual(new Set(['a', 'b', 'c']));
    }
    expect(() => fuse('magic' as never, rankings)).toThrow(/Unknown fusion strategy "magic"/);
  });
});
