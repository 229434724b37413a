import { EventEmitter2 } from '@nestjs/event-emitter';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { AuthService } from '../../src/modules/auth/auth.service';
import { IndexEvents } from '../../src/modules/indexing/services/indexing.tokens';
import { createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/** Parses a text/event-stream body into events. */
function parseSse(body: string): Array<{ event: string; data: any }> {
  return body
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return { event, data: data ? JSON.parse(data) : null };
    });
}

describe('SSE search stream', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    const root = makeFixtureRepo(SAMPLE_PROJECT);
    const reg = await request(t.app.getHttpServer()).post('/v1/repos').send({ path: root }).expect(201);
    await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index' });
  });
  afterAll(() => t.close());

  it('emits one partial per source, then done, and closes', async () => {
    const res = await request(t.app.getHttpServer()).get('/v1/search/stream').query({ q: 'where is validate_token', top_k: 3 }).buffer(true).parse((r, cb) => {
      let text = '';
      r.on('data', (d: Buffer) => (text += d.toString()));
      r.on('end', () => cb(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    const events = parseSse(res.body as string);
    // Five first-stage sources, then file.graph (it expands their hits), then done.
    expect(events.map((e) => e.event)).toEqual(['partial', 'partial', 'partial', 'partial', 'partial', 'partial', 'done']);
    expect(events[5].data.source).toBe('file.graph');
    expect(events[5].data.sources_pending).toEqual([]);
    expect(events[6].data.results[0].path).toBe('src/auth/token.py');
  });

  it('rejects a bad query with 400 before streaming', async () => {
    await request(t.app.getHttpServer()).get('/v1/search/stream').query({ q: '' }).expect(400);
    await request(t.app.getHttpServer()).get('/v1/search/stream').query({ q: 'x', top_k: 500 }).expect(400);
    await request(t.app.getHttpServer()).get('/v1/search/stream').query({ q: 'x', include: `**/${'*?'.repeat(20)}Z` }).expect(400);
    await request(t.app.getHttpServer()).get('/v1/search/stream').query({ q: 'x', repos: 'no-such-repo' }).expect((res) => expect(res.text).toMatch(/No repository named no-such-repo/));
  });

  it('takes the filters and repository scope of POST /v1/search (globs repeated, lists comma-separated)', async () => {
    const stream = async (query: string) => {
      const res = await request(t.app.getHttpServer()).get(`/v1/search/stream?${query}`).buffer(true).parse((r, cb) => {
        let text = '';
        r.on('data', (d: Buffer) => (text += d.toString()));
        r.on('end', () => cb(null, text));
      });
      expect(res.status).toBe(200);
      const done = parseSse(res.body as string).find((e) => e.event === 'done')!;
      return (done.data.results as Array<{ path: string }>).map((r) => r.path);
    };
    const all = await stream(`q=${encodeURIComponent('session token refresh')}&top_k=10`);
    expect(all.some((p) => p.endsWith('.py'))).toBe(true);
    expect(all.some((p) => p.endsWith('.ts'))).toBe(true);
    const onlyTs = await stream(`q=${encodeURIComponent('session token refresh')}&top_k=10&include=${encodeURIComponent('src/**/*.{ts,tsx}')}&include=${encodeURIComponent('lib/**')}`);
    expect(onlyTs.length).toBeGreaterThan(0);
    for (const p of onlyTs) expect(p).toMatch(/^src\/.*\.tsx?$|^lib\//);
    const noPython = await stream(`q=${encodeURIComponent('session token refresh')}&top_k=10&langs=typescript,javascript`);
    for (const p of noPython) expect(p).not.toMatch(/\.py$/);
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('[skip] Redis adapter test: REDIS_URL is not set (CI sets it)');
(redisUrl ? describe : describe.skip)('two API processes sharing rooms through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let client: Socket | undefined;
  beforeAll(async () => {
    a = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, REDIS_URL: redisUrl! }, listen: true });
    // Instance B shares A's database (same data dir) the way two replicas share Postgres.
    b = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, REDIS_URL: redisUrl!, SEXTANT_DATA_DIR: a.dataDir, ...(a.config.storage.databaseUrl ? { DATABASE_URL: a.config.storage.databaseUrl } : {}) }, listen: true });
  });
  afterAll(async () => {
    client?.disconnect();
    await b.close();
    await a.close();
  });

  it('a client connected to instance A receives index:progress emitted on instance B', async () => {
    const key = (await createKey(a, 'shared', 'reader')).key;
    const ctx = await a.app.get(AuthService).authenticate(key, { ip: '127.0.0.1' });
    client = io(a.url!, { transports: ['websocket'], auth: { token: key }, reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      client!.once('connect', () => resolve());
      client!.once('connect_error', reject);
    });
    const received: unknown[] = [];
    client.on('index:progress', (e) => received.push(e));
    const job = { id: 'cross-process', repository_id: 'r', kind: 'full', status: 'running', phase: 'parse', counts: {}, errors: [], rate: 0, eta_s: null, error: null, created_at: '', started_at: null, finished_at: null, resumed: false };
    // Emit repeatedly until delivered: the adapter's subscription may take a moment after connect.
    await waitFor(
      () => {
        b.app.get(EventEmitter2).emit(IndexEvents.Progress, { workspace_id: ctx.workspaceId, repository_id: 'r', job });
        return received.length > 0;
      },
      { what: 'cross-instance delivery', intervalMs: 200, timeoutMs: 10000 },
    );
    expect(received[0]).toMatchObject({ workspace_id: ctx.workspaceId, job: { id: 'cross-process' } });
  });
});
