import fc from 'fast-check';
import { ChangeHistory, FEATURE_NAMES, calibratedScore, candidateFeatures, explainScore, listMetrics, queryTermSet, scoreCandidates, trainLinearRanker, type CandidateEvidence, type RankingExample } from './index';

describe('ChangeHistory', () => {
  const h = new ChangeHistory([
    { files: ['a.py', 'b.py'], text: 'Fix cookie parsing in the session' },
    { files: ['a.py'], text: 'Refactor helpers' },
    { files: ['c.py', 'b.py'], text: 'Cookie expiry is ignored' },
    { files: ['a.py', 'c.py'], text: 'Speed up routing' },
  ]);

  it('counts changes and finds the last one before a position', () => {
    expect(h.changeCount('a.py')).toBe(3);
    expect(h.changeCount('a.py', 2)).toBe(2);
    expect(h.changeCount('zzz.py')).toBe(0);
    expect(h.lastChange('c.py', 3)).toBe(2);
    expect(h.lastChange('c.py', 2)).toBeNull();
  });

  it('scores history profiles with only the tasks before the position', () => {
    const all = h.profileScores(queryTermSet('cookie'));
    expect([...all.keys()].sort()).toEqual(['a.py', 'b.py', 'c.py']);
    // b.py was changed twice, both times about cookies: it outranks a.py (once of three) and c.py.
    expect(all.get('b.py')!).toBeGreaterThan(all.get('a.py')!);
    const early = h.profileScores(queryTermSet('cookie'), 1);
    expect([...early.keys()].sort()).toEqual(['a.py', 'b.py']); // the expiry task (position 2) is not visible yet
  });

  it('measures co-change as the share of the partner changes', () => {
    expect(h.coChange('a.py', 'b.py')).toBeCloseTo(0.5);
    expect(h.coChange('c.py', 'b.py', 2)).toBe(0);
    expect(h.coChange('a.py', 'a.py')).toBe(0);
  });

  it('matches a brute-force count (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.subarray(['x', 'y', 'z']), { maxLength: 30 }), fc.nat(35), (tasks, before) => {
        const history = new ChangeHistory(tasks.map((files) => ({ files })));
        for (const f of ['x', 'y', 'z']) {
          const positions = tasks.map((t, i) => (t.includes(f) && i < before ? i : -1)).filter((i) => i >= 0);
          expect(history.changeCount(f, before)).toBe(positions.length);
          expect(history.lastChange(f, before)).toBe(positions.length ? positions[positions.length - 1] : null);
        }
      }),
    );
  });
});

const evidence = (over: Partial<CandidateEvidence>): CandidateEvidence => ({ path: 'src/x.py', sources: {}, fusedRank: 1, fusedScore: 1, prior: 1, relatedTasks: 0, profileScore: 0, profileRank: 0, coChange: 0, fileBm25Rank: 0, fileBm25Score: 0, taskBm25Rank: 0, ...over });
const context = { terms: queryTermSet('session cookie refresh'), sourceMax: { 'file.dense': 0.8 }, topFusedScore: 2, history: new ChangeHistory([{ files: ['src/auth/session.py'] }]), position: 1, profileMax: 4, fileBm25Max: 0 };

describe('candidateFeatures', () => {
  it('fills every named feature in order', () => {
    const x = candidateFeatures(evidence({ path: 'src/auth/session.py', sources: { 'file.dense': { rank: 2, score: 0.4 } }, fusedRank: 4, fusedScore: 1, mention: { kind: 'frame', strength: 1 }, profileScore: 2, profileRank: 2, coChange: 0.5 }), context);
    const f = (name: string) => x[FEATURE_NAMES.indexOf(name)];
    expect(x).toHaveLength(FEATURE_NAMES.length);
    expect(f('file.dense.rr')).toBe(0.5);
    expect(f('file.dense.score')).toBeCloseTo(0.5);
    expect(f('file.keyword.rr')).toBe(0);
    expect(f('fusion.score')).toBe(0.5);
    expect(f('fusion.rr')).toBe(0.25);
    expect(f('mention.frame')).toBe(1);
    expect(f('path.stem')).toBe(1);
    expect(f('path.overlap')).toBeCloseTo(1 / 3);
    expect(f('history.count')).toBeCloseTo(Math.log(2));
    expect(f('history.recency')).toBe(1);
    expect(f('history.profile')).toBe(0.5);
    expect(f('cochange.top')).toBe(0.5);
    expect(f('kind.test')).toBe(0);
  });

  it('recognises tests and docs', () => {
    expect(candidateFeatures(evidence({ path: 'tests/test_session.py' }), context)[FEATURE_NAMES.indexOf('kind.test')]).toBe(1);
    expect(candidateFeatures(evidence({ path: 'docs/api.rst' }), context)[FEATURE_NAMES.indexOf('kind.doc')]).toBe(1);
  });
});

/** Lists where relevance follows feature 1 and feature 0 is noise; fusion order (input order) follows the noise. */
function syntheticExamples(count: number, seed: number): RankingExample[] {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: count }, () => {
    const features = Array.from({ length: 12 }, () => Float64Array.from([rand(), rand(), rand()]));
    features.sort((a, b) => b[0] - a[0]);
    const best = features.reduce((bi, f, i) => (f[1] > features[bi][1] ? i : bi), 0);
    return { features, labels: features.map((_, i) => (i === best ? 1 : 0)), relevantTotal: 1 };
  });
}

describe('trainLinearRanker', () => {
  const names = ['noise', 'signal', 'other'];

  it('learns the feature that predicts relevance and beats the input order on held-out lists', () => {
    const model = trainLinearRanker(syntheticExamples(200, 1), names);
    expect(Math.abs(model.weights[1])).toBeGreaterThan(Math.abs(model.weights[0]));
    const held = syntheticExamples(100, 2);
    const order = (scores: number[]) => scores.map((v, i) => ({ v, i })).sort((a, b) => b.v - a.v).map((x) => x.i);
    const ranker = listMetrics(held.map((e) => ({ order: order(scoreCandidates(model, e.features)), labels: e.labels, relevantTotal: 1 })));
    const input = listMetrics(held.map((e) => ({ order: e.labels.map((_, i) => i), labels: e.labels, relevantTotal: 1 })));
    expect(ranker.mrr).toBeGreaterThan(input.mrr + 0.3);
  });

  it('is deterministic, calibrated to probabilities and explained by feature', () => {
    const a = trainLinearRanker(syntheticExamples(50, 3), names);
    const b = trainLinearRanker(syntheticExamples(50, 3), names);
    expect(a).toEqual(b);
    const hi = calibratedScore(a, 3);
    const lo = calibratedScore(a, -3);
    expect(hi).toBeGreaterThan(lo);
    expect(hi).toBeLessThanOrEqual(1);
    expect(lo).toBeGreaterThanOrEqual(0);
    const top = explainScore(a, Float64Array.from([0.5, 0.99, 0.5]));
    expect(top[0].feature).toBe('signal');
  });

  it('skips lists with no relevant candidate and survives constant features', () => {
    const flat: RankingExample = { features: [Float64Array.from([1, 1, 1]), Float64Array.from([1, 1, 1])], labels: [0, 0], relevantTotal: 1 };
    const model = trainLinearRanker([flat], names);
    expect(model.weights).toEqual([0, 0, 0]);
    expect(scoreCandidates(model, flat.features)).toEqual([0, 0]);
  });
});
