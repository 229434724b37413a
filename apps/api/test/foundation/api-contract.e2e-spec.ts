import * as path from 'node:path';
import Database from 'better-sqlite3';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { holdSource } from '../helpers/hold-source';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Asserts an RFC 9457 problem response with a stable code and the request id. */
function expectProblem(res: request.Response, status: number, code: string, detail?: RegExp): void {
  expect({ status: res.status, contentType: res.headers['content-type'] }).toEqual({ status, contentType: expect.stringMatching(/^application\/problem\+json/) });
  expect(res.body).toMatchObject({ type: `urn:sextant:problem:${code}`, title: expect.any(String), status, code, detail: expect.any(String), request_id: res.headers['x-request-id'] });
  expect(res.body.request_id).toMatch(/\S/);
  if (detail) expect(res.body.detail).toMatch(detail);
  expect(res.body.stack).toBeUndefined();
}

describe('API contract: problem details (keys required)', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, SEXTANT_BODY_LIMIT: '16kb' }, listen: true });
    admin = (await createKey(t, 'default', 'admin', 'contract-admin')).key;
    reader = (await createKey(t, 'default', 'reader', 'contract-reader')).key;
  });
  afterAll(() => t.close());

  it('400 validation_failed names each field in issues', async () => {
    const res = await http().post('/v1/keys').set(bearer(admin)).send({ name: '', role: 'owner', colour: 'blue' });
    expectProblem(res, 400, 'validation_failed', /role/);
    expect(res.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(expect.arrayContaining(['name', 'role']));
    const uuid = await http().get('/v1/repos/not-a-uuid').set(bearer(reader));
    expectProblem(uuid, 400, 'validation_failed', /uuid/);
  });

  it('400 invalid_json for a body that does not parse', async () => {
    const res = await http().post('/v1/search').set(bearer(reader)).set('content-type', 'application/json').send('{"query": ');
    expectProblem(res, 400, 'invalid_json');
  });

  it('401 unauthenticated without a key, with WWW-Authenticate', async () => {
    const res = await http().get('/v1/repos');
    expectProblem(res, 401, 'unauthenticated', /sextant keys create/);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('403 forbidden for a role too low and for a cross-site write (refused before routing)', async () => {
    expectProblem(await http().post('/v1/keys').set(bearer(reader)).send({ name: 'x', role: 'admin' }), 403, 'forbidden', /admin role/);
    const crossSite = await http().post('/v1/search').set(bearer(reader)).set('Origin', 'http://evil.example').send({ query: 'x' });
    expectProblem(crossSite, 403, 'forbidden', /Cross-origin POST/);
  });

  it('404 not_found for an unknown id and an unknown route, echoing the caller\'s X-Request-Id', async () => {
    expectProblem(await http().get('/v1/repos/00000000-0000-4000-8000-000000000000').set(bearer(reader)), 404, 'not_found');
    const route = await http().get('/v1/no-such-route').set(bearer(reader)).set('X-Request-Id', 'contract-404');
    expectProblem(route, 404, 'not_found');
    expect(route.body.request_id).toBe('contract-404');
  });

  it('409 conflict when a repository is registered twice', async () => {
    const root = makeFixtureRepo({ 'a.ts': 'export const a = 1;\n' });
    await http().post('/v1/repos').set(bearer(admin)).send({ path: root, index: false }).expect(201);
    expectProblem(await http().post('/v1/repos').set(bearer(admin)).send({ path: root, index: false }), 409, 'conflict');
  });

  it('413 payload_too_large over SEXTANT_BODY_LIMIT', async () => {
    const res = await http().post('/v1/search').set(bearer(reader)).set('content-type', 'application/json').send(JSON.stringify({ query: 'x'.repeat(32 * 1024) }));
    expectProblem(res, 413, 'payload_too_large', /limit/);
  });

  it('415 unsupported_media_type for a text/plain body (not "expected object, received undefined")', async () => {
    const res = await http().post('/v1/search').set(bearer(reader)).set('content-type', 'text/plain').send('{"query":"x"}');
    expectProblem(res, 415, 'unsupported_media_type', /must be JSON/);
  });

  it('SSE: a bad query is problem+json before the stream; a failure after it starts is an `error` event with the same fields', async () => {
    expectProblem(await http().get('/v1/search/stream').set(bearer(reader)).query({ q: '' }), 400, 'validation_failed', /query/);

    const root = makeFixtureRepo(SAMPLE_PROJECT, { git: true });
    const reg = await http().post('/v1/repos').set(bearer(admin)).send({ path: root }).expect(201);
    await waitFor(async () => (await http().get(`/v1/jobs/${reg.body.job.id}`).set(bearer(reader))).body.status === 'succeeded', { what: 'index' });
    const streamer = await createKey(t, 'default', 'reader', 'sse-revoked');
    const hold = holdSource(t, 'task.keyword');
    try {
      const res = await fetch(`${t.url}/v1/search/stream?q=session`, { headers: { ...bearer(streamer.key), 'X-Request-Id': 'sse-contract' } });
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const text = res.text();
      await new Promise((r) => setTimeout(r, 200));
      await http().delete(`/v1/keys/${streamer.id}`).set(bearer(admin)).expect(200);
      const events = (await text).split('\n\n').filter(Boolean);
      const error = events.find((e) => e.startsWith('event: error'));
      expect(error).toBeDefined();
      const payload = JSON.parse(error!.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
      expect(payload).toMatchObject({ type: 'urn:sextant:problem:unauthenticated', status: 401, code: 'unauthenticated', detail: expect.stringMatching(/revoked/), request_id: 'sse-contract' });
      expect(events.some((e) => e.startsWith('event: done'))).toBe(false);
    } finally {
      hold.release();
      hold.restore();
    }
  });

  it('socket.io: search:error carries code, status and detail like REST', async () => {
    const socket: Socket = io(t.url!, { auth: { token: reader }, transports: ['websocket'], reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      const error = new Promise<Record<string, unknown>>((resolve) => socket.on('search:error', resolve));
      socket.emit('search:start', { request_id: 'sock-1', query: 'x', options: { top_k: 0 } });
      expect(await error).toMatchObject({ request_id: 'sock-1', type: 'urn:sextant:problem:validation_failed', status: 400, code: 'validation_failed', detail: expect.stringMatching(/top_k/) });
    } finally {
      socket.close();
    }
  });

  it('/mcp: refusals before JSON-RPC (401, 403, 415) are problem+json; a malformed body stays JSON-RPC -32700', async () => {
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expectProblem(await http().post('/mcp').set(MCP_HEADERS).send(rpc), 401, 'unauthenticated');
    expectProblem(await http().post('/mcp').set(MCP_HEADERS).set(bearer(reader)).set('Origin', 'https://evil.example').send(rpc), 403, 'forbidden', /SEXTANT_MCP_ALLOWED_ORIGINS/);
    expectProblem(await http().post('/mcp').set({ ...MCP_HEADERS, 'content-type': 'text/plain' }).set(bearer(reader)).send(JSON.stringify(rpc)), 415, 'unsupported_media_type');
    const malformed = await http().post('/mcp').set(MCP_HEADERS).set(bearer(reader)).send('{"jsonrpc": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const ok = await http().post('/mcp').set(MCP_HEADERS).set(bearer(reader)).send(rpc);
    expect(ok.status).toBe(200);
    expect(ok.body.result.tools.length).toBeGreaterThan(0);
  });
});

describe('API contract: 429 and 503 problems', () => {
  it('429 rate_limited on REST and on /mcp, with Retry-After', async () => {
    const t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, SEXTANT_RATE_LIMIT: '2', SEXTANT_RATE_WINDOW_S: '60' } });
    try {
      const { key } = await createKey(t, 'default', 'reader', 'limited');
      const http = () => request(t.app.getHttpServer());
      await http().get('/v1/repos').set(bearer(key)).expect(200);
      await http().get('/v1/repos').set(bearer(key)).expect(200);
      const rest = await http().get('/v1/repos').set(bearer(key));
      expectProblem(rest, 429, 'rate_limited', /Rate limit exceeded/);
      expect(Number(rest.headers['retry-after'])).toBeGreaterThan(0);
      expectProblem(await http().post('/mcp').set(MCP_HEADERS).set(bearer(key)).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), 429, 'rate_limited');
    } finally {
      await t.close();
    }
  });

  it('503 database_unavailable with Retry-After while SQLite is locked by another writer', async () => {
    const t = await startTestApp({ env: { DATABASE_URL: '' } });
    const lock = new Database(path.join(t.dataDir, 'sextant.sqlite'));
    try {
      lock.exec('BEGIN EXCLUSIVE');
      const res = await request(t.app.getHttpServer()).post('/v1/tasks').send({ tasks: [{ id: 'T-503', title: 'locked out' }] });
      expectProblem(res, 503, 'database_unavailable', /retry/);
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
      await t.close();
    }
  }, 30_000);
});
