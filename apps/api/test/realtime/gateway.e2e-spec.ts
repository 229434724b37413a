import { EventEmitter2 } from '@nestjs/event-emitter';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { SearchDoneEventSchema } from '@sextant/contracts';
import { AuthService } from '../../src/modules/auth/auth.service';
import { IndexEvents } from '../../src/modules/indexing/services/indexing.tokens';
import { createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { holdSource } from '../helpers/hold-source';
import { waitFor } from '../helpers/wait';

function connect(url: string, token?: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], auth: token ? { token } : {}, reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

/** Records every event a socket receives, with arrival time. */
function record(socket: Socket): Array<{ event: string; at: number; payload: any }> {
  const seen: Array<{ event: string; at: number; payload: any }> = [];
  socket.onAny((event, payload) => seen.push({ event, at: performance.now(), payload }));
  return seen;
}

describe('realtime gateway (socket.io clients against the running app)', () => {
  let t: TestApp;
  let keyA: string;
  let keyB: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV, listen: true });
    keyA = (await createKey(t, 'team-a', 'member')).key;
    keyB = (await createKey(t, 'team-b', 'member')).key;
    const root = makeFixtureRepo(SAMPLE_PROJECT);
    const reg = await request(t.app.getHttpServer()).post('/v1/repos').set('Authorization', `Bearer ${(await createKey(t, 'team-a', 'admin', 'adm')).key}`).send({ path: root }).expect(201);
    await waitFor(async () => (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`).set('Authorization', `Bearer ${keyA}`)).body.status === 'succeeded', { what: 'index' });
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(() => t.close());

  it('refuses a handshake without a valid key (checked before the connection is accepted)', async () => {
    await expect(connect(t.url!)).rejects.toThrow(/API key is required/);
    await expect(connect(t.url!, `sxt_0123abcd_${'a'.repeat(40)}`)).rejects.toThrow(/Invalid API key/);
    await expect(connect(t.url!, 'not-a-key')).rejects.toThrow(/Malformed API key/);
  });

  it('streams partials as sources answer, the first before the slowest source finishes, then done', async () => {
    const slow = holdSource(t, 'task.dense');
    try {
      const socket = await connect(t.url!, keyA);
      sockets.push(socket);
      const seen = record(socket);
      // A generous per-source timeout: the held source must answer late, not be dropped.
      socket.emit('search:start', { request_id: 'r1', query: 'SessionStore refresh', options: { top_k: 5, timeout_ms: 30_000 } });
      // The other four sources stream their partials while task.dense is still held back.
      await waitFor(() => seen.filter((e) => e.event === 'search:partial').length === 4 || undefined, { what: 'four partials' });
      expect(seen.some((e) => e.event === 'search:done')).toBe(false);
      slow.release();
      await waitFor(() => seen.find((e) => e.event === 'search:done'), { what: 'search:done' });
      const partials = seen.filter((e) => e.event === 'search:partial');
      const done = seen.find((e) => e.event === 'search:done')!;
      // file.graph expands the others' hits, so its partial comes after the held source's.
      expect(partials.length).toBe(6);
      expect(partials.every((p) => p.at <= done.at)).toBe(true);
      expect(partials.map((p) => p.payload.source).slice(-2)).toEqual(['task.dense', 'file.graph']);
      expect(partials[0].payload).toMatchObject({ request_id: 'r1', sources_pending: expect.arrayContaining(['task.dense']) });
      expect(partials.at(-1)!.payload.sources_pending).toEqual([]);
      expect(done.payload).toMatchObject({ request_id: 'r1', search_id: expect.any(String) });
      expect(done.payload.results[0].path).toBe('src/auth/session.ts');
    } finally {
      slow.release();
      slow.restore();
    }
  });

  it('search:cancel stops further partials; a new search:start cancels the previous one', async () => {
    const socket = await connect(t.url!, keyA);
    sockets.push(socket);
    const seen = record(socket);
    const partialsOf = (id: string) => seen.filter((e) => e.event === 'search:partial' && e.payload.request_id === id).length;
    // task.dense is held back, so nothing of c1 is in flight once the other four have answered.
    const first = holdSource(t, 'task.dense');
    try {
      socket.emit('search:start', { request_id: 'c1', query: 'Clamp value', options: { timeout_ms: 30_000 } });
      await waitFor(() => partialsOf('c1') === 4 || undefined, { what: 'c1 partials of the four free sources' });
      socket.emit('search:cancel', { request_id: 'c1' });
      await new Promise((r) => setTimeout(r, 200)); // the cancel reaches the server before the held source is let go
      const cancelledAt = performance.now();
      first.release();
      await new Promise((r) => setTimeout(r, 900));
      expect(seen.filter((e) => e.payload?.request_id === 'c1' && e.at > cancelledAt)).toEqual([]);
      expect(seen.some((e) => e.event === 'search:done' && e.payload.request_id === 'c1')).toBe(false);
    } finally {
      first.release();
      first.restore();
    }

    const second = holdSource(t, 'task.dense');
    try {
      socket.emit('search:start', { request_id: 'n1', query: 'Clamp value', options: { timeout_ms: 30_000 } });
      await waitFor(() => partialsOf('n1') > 0 || undefined, { what: 'n1 partial' });
      socket.emit('search:start', { request_id: 'n2', query: 'token cache', options: { timeout_ms: 30_000 } });
      // n2 has started (so n1 is cancelled) before n1's held source may answer.
      await waitFor(() => partialsOf('n2') > 0 || undefined, { what: 'n2 partial' });
      second.release();
      await waitFor(() => seen.some((e) => e.event === 'search:done' && e.payload.request_id === 'n2'), { what: 'n2 done' });
      await new Promise((r) => setTimeout(r, 700));
      expect(seen.some((e) => e.event === 'search:done' && e.payload.request_id === 'n1')).toBe(false);
    } finally {
      second.release();
      second.restore();
    }
  });

  it('search:cancel sent right after search:start stops it before any partial, and is acknowledged', async () => {
    const socket = await connect(t.url!, keyA);
    sockets.push(socket);
    const seen = record(socket);
    for (let i = 0; i < 5; i++) {
      const id = `quick-${i}`;
      socket.emit('search:start', { request_id: id, query: 'Clamp value token cache', options: { timeout_ms: 30_000 } });
      const ack = await socket.timeout(5000).emitWithAck('search:cancel', { request_id: id });
      expect(ack).toEqual({ request_id: id, cancelled: true });
    }
    expect(await socket.timeout(5000).emitWithAck('search:cancel', { request_id: 'never-started' })).toEqual({ request_id: 'never-started', cancelled: false });
    await new Promise((r) => setTimeout(r, 800));
    expect(seen.filter((e) => String(e.payload?.request_id ?? '').startsWith('quick-')).map((e) => e.event)).toEqual([]);
    // The socket still searches afterwards.
    socket.emit('search:start', { request_id: 'after', query: 'Clamp' });
    await waitFor(() => seen.some((e) => e.event === 'search:done' && e.payload.request_id === 'after'), { what: 'done after cancels' });
  });

  it('search:done says when the results are only a weak match, and why', async () => {
    const socket = await connect(t.url!, keyA);
    sockets.push(socket);
    const seen = record(socket);
    // One search at a time: a new search:start cancels the running one.
    socket.emit('search:start', { request_id: 'real', query: 'Clamp value', options: { timeout_ms: 30_000 } });
    await waitFor(() => seen.some((e) => e.event === 'search:done' && e.payload.request_id === 'real'), { what: 'real done' });
    socket.emit('search:start', { request_id: 'nonsense', query: 'zzqqxxnonexistentterm', options: { timeout_ms: 30_000 } });
    await waitFor(() => seen.some((e) => e.event === 'search:done' && e.payload.request_id === 'nonsense'), { what: 'nonsense done' });
    const done = (id: string) => SearchDoneEventSchema.parse(seen.find((e) => e.event === 'search:done' && e.payload.request_id === id)!.payload);
    expect(done('nonsense')).toMatchObject({ match: 'weak', match_reason: 'embedding_only' });
    expect(done('real').match).toBe('strong');
    expect(done('real').match_reason).toBeUndefined();
  });

  it('malformed payloads get search:error with a reason, and the socket keeps working', async () => {
    const socket = await connect(t.url!, keyA);
    sockets.push(socket);
    const seen = record(socket);
    socket.emit('search:start', { request_id: 'bad1' });
    socket.emit('search:start', 'not an object');
    socket.emit('search:start', { request_id: 'bad2', query: 'x', options: { top_k: 999 } });
    await waitFor(() => seen.filter((e) => e.event === 'search:error').length === 3, { what: 'three errors' });
    const errors = seen.filter((e) => e.event === 'search:error').map((e) => e.payload);
    expect(errors[0]).toMatchObject({ request_id: 'bad1', code: 'validation_failed', status: 400, detail: expect.stringMatching(/query/) });
    expect(errors[1]).toMatchObject({ request_id: null, code: 'validation_failed' });
    expect(errors[2].message).toMatch(/top_k/);
    socket.emit('search:start', { request_id: 'ok', query: 'Clamp' });
    await waitFor(() => seen.some((e) => e.event === 'search:done'), { what: 'done after errors' });
  });

  it('two workspaces never receive each other’s events; presence lists who is connected', async () => {
    const a = await connect(t.url!, keyA);
    const b = await connect(t.url!, keyB);
    sockets.push(a, b);
    const seenA = record(a);
    const seenB = record(b);
    const events = t.app.get(EventEmitter2);
    const wsA = (await request(t.app.getHttpServer()).get('/v1/repos').set('Authorization', `Bearer ${keyA}`)).body.repositories[0];
    expect(wsA).toBeDefined();
    const job = { id: 'j', repository_id: wsA.id, kind: 'full', status: 'succeeded', phase: 'done', counts: {}, errors: [], rate: 1, eta_s: 0, error: null, created_at: '', started_at: null, finished_at: null, resumed: false };
    const aCtx = await t.app.get(AuthService).authenticate(keyA, { ip: '127.0.0.1' });
    events.emit(IndexEvents.Done, { workspace_id: aCtx.workspaceId, repository_id: wsA.id, job });
    events.emit(IndexEvents.Progress, { workspace_id: aCtx.workspaceId, repository_id: wsA.id, job });
    await waitFor(() => seenA.some((e) => e.event === 'index:done'), { what: 'index:done in A' });
    await new Promise((r) => setTimeout(r, 200));
    expect(seenB.some((e) => e.event.startsWith('index:'))).toBe(false);
    // A teammate joins workspace A: A's members see it, B does not.
    const a2 = await connect(t.url!, keyA);
    sockets.push(a2);
    const presence = await waitFor(() => seenA.filter((e) => e.event === 'presence').at(-1)?.payload, { what: 'presence in A' });
    expect(presence).toEqual({ workspace_id: aCtx.workspaceId, members: [{ principal: aCtx.principal, name: aCtx.name, connections: 2 }] });
    expect(seenB.some((e) => e.event === 'presence' && e.payload.workspace_id === aCtx.workspaceId)).toBe(false);
  });
});
