import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { io } from 'socket.io-client';
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { bearer, createKey, KEYS_REQUIRED_ENV } from './auth-helpers';

const LIMIT = 5;
const LIMITED_ENV = { ...KEYS_REQUIRED_ENV, SEXTANT_RATE_LIMIT: String(LIMIT), SEXTANT_RATE_WINDOW_S: '60' };

describe('rate limits (in memory)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIMITED_ENV });
  });
  afterAll(() => t.close());

  it('answers the N+1-th request of a key in the window with 429 and Retry-After, counting across routes', async () => {
    const http = request(t.app.getHttpServer());
    const { key } = await createKey(t, 'default', 'admin', 'busy');
    const routes = ['/v1/repos', '/v1/jobs', '/v1/auth/me', '/v1/keys', '/v1/workspaces'];
    for (let i = 0; i < LIMIT; i++) await http.get(routes[i % routes.length]).set(bearer(key)).expect(200);
    const limited = await http.get('/v1/repos').set(bearer(key)).expect(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.detail).toMatch(/Rate limit/);
    expect(limited.body.stack).toBeUndefined();
  });

  it('counts each key separately, so one busy key does not block another', async () => {
    const http = request(t.app.getHttpServer());
    const a = await createKey(t, 'default', 'reader', 'a');
    const b = await createKey(t, 'default', 'reader', 'b');
    for (let i = 0; i < LIMIT; i++) await http.get('/v1/repos').set(bearer(a.key)).expect(200);
    await http.get('/v1/repos').set(bearer(a.key)).expect(429);
    await http.get('/v1/repos').set(bearer(b.key)).expect(200);
  });

  it('counts failed authentication per client IP, so keys cannot be guessed quickly', async () => {
    const http = request(t.app.getHttpServer());
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await http.get('/v1/repos').set(bearer(`sxt_0badc0de_${String(i).padStart(40, 'A')}`))).status);
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  });

  it('counts every call of an MCP JSON-RPC batch, so batching cannot multiply the budget', async () => {
    const http = request(t.app.getHttpServer());
    const { key } = await createKey(t, 'default', 'reader', 'batcher');
    const batch = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: from + i, method: 'tools/list', params: {} }));
    const post = (body: unknown) => http.post('/mcp').set(bearer(key)).set('Accept', 'application/json, text/event-stream').set('Content-Type', 'application/json').send(JSON.stringify(body));
    const first = await post(batch(3, 1));
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(3);
    const second = await post(batch(3, 10)); // 3 + 3 calls > 5
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect(second.body).toMatchObject({ code: 'rate_limited', detail: expect.stringMatching(/Rate limit exceeded.*batch counts each/) });
    await http.get('/v1/repos').set(bearer(key)).expect(429); // one budget with REST
    const fresh = await createKey(t, 'default', 'reader', 'big-batch');
    const big = await http.post('/mcp').set(bearer(fresh.key)).set('Accept', 'application/json, text/event-stream').set('Content-Type', 'application/json').send(JSON.stringify(batch(100, 1)));
    expect(big.status).toBe(429);
  });

  it('does not limit health checks and metrics', async () => {
    const http = request(t.app.getHttpServer());
    for (let i = 0; i < LIMIT * 2; i++) await http.get('/health').expect(200);
  });
});

describe('rate limits on socket messages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIMITED_ENV, listen: true });
  });
  afterAll(() => t.close());

  it('shares one budget per key with REST: over it, search:start and feedback:rate get rate_limited errors', async () => {
    const http = request(t.app.getHttpServer());
    const { key } = await createKey(t, 'default', 'member', 'chatty');
    const other = await createKey(t, 'default', 'member', 'quiet');
    for (let i = 0; i < LIMIT - 2; i++) await http.get('/v1/repos').set(bearer(key)).expect(200);
    const socket = io(t.url!, { transports: ['websocket'], auth: { token: key }, reconnection: false, forceNew: true });
    const quiet = io(t.url!, { transports: ['websocket'], auth: { token: other.key }, reconnection: false, forceNew: true });
    try {
      await Promise.all([socket, quiet].map((s) => new Promise<void>((resolve, reject) => s.once('connect', () => resolve()).once('connect_error', reject))));
      const outcome = (s: typeof socket, requestId: string) =>
        new Promise<{ event: string; payload: { error?: string; message?: string } }>((resolve) => {
          s.on('search:done', (p) => p.request_id === requestId && resolve({ event: 'done', payload: p }));
          s.on('search:error', (p) => p.request_id === requestId && resolve({ event: 'error', payload: p }));
          s.emit('search:start', { request_id: requestId, query: 'token' });
        });
      expect((await outcome(socket, 'r1')).event).toBe('done'); // LIMIT - 1
      expect((await outcome(socket, 'r2')).event).toBe('done'); // LIMIT
      const refused = await outcome(socket, 'r3');
      expect(refused).toMatchObject({ event: 'error', payload: { error: 'rate_limited', message: expect.stringMatching(/Rate limit exceeded.*retry after \d+ s/) } });
      const rating = await socket.emitWithAck('feedback:rate', { search_id: '00000000-0000-4000-8000-000000000000', item_id: 'x', rating: 1 });
      expect(rating).toMatchObject({ error: 'rate_limited' });
      await http.get('/v1/repos').set(bearer(key)).expect(429); // the same budget
      expect((await outcome(quiet, 'q1')).event).toBe('done'); // another key is not affected
    } finally {
      socket.close();
      quiet.close();
    }
  });
});

describe('rate limits shared through Redis', () => {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) console.warn('[skip] Redis rate-limit tests: REDIS_URL is not set (CI sets REDIS_URL=redis://127.0.0.1:6379)');
  const withRedis = redisUrl ? it : it.skip;

  withRedis('two app instances share one count per key', async () => {
    // Both instances use one database (the key must be valid in both) and one Redis.
    const first = await startTestApp({ env: { ...LIMITED_ENV, REDIS_URL: redisUrl! } });
    const shared: Record<string, string> = first.config.storage.databaseUrl ? { DATABASE_URL: first.config.storage.databaseUrl } : { SEXTANT_DATA_DIR: first.dataDir };
    const second = await startTestApp({ env: { ...LIMITED_ENV, REDIS_URL: redisUrl!, ...shared } });
    try {
      const { key } = await createKey(first, 'default', 'reader', 'shared');
      const apps = [request(first.app.getHttpServer()), request(second.app.getHttpServer())];
      for (let i = 0; i < LIMIT; i++) await apps[i % 2].get('/v1/repos').set(bearer(key)).expect(200);
      const res = await apps[LIMIT % 2].get('/v1/repos').set(bearer(key));
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      await apps[(LIMIT + 1) % 2].get('/v1/repos').set(bearer(key)).expect(429);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('SEXTANT_RATE_LIMIT=0', () => {
  it('turns rate limiting off', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-nolimit-'));
    const t = await startTestApp({ env: { SEXTANT_RATE_LIMIT: '0', SEXTANT_DATA_DIR: dataDir } });
    try {
      const http = request(t.app.getHttpServer());
      for (let i = 0; i < 20; i++) await http.get('/v1/repos').expect(200);
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
