import * as net from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { createFreshPostgresDatabase } from '../helpers/test-database';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

const POSTGRES = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A TCP proxy in front of Postgres that can be cut (every connection dropped, new ones refused) and restored. */
async function postgresProxy(target: URL): Promise<{ port: number; cut: () => Promise<void>; restore: () => Promise<void>; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const [host, targetPort] = [target.hostname, Number(target.port || 5432)];
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}

async function postgresReachable(): Promise<boolean> {
  const c = new Client({ connectionString: POSTGRES, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Postgres goes away under a running server (a proxy in front of it is cut): requests that
 * need the database answer 503 with Retry-After and a clear code, never 500, `/health` says so,
 * and everything answers again by itself once the database is back.
 */
describe('database outage (Postgres behind a TCP proxy)', () => {
  let t: TestApp | undefined;
  let proxy: Awaited<ReturnType<typeof postgresProxy>> | undefined;
  let drop: (() => Promise<void>) | undefined;
  let available = true;

  beforeAll(async () => {
    available = await postgresReachable();
    if (!available) return void console.warn(`[skip] database outage test: no Postgres at ${POSTGRES}`);
    const db = await createFreshPostgresDatabase(POSTGRES);
    drop = db.drop;
    const url = new URL(db.url);
    proxy = await postgresProxy(url);
    url.host = `127.0.0.1:${proxy.port}`;
    t = await startTestApp({ env: { DATABASE_URL: url.toString() } });
    const root = makeFixtureRepo(SAMPLE_PROJECT, { git: true });
    const reg = await request(t.app.getHttpServer()).post('/v1/repos').send({ path: root }).expect(201);
    await waitFor(async () => (await request(t!.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index' });
    await request(t.app.getHttpServer()).post('/v1/tasks').send({ tasks: [{ id: 'T-1', title: 'Session refresh races expiry', files: ['src/auth/session.ts'] }] }).expect(201);
  }, 120_000);

  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await t?.close();
    await proxy?.close();
    await drop?.();
  });

  it('answers 503 + Retry-After (never 500) while the database is down, and recovers by itself', async () => {
    if (!available) return;
    const api = () => request(t!.app.getHttpServer());
    await api().post('/v1/search').send({ query: 'SessionStore refresh', top_k: 5 }).expect(200);

    await proxy!.cut();
    const statuses: Record<string, number[]> = {};
    const note = (what: string, status: number) => (statuses[what] ??= []).push(status);
    for (let i = 0; i < 5; i++) {
      const search = await api().post('/v1/search').send({ query: `session refresh ${i}`, top_k: 5 });
      note('search', search.status);
      if (search.status === 503) {
        expect(search.headers['retry-after']).toBe('5');
        expect(search.body).toMatchObject({ code: 'database_unavailable', detail: expect.stringMatching(/database is not reachable/) });
      }
      note('repos', (await api().get('/v1/repos')).status);
      note('tasks', (await api().get('/v1/tasks')).status);
      note('jobs', (await api().get('/v1/jobs')).status);
    }
    const health = await api().get('/health');
    console.log(JSON.stringify({ outage: statuses, health: { status: health.status, body: health.body?.status } }));
    for (const [what, codes] of Object.entries(statuses)) {
      expect({ what, codes: codes.filter((c) => c >= 500 && c !== 503) }).toEqual({ what, codes: [] });
    }
    for (const what of ['repos', 'tasks', 'jobs']) expect(statuses[what]).toContain(503);
    expect(health.status).toBe(503);

    await proxy!.restore();
    const restoredAt = Date.now();
    await waitFor(async () => (await api().get('/v1/repos')).status === 200, { what: 'lists to answer again', timeoutMs: 30_000 });
    await waitFor(async () => (await api().post('/v1/search').send({ query: 'SessionStore refresh', top_k: 5 })).status === 200, { what: 'search to answer again', timeoutMs: 30_000 });
    console.log(JSON.stringify({ recovery_ms: Date.now() - restoredAt }));
    expect((await api().get('/health')).status).toBe(200);
  }, 120_000);

  it('an index job that loses the database resumes by itself when it returns, and ends with what a clean run indexes', async () => {
    if (!available) return;
    const api = () => request(t!.app.getHttpServer());
    const files = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`pkg_${i % 30}/module_${i}.py`, `def handler_${i}(value):\n    \"\"\"Handle case ${i}.\"\"\"\n    return value * ${i}\n\n\nclass Worker${i}:\n    def run(self):\n        return handler_${i}(${i})\n`]));
    const victim = makeFixtureRepo(files, { git: true, prefix: 'sextant-outage-a-' });
    const clean = makeFixtureRepo(files, { git: true, prefix: 'sextant-outage-b-' });

    const reg = await api().post('/v1/repos').send({ path: victim }).expect(201);
    const jobId: string = reg.body.job.id;
    await waitFor(async () => ((await api().get(`/v1/jobs/${jobId}`)).body.counts?.processed ?? 0) >= 100, { what: 'the job to be under way', timeoutMs: 60_000 });
    await proxy!.cut();
    await new Promise((r) => setTimeout(r, 3000));
    await proxy!.restore();
    const restoredAt = Date.now();
    await waitFor(async () => (await api().get(`/v1/jobs/${jobId}`)).body.status === 'succeeded', { what: 'the job to resume and finish by itself', timeoutMs: 120_000 });
    const resumeToDoneMs = Date.now() - restoredAt;

    const cleanReg = await api().post('/v1/repos').send({ path: clean }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${cleanReg.body.job.id}`)).body.status === 'succeeded', { what: 'the clean run', timeoutMs: 120_000 });
    const [a, b] = [(await api().get(`/v1/repos/${reg.body.id}`)).body, (await api().get(`/v1/repos/${cleanReg.body.id}`)).body];
    console.log(JSON.stringify({ resume_to_done_ms: resumeToDoneMs, chunks_after_outage: a.chunks.total, chunks_clean: b.chunks.total, files: a.files.total }));
    expect(a.files.total).toBe(b.files.total);
    expect(a.chunks.total).toBe(b.chunks.total);
    expect(a.files.by_state).toEqual(b.files.by_state);
  }, 300_000);
});
