import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import request from 'supertest';
import { McpSearchOutputSchema, SearchResponseSchema, type SearchResponse } from '@sextant/contracts';
import { formatSearchTable } from '../../src/cli/commands/search.command';
import { createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { callTool, connectClient, SHOP, textOf } from '../mcp/mcp-fixture';
import { startHttpStub, STDIO_STUB } from './stub-servers';

async function indexShop(t: TestApp, admin: string): Promise<void> {
  const reg = await request(t.app.getHttpServer()).post('/v1/repos').set('Authorization', `Bearer ${admin}`).send({ path: makeFixtureRepo(SHOP), name: 'shop' }).expect(201);
  await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`).set('Authorization', `Bearer ${admin}`)).body.status === 'succeeded', { what: 'index' });
}

const search = async (t: TestApp, key: string, body: Record<string, unknown>): Promise<SearchResponse> =>
  SearchResponseSchema.parse((await request(t.app.getHttpServer()).post('/v1/search').set('Authorization', `Bearer ${key}`).send(body).expect(200)).body);

describe('reranker with the local scorer (no model)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV, listen: true });
    const admin = (await createKey(t, 'default', 'admin')).key;
    key = (await createKey(t, 'default', 'member')).key;
    await indexShop(t, admin);
  });
  afterAll(() => t.close());

  it('REST: rerank: true gives every result a 0–4 score and its band, best first; without it nothing changes', async () => {
    const plain = await search(t, key, { query: 'refresh the session expiry', top_k: 5 });
    expect(plain.results.every((r) => r.rerank === undefined)).toBe(true);
    const ranked = await search(t, key, { query: 'refresh the session expiry', top_k: 5, rerank: true });
    expect(ranked.results[0].path).toBe('src/auth/session.ts');
    expect(ranked.results[0].rerank).toMatchObject({ band: expect.stringMatching(/excellent|good/), below_threshold: false });
    const scores = ranked.results.map((r) => r.rerank!.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const r of ranked.results) expect(r.rerank!.band).toBe(r.rerank!.score >= 3.5 ? 'excellent' : r.rerank!.score >= 2.5 ? 'good' : r.rerank!.score >= 1.5 ? 'fair' : 'poor');
    expect(ranked.timings_ms.rerank).toBeGreaterThanOrEqual(0);
    // The CLI table shows the band.
    expect(formatSearchTable({ ...ranked, cached: false })).toMatch(/src\/auth\/session\.ts:\d+-\d+ {2}\[(excellent|good) \d\.\d\/4\]/);
  });

  it('drop removes what is under the threshold (and says so); flag keeps it marked', async () => {
    const flagged = await search(t, key, { query: 'refresh the session expiry', top_k: 10, rerank: true, rerank_threshold: 3.9, rerank_mode: 'flag' });
    const under = flagged.results.filter((r) => r.rerank!.below_threshold);
    expect(under.length).toBeGreaterThan(0);
    expect(under.every((r) => r.rerank!.score < 3.9)).toBe(true);
    const dropped = await search(t, key, { query: 'refresh the session expiry', top_k: 10, rerank: true, rerank_threshold: 3.9, rerank_mode: 'drop' });
    expect(dropped.results.every((r) => r.rerank!.score >= 3.9)).toBe(true);
    expect(dropped.results.length).toBe(flagged.results.length - under.length);
    expect(dropped.limits).toContain(`rerank: ${under.length} result(s) under 3.9 dropped`);
    await request(t.app.getHttpServer()).post('/v1/search').set('Authorization', `Bearer ${key}`).send({ query: 'x', rerank_threshold: 5 }).expect(400);
  });

  it('MCP search and socket search carry the band', async () => {
    const client = await connectClient(t.url!, key);
    try {
      const res = await callTool(client, 'search', { query: 'refresh the session expiry', top_k: 3, rerank: true });
      const out = McpSearchOutputSchema.parse(res.structuredContent);
      expect(out.results[0].rerank).toMatchObject({ band: expect.any(String), score: expect.any(Number) });
      expect(textOf(res)).toMatch(/\[typescript, score [\d.]+, via [\w.]+, (excellent|good|fair|poor) \d\.\d\/4/);
    } finally {
      await client.close();
    }
    const socket = io(t.url!, { transports: ['websocket'], auth: { token: key }, reconnection: false, forceNew: true });
    try {
      const done = new Promise<any>((resolve) => socket.on('search:done', resolve));
      socket.emit('search:start', { request_id: 'rr', query: 'refresh the session expiry', options: { top_k: 3, rerank: true } });
      const payload = await done;
      expect(payload.results[0].rerank.band).toMatch(/excellent|good|fair|poor/);
    } finally {
      socket.disconnect();
    }
  });
});

describe('reranker behind an HTTP endpoint (in-test TEI-style server), and fallback off', () => {
  let t: TestApp;
  let key: string;
  let endpoint: http.Server;
  let behaviour: 'ok' | 'error' | 'hang' = 'ok';
  const bodies: Array<{ query: string; texts: string[] }> = [];

  beforeAll(async () => {
    endpoint = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { query: string; texts: string[] };
        bodies.push(body);
        if (behaviour === 'hang') return;
        if (behaviour === 'error') return void res.writeHead(500).end('model crashed');
        // A "cross-encoder" that prefers the ledger, whatever the fused order says.
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(body.texts.map((text, index) => ({ index, score: text.startsWith('src/billing/ledger.ts') ? 0.97 : 0.2 }))));
      });
    });
    await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/rerank`;
    t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, PATH: process.env.PATH!, RERANK_URL: url, RERANK_STYLE: 'tei', RERANK_TIMEOUT_MS: '300', RERANK_MODE: 'drop', SEXTANT_MCP_FALLBACK: 'false' }, listen: true });
    const admin = (await createKey(t, 'default', 'admin')).key;
    key = (await createKey(t, 'default', 'member')).key;
    await indexShop(t, admin);
  });
  afterAll(async () => {
    await t.close();
    endpoint.closeAllConnections();
    await new Promise((r) => endpoint.close(r));
  });

  it('orders by the endpoint\'s scores mapped to 0–4 and drops what is under 2.5 (RERANK_MODE=drop)', async () => {
    behaviour = 'ok';
    const res = await search(t, key, { query: 'session ledger', top_k: 5, rerank: true });
    expect(bodies.at(-1)!.query).toBe('session ledger');
    expect(res.results.map((r) => [r.path, r.rerank!.band, r.rerank!.score])).toEqual([['src/billing/ledger.ts', 'excellent', 3.88]]);
    expect(res.limits.some((l) => /^rerank: \d+ result\(s\) under 2\.5 dropped$/.test(l))).toBe(true);
  });

  it('an endpoint error or timeout leaves the fused order and says the reranker was skipped', async () => {
    const fused = (await search(t, key, { query: 'ledger balance session', top_k: 5 })).results.map((r) => r.path);
    for (const [mode, reason] of [
      ['error', /rerank: skipped \(http:tei: rerank endpoint answered 500\); results keep their fused order/],
      ['hang', /rerank: skipped \(http:tei: rerank endpoint timed out after 300 ms\); results keep their fused order/],
    ] as const) {
      behaviour = mode;
      const res = await search(t, key, { query: 'ledger balance session', top_k: 5, rerank: true });
      expect(res.results.map((r) => r.path)).toEqual(fused);
      expect(res.results.every((r) => r.rerank === undefined)).toBe(true);
      expect(res.limits.some((l) => reason.test(l))).toBe(true);
    }
  });

  it('with SEXTANT_MCP_FALLBACK=false a failing external source fails the search with a reason', async () => {
    const admin = (await createKey(t, 'default', 'admin', 'adm2')).key;
    const ok = await startHttpStub({ files: [] });
    try {
      await request(t.app.getHttpServer()).post('/v1/sources/mcp').set('Authorization', `Bearer ${admin}`).send({ name: 'crashy', transport: { type: 'stdio', command: process.execPath, args: [STDIO_STUB], env: { STUB_MODE: 'crash' } } }).expect(201);
      const res = await request(t.app.getHttpServer()).post('/v1/search').set('Authorization', `Bearer ${key}`).send({ query: 'session' }).expect(503);
      expect(JSON.stringify(res.body)).toMatch(/mcp\.crashy: failed/);
    } finally {
      await ok.close();
    }
  });
});
