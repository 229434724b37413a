import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

const PROJECT: Record<string, string> = {
  ...SAMPLE_PROJECT,
  'test/auth/session.spec.ts': `import { SessionStore } from '../../src/auth/session';\n\ndescribe('SessionStore', () => {\n  it('refreshes sessions', () => {\n    expect(new SessionStore().refresh('x')).toBe(false);\n  });\n});\n`,
};

describe('structural priors from SEXTANT_PRIORS_FILE (real app)', () => {
  let t: TestApp;
  let dir: string;
  const api = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-priors-e2e-'));
    // A team whose docs are as important as code, and whose tests rank like source.
    const file = path.join(dir, 'priors.json');
    fs.writeFileSync(file, JSON.stringify({ rules: [{ label: 'docs', glob: ['docs/**'], weight: 1.5 }, { label: 'tests', glob: 'test/**', weight: 1 }] }));
    t = await startTestApp({ env: { SEXTANT_PRIORS_FILE: file } });
    const reg = await api().post('/v1/repos').send({ path: makeFixtureRepo(PROJECT), name: 'app' }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('multiplies each result by the configured weight and explains it; paths no custom rule matches keep the built-in table', async () => {
    const res = await api().post('/v1/search').send({ query: 'sessions refresh', top_k: 20, timeout_ms: 15000 }).expect(200);
    const byPath = new Map<string, { score: number; explain: { prior: number; score_before_prior: number; hit_reasons: string[] } }>(res.body.results.map((r: { path: string }) => [r.path, r]));
    const guide = byPath.get('docs/guide.md')!;
    expect(guide.explain.prior).toBe(1.5);
    expect(guide.explain.hit_reasons).toContain('prior:1.5');
    expect(guide.score).toBeCloseTo(guide.explain.score_before_prior * 1.5, 5);
    expect(byPath.get('test/auth/session.spec.ts')!.explain.prior).toBe(1);
    expect(byPath.get('src/auth/session.ts')!.explain.prior).toBe(1);
  });

  it('rank fusion weighs each source by the prior before fusing and says so; weighted fusion multiplies after', async () => {
    type Result = { path: string; score: number; explain: { prior: number; score_before_prior: number; prior_applied?: string; sources: Array<{ source: string; rank: number; score: number }> } };
    const ask = async (strategy: string): Promise<Result[]> => (await api().post('/v1/search').send({ query: 'sessions refresh guide', top_k: 20, strategy, timeout_ms: 15000 }).expect(200)).body.results;
    const rrf = await ask('rrf');
    const guide = rrf.find((r) => r.path === 'docs/guide.md')!;
    expect(guide.explain).toMatchObject({ prior: 1.5, prior_applied: 'sources' });
    // The prior is already in the fused score: nothing multiplies it again.
    for (const r of rrf) expect(r.score).toBeCloseTo(r.explain.score_before_prior, 6);
    expect(rrf.map((r) => r.score)).toEqual([...rrf.map((r) => r.score)].sort((a, b) => b - a));
    const weighted = await ask('weighted');
    const inWeighted = weighted.find((r) => r.path === 'docs/guide.md')!;
    expect(inWeighted.explain.prior_applied).toBe('fused');
    expect(inWeighted.score).toBeCloseTo(inWeighted.explain.score_before_prior * 1.5, 5);
  });
});
