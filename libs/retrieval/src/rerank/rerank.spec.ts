import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyRerank } from './apply-rerank';
import { HttpReranker } from './http-reranker';
import { LocalReranker } from './local-relevance';
import { rerankBand, toRerankScale } from './rerank-scale';
import { RerankerUnavailableError } from './reranker.port';

describe('rerank scale (seed 002 bands)', () => {
  it.each([
    [4, 'excellent'],
    [3.5, 'excellent'],
    [3.49, 'good'],
    [2.5, 'good'],
    [2.49, 'fair'],
    [1.5, 'fair'],
    [1.49, 'poor'],
    [0, 'poor'],
  ])('%p is %s', (score, band) => expect(rerankBand(score)).toBe(band));

  it('scales probabilities linearly and logits through a sigmoid', () => {
    expect(toRerankScale([1, 0.5, 0])).toEqual([4, 2, 0]);
    const [high, low] = toRerankScale([3, -3]);
    expect(high).toBeCloseTo(4 / (1 + Math.exp(-3)), 6);
    expect(low).toBeLessThan(0.2);
  });
});

describe('applyRerank', () => {
  const items = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  it('orders by score and drops what is below the threshold', () => {
    const out = applyRerank(items, [1.2, 3.8, 2.5], { threshold: 2.5, mode: 'drop' });
    expect(out.items.map((i) => [i.id, i.rerank.band])).toEqual([
      ['b', 'excellent'],
      ['c', 'good'],
    ]);
    expect(out.dropped).toBe(1);
  });
  it('flags instead of dropping in flag mode, and honours a custom threshold', () => {
    const out = applyRerank(items, [1.2, 3.8, 2.5], { threshold: 3, mode: 'flag' });
    expect(out.items.map((i) => [i.id, i.rerank.below_threshold])).toEqual([
      ['b', false],
      ['c', true],
      ['a', true],
    ]);
    expect(out.dropped).toBe(0);
  });
});

describe('LocalReranker', () => {
  it('scores a result holding every query term close together above one sharing none', async () => {
    const [good, unrelated] = await new LocalReranker().rerank('refresh the session token', [
      { text: 'export function refreshSessionToken(session) {\n  return renewToken(session)\n}', title: 'src/auth/session.ts', fusedShare: 1 },
      { text: 'const colours = ["red", "green"];', title: 'src/theme/colours.ts', fusedShare: 1 },
    ]);
    expect(rerankBand(good)).toBe('excellent');
    expect(rerankBand(unrelated)).toBe('poor');
  });
  it('counts inflected forms of a query word (sessions, refreshed) without a stemmer', async () => {
    const [inflected, none] = await new LocalReranker().rerank('session refresh', [
      { text: 'Sessions expire after an hour unless refreshed.', title: 'docs/guide.md', fusedShare: 0.1 },
      { text: 'Sessional refreshments are served at noon.', title: 'docs/menu.md', fusedShare: 0.1 },
    ]);
    expect(inflected).toBeGreaterThan(2); // was 0.4 when only exact tokens counted
    // "refreshments" is too far from "refresh" to count; "sessional" is close enough.
    expect(none).toBeLessThan(inflected);
  });
  it('scores partial coverage between the two', async () => {
    const [partial] = await new LocalReranker().rerank('refresh session token', [{ text: 'function refresh() { /* caches */ }', title: 'src/cache.ts', fusedShare: 0.5 }]);
    expect(partial).toBeGreaterThan(1);
    expect(partial).toBeLessThan(2.5);
  });
});

describe('HttpReranker against an in-test endpoint', () => {
  let server: http.Server;
  let url: string;
  const seen: Array<{ path: string; auth?: string; body: Record<string, unknown> }> = [];
  let behaviour: 'tei' | 'cohere' | 'error' | 'hang' | 'garbage' = 'tei';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { texts?: string[]; documents?: string[] };
        seen.push({ path: req.url!, auth: req.headers.authorization, body });
        const docs = body.texts ?? body.documents ?? [];
        // Scores the documents by whether they mention "session" (like a cross-encoder would, coarsely).
        const scores = docs.map((d) => (d.includes('session') ? 0.95 : 0.1));
        if (behaviour === 'hang') return;
        if (behaviour === 'error') return void res.writeHead(503).end('overloaded');
        res.setHeader('content-type', 'application/json');
        if (behaviour === 'garbage') return void res.end(JSON.stringify({ nope: true }));
        if (behaviour === 'tei') return void res.end(JSON.stringify(scores.map((score, index) => ({ index, score })).sort((a, b) => b.score - a.score)));
        res.end(JSON.stringify({ results: scores.map((relevance_score, index) => ({ index, relevance_score })).reverse() }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => (seen.length = 0));

  const docs = [{ text: 'colours' }, { text: 'refresh the session', title: 'auth.ts' }];

  it('TEI style: posts {query, texts} to /rerank and maps scores back to candidate order on 0–4', async () => {
    behaviour = 'tei';
    const scores = await new HttpReranker({ url: `${url}/rerank`, style: 'tei', timeoutMs: 2000 }).rerank('session', docs);
    expect(scores).toEqual([0.4, 3.8]);
    expect(seen[0]).toMatchObject({ path: '/rerank', body: { query: 'session', texts: ['colours', 'auth.ts\nrefresh the session'] } });
  });

  it('Cohere style: posts {model, query, documents, top_n} with the API key and reads relevance_score', async () => {
    behaviour = 'cohere';
    const scores = await new HttpReranker({ url: `${url}/v1/rerank`, style: 'cohere', model: 'rerank-v3', apiKey: 'k-123', timeoutMs: 2000 }).rerank('session', docs);
    expect(scores).toEqual([0.4, 3.8]);
    expect(seen[0]).toMatchObject({ path: '/v1/rerank', auth: 'Bearer k-123', body: { model: 'rerank-v3', query: 'session', top_n: 2 } });
  });

  it('a 5xx, a wrong body and a timeout are RerankerUnavailableError naming the cause', async () => {
    behaviour = 'error';
    await expect(new HttpReranker({ url: `${url}/rerank`, style: 'tei', timeoutMs: 2000 }).rerank('q', docs)).rejects.toThrow(new RerankerUnavailableError('rerank endpoint answered 503'));
    behaviour = 'garbage';
    await expect(new HttpReranker({ url: `${url}/v1/rerank`, style: 'cohere', timeoutMs: 2000 }).rerank('q', docs)).rejects.toThrow(/unexpected body/);
    behaviour = 'hang';
    const started = Date.now();
    await expect(new HttpReranker({ url: `${url}/rerank`, style: 'tei', timeoutMs: 200 }).rerank('q', docs)).rejects.toThrow('rerank endpoint timed out after 200 ms');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('an unreachable endpoint is RerankerUnavailableError', async () => {
    await expect(new HttpReranker({ url: 'http://127.0.0.1:1/rerank', style: 'tei', timeoutMs: 2000 }).rerank('q', docs)).rejects.toThrow(/unreachable/);
  });
});
