import { fuse } from '../fusion';
import { aggregateChunksToFiles, applyPriors, classifyQuery, DEFAULT_PRIOR_RULES, filesFromTasks, orderRankingsByPrior, priorFor, querySpecificSignals, StructuralPriors } from './index';

describe('aggregateChunksToFiles', () => {
  it('scores a file by its best chunk plus a capped bonus for extra matching chunks', () => {
    const files = aggregateChunksToFiles([
      { chunkId: 'auth#1', path: 'src/auth.ts', score: 0.8 },
      { chunkId: 'auth#2', path: 'src/auth.ts', score: 0.5 },
      { chunkId: 'db#1', path: 'src/db.ts', score: 0.85 },
      ...Array.from({ length: 10 }, (_, i) => ({ chunkId: `big#${i}`, path: 'src/big.ts', score: 0.6 })),
    ]);
    // auth: 0.8 × (1 + 0.1×1) = 0.88; db: 0.85; big: 0.6 × (1 + 0.1×3) = 0.78 (bonus capped at 3 chunks)
    expect(files.map((f) => [f.path, Number(f.score.toFixed(4))])).toEqual([['src/auth.ts', 0.88], ['src/db.ts', 0.85], ['src/big.ts', 0.78]]);
    expect(files[2].matchingChunks).toBe(10);
    expect(files[2].evidence).toHaveLength(3);
    expect(files[0].evidence.map((e) => e.chunkId)).toEqual(['auth#1', 'auth#2']);
  });

  it('keeps extra fields on evidence and counts a duplicated chunk once', () => {
    const files = aggregateChunksToFiles([
      { chunkId: 'a#1', path: 'a.ts', score: 0.4, symbol: 'login' },
      { chunkId: 'a#1', path: 'a.ts', score: 0.6, symbol: 'login' },
    ]);
    expect(files[0]).toMatchObject({ score: 0.6, matchingChunks: 1, evidence: [{ chunkId: 'a#1', score: 0.6, symbol: 'login' }] });
  });

  it('lets extra chunks help files whose scores are negative too', () => {
    const files = aggregateChunksToFiles([
      { chunkId: 'x#1', path: 'x.ts', score: -0.2 },
      { chunkId: 'x#2', path: 'x.ts', score: -0.3 },
      { chunkId: 'y#1', path: 'y.ts', score: -0.2 },
    ]);
    expect(files.map((f) => f.path)).toEqual(['x.ts', 'y.ts']);
    expect(files[0].score).toBeCloseTo(-0.18, 10);
  });
});

describe('filesFromTasks', () => {
  const now = new Date('2024-01-01T00:00:00Z');

  it('ranks files touched by several similar tasks above a file touched once', () => {
    const files = filesFromTasks([
      { taskId: 't1', score: 0.9, files: ['lib/session.js'] },
      { taskId: 't2', score: 0.9, files: ['lib/cookies.js'] },
      { taskId: 't3', score: 0.6, files: ['lib/session.js'] },
    ]);
    // session: 0.9 + 0.5 × 0.6 = 1.2; cookies: 0.9
    expect(files.map((f) => [f.path, Number(f.score.toFixed(6))])).toEqual([['lib/session.js', 1.2], ['lib/cookies.js', 0.9]]);
    expect(files[0].tasks.map((t) => t.taskId)).toEqual(['t1', 't3']);
  });

  it('damps tasks that touched many files by 1 / log2(1 + nFiles)', () => {
    const broad = Array.from({ length: 15 }, (_, i) => `src/f${i}.ts`);
    const files = filesFromTasks([
      { taskId: 'broad', score: 0.9, files: broad },
      { taskId: 'focused', score: 0.5, files: ['src/focused.ts'] },
    ]);
    expect(files[0].path).toBe('src/focused.ts');
    expect(files.find((f) => f.path === 'src/f3.ts')!.score).toBeCloseTo(0.9 / 4, 10);
    expect(filesFromTasks([{ taskId: 'broad', score: 0.9, files: broad }], { maxFilesPerTask: 10 })).toEqual([]);
  });

  it('decays old tasks with the configured half-life', () => {
    const files = filesFromTasks(
      [
        { taskId: 'old', score: 0.9, files: ['old.ts'], createdAt: '2022-01-01T00:00:00Z' },
        { taskId: 'new', score: 0.5, files: ['new.ts'], createdAt: '2023-12-31T00:00:00Z' },
        { taskId: 'undated', score: 0.3, files: ['undated.ts'], createdAt: null },
      ],
      { recencyHalfLifeDays: 365, now },
    );
    expect(files.map((f) => f.path)).toEqual(['new.ts', 'undated.ts', 'old.ts']);
    expect(files[2].score).toBeCloseTo(0.9 * 0.5 ** (730 / 365), 10);
  });

  it('treats negative task similarity as no evidence', () => {
    const files = filesFromTasks([{ taskId: 'neg', score: -0.4, files: ['a.ts'] }, { taskId: 'pos', score: 0.1, files: ['b.ts'] }]);
    expect(files.map((f) => [f.path, f.score])).toEqual([['b.ts', 0.1], ['a.ts', 0]]);
  });
});

describe('structural priors', () => {
  it.each([
    ['src/session/store.ts', 1],
    ['src/session/store.spec.ts', 0.8],
    ['tests/test_session.py', 0.8],
    ['pkg/session/store_test.go', 0.8],
    ['docs/guide/sessions.md', 0.7],
    ['examples/basic/app.js', 0.7],
    ['vendor/github.com/x/y.go', 0.4],
    ['legacy/old_login.php', 0.4],
    ['test/fixtures/session.json', 0.4],
    ['dist/bundle.min.js', 0.4],
    ['src/api/schema.generated.ts', 0.4],
  ])('%s -> %d', (path, weight) => expect(priorFor(path)).toBe(weight));

  it('uses the first matching rule, so vendored tests stay vendored', () => {
    expect(priorFor('third_party/lib/tests/a_test.go')).toBe(0.4);
    expect(DEFAULT_PRIOR_RULES.map((r) => r.weight)).toEqual([0.4, 0.4, 0.4, 0.4, 0.8, 0.7]);
  });

  it("expresses seed 001's docs ladder core > system > concepts > meta > test > archive", () => {
    const priors = new StructuralPriors(
      [
        { label: 'core', glob: 'docs/core/**', weight: 1.0 },
        { label: 'system', glob: 'docs/system/**', weight: 0.9 },
        { label: 'concepts', glob: 'docs/concepts/**', weight: 0.8 },
        { label: 'meta', glob: 'docs/meta/**', weight: 0.7 },
        { label: 'test', glob: 'docs/test/**', weight: 0.6 },
        { label: 'archive', glob: 'docs/archive/**', weight: 0.4 },
      ],
      { defaultWeight: 0.5 },
    );
    const ranked = applyPriors(['archive', 'test', 'meta', 'concepts', 'system', 'core'].map((c) => ({ id: `docs/${c}/x.md`, score: 1 })), priors);
    expect(ranked.map((r) => r.id)).toEqual(['docs/core/x.md', 'docs/system/x.md', 'docs/concepts/x.md', 'docs/meta/x.md', 'docs/test/x.md', 'docs/archive/x.md']);
    expect(priors.priorFor('README.md')).toBe(0.5);
  });

  it('multiplies scores and re-sorts, recording the prior', () => {
    const ranked = applyPriors([
      { id: 'vendor/lib.js', score: 1 },
      { id: 'src/lib.js', score: 0.5 },
      { id: 'test/lib.test.js', score: 0.55 },
    ]);
    expect(ranked.map((r) => [r.id, r.score, r.prior])).toEqual([
      ['src/lib.js', 0.5, 1],
      ['test/lib.test.js', 0.55 * 0.8, 0.8],
      ['vendor/lib.js', 0.4, 0.4],
    ]);
    expect(applyPriors([{ id: 'vendor/a.js', score: -1 }, { id: 'src/a.js', score: -1.5 }]).map((r) => r.id)).toEqual(['src/a.js', 'vendor/a.js']);
  });

  it('reads the path through the given function and keeps it on each result, leaving the inputs alone', () => {
    const fused = [
      { id: 'file:r1:vendor/lib.js', score: 1, contributions: ['file.dense'] },
      { id: 'file:r1:src/lib.js', score: 0.5, contributions: ['file.keyword'] },
    ];
    const ranked = applyPriors(fused, undefined, (f) => f.id.slice('file:r1:'.length));
    expect(ranked.map((r) => [r.path, r.score, r.prior, r.scoreBeforePrior, r.contributions])).toEqual([
      ['src/lib.js', 0.5, 1, 0.5, ['file.keyword']],
      ['vendor/lib.js', 0.4, 0.4, 1, ['file.dense']],
    ]);
    expect(fused[0]).toEqual({ id: 'file:r1:vendor/lib.js', score: 1, contributions: ['file.dense'] });
  });

  it('records the prior without touching scores or order when told not to scale', () => {
    const ranked = applyPriors([{ id: 'docs/a.md', score: 0.03 }, { id: 'src/a.ts', score: 0.02 }], undefined, undefined, { scale: false });
    expect(ranked.map((r) => [r.id, r.score, r.prior, r.scoreBeforePrior])).toEqual([
      ['docs/a.md', 0.03, 0.7, 0.03],
      ['src/a.ts', 0.02, 1, 0.02],
    ]);
  });

  it("orders each source's list by score × prior before rank fusion, keeping raw scores", () => {
    const rankings = [
      // The doc leads the keyword list by a wide margin, the test by a hair.
      { source: 'file.keyword', items: [{ id: 'docs/guide.md', score: 20 }, { id: 'test/a.test.ts', score: 10.1 }, { id: 'src/a.ts', score: 10 }, { id: 'src/b.ts', score: 2 }] },
      { source: 'task.keyword', items: [{ id: 'vendor/x.js', score: -1 }, { id: 'src/b.ts', score: -1.2 }] },
    ];
    const ordered = orderRankingsByPrior(rankings);
    // 20 × 0.7 = 14 still leads; 10.1 × 0.8 = 8.08 falls below 10; a negative score is divided (-1 / 0.4 = -2.5 < -1.2).
    expect(ordered[0].items).toEqual([{ id: 'docs/guide.md', score: 20 }, { id: 'src/a.ts', score: 10 }, { id: 'test/a.test.ts', score: 10.1 }, { id: 'src/b.ts', score: 2 }]);
    expect(ordered[1].items.map((i) => i.id)).toEqual(['src/b.ts', 'vendor/x.js']);
    expect(rankings[0].items[0].id).toBe('docs/guide.md');
    // Multiplying RRF scores afterwards would have sent the doc below both code files (0.7 / 61 < 1 / 63).
    const after = applyPriors(fuse('rrf', [rankings[0]]));
    expect(after.map((f) => f.id).indexOf('docs/guide.md')).toBeGreaterThan(after.map((f) => f.id).indexOf('src/b.ts'));
    expect(fuse('rrf', [ordered[0]]).map((f) => f.id)[0]).toBe('docs/guide.md');
  });

  it('rejects a negative weight with the rule named', () => {
    expect(() => new StructuralPriors([{ label: 'bad', glob: '**', weight: -1 }])).toThrow(/"bad"/);
  });
});

describe('classifyQuery', () => {
  it.each([
    'where is parseHttpResponse defined',
    'SESSION_TTL is ignored when set to 0',
    'getUserById returns null for deleted users',
    'crash in Router.handle when the path is empty',
    'update src/auth/login.ts to use the new token format',
    'what does config.yaml control',
    '`flush` runs twice on shutdown',
    'why does render() run on every keypress',
    'handle_request drops the body',
    'lib/router/index.js ignores trailing slashes',
  ])('specific: %s', (q) => expect(classifyQuery(q)).toBe('specific'));

  it.each([
    'how do we expire old sessions',
    'Where is rate limiting handled?',
    'Add pagination to the API endpoints',
    'Login with GitHub fails with an OAuth error',
    'upgrade to v2.3 breaks caching',
    'retry logic, e.g. when the network drops',
    'Support TypeScript 5 and HTTP/2',
    'read and/or write permissions for file(s) upload',
    'How does the Node.js server shut down gracefully',
  ])('conceptual: %s', (q) => expect(classifyQuery(q)).toBe('conceptual'));

  it('explains why a query is specific', () => {
    expect(querySpecificSignals('why does render() loop')).toEqual(['call render()']);
    expect(querySpecificSignals('how are sessions stored')).toEqual([]);
  });
});
