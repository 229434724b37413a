/**
 * `file.graph` as a search source: from the other sources' strongest hits it walks the code
 * graph and surfaces files that share no word with the query but call (or are called by) a hit.
 * It runs as a second stage and streams as its own partial.
 */
import type { SearchPartial } from '@sextant/contracts';
import { SearchRequestSchema } from '@sextant/contracts';
import request from 'supertest';
import { SearchService } from '../../src/modules/fusion/search.service';
import { ensureWorkspace } from '../auth/auth-helpers';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/** `ops/cron.py` shares no word with "chargeback ledger"; it only calls the function that handles it. */
const FILES: Record<string, string> = {
  'billing/adjust.py': 'def apply(entry):\n    """Reverses a chargeback: writes the opposite ledger entry for the disputed payment."""\n    ledger = entry.ledger\n    return ledger.append(-entry.amount)\n',
  'ops/cron.py': 'from billing.adjust import apply\n\n\ndef tick(queue):\n    for item in queue:\n        apply(item)\n',
  'web/views.py': 'def index(request):\n    return "hello"\n',
  'web/forms.py': 'class SignupForm:\n    def clean(self):\n        return True\n',
  'util/strings.py': 'def slug(text):\n    return text.lower().replace(" ", "-")\n',
};

interface Result {
  path: string;
  explain: { sources: Array<{ source: string }>; hit_reasons: string[] };
}

describe('file.graph search source', () => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());
  const query = 'chargeback ledger';

  beforeAll(async () => {
    t = await startTestApp();
    const root = makeFixtureRepo(FILES);
    const reg = await api().post('/v1/repos').send({ path: root, name: 'shop' }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
  });
  afterAll(() => t?.close());

  it('finds the caller of a matched function that shares no word with the query, and explains why', async () => {
    const lexical = await api().post('/v1/search').send({ query, sources: ['file.keyword', 'file.symbol'], timeout_ms: 15000 }).expect(200);
    expect(lexical.body.results.map((r: Result) => r.path)).toEqual(['billing/adjust.py']);

    const res = await api().post('/v1/search').send({ query, sources: ['file.keyword', 'file.symbol', 'file.graph'], timeout_ms: 15000 }).expect(200);
    const paths = res.body.results.map((r: Result) => r.path);
    expect(paths.slice(0, 2)).toEqual(['billing/adjust.py', 'ops/cron.py']);
    const cron = res.body.results[1] as Result;
    expect(cron.explain.sources.map((s) => s.source)).toEqual(['file.graph']);
    expect(cron.explain.hit_reasons).toContain('graph:tick calls apply');
    expect(res.body.timings_ms['file.graph']).toEqual(expect.any(Number));
  });

  it('is part of the default search and streams as its own partial after the sources it expands', async () => {
    const ws = await ensureWorkspace(t, 'default');
    const partials: SearchPartial[] = [];
    const res = await t.app.get(SearchService).search(ws, SearchRequestSchema.parse({ query, timeout_ms: 15000 }), { onPartial: (p) => partials.push(p), log: false });
    const sources = partials.map((p) => p.source);
    expect(sources[sources.length - 1]).toBe('file.graph');
    expect(new Set(sources)).toEqual(new Set(['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword', 'file.graph']));
    const graphPartial = partials[partials.length - 1];
    expect(graphPartial.sources_pending).toEqual([]);
    expect(graphPartial.results.map((r) => r.path)).toContain('ops/cron.py');
    const cron = res.results.find((r) => r.path === 'ops/cron.py');
    expect(cron?.explain.sources.map((s) => s.source)).toContain('file.graph');
  });

  it('stays out when a request leaves it out or filters its files away', async () => {
    const res = await api().post('/v1/search').send({ query, sources: ['file.keyword', 'file.graph'], filters: { exclude: ['ops/**'] }, timeout_ms: 15000 }).expect(200);
    expect(res.body.results.map((r: Result) => r.path)).toEqual(['billing/adjust.py']);
  });
});
