import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { callTool, connectClient, SHOP, SHOP_TASKS, textOf } from '../mcp/mcp-fixture';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/** Over the wildcard limit: refused at every edge before any matching. */
const TOO_MANY_WILDCARDS = `**/${'*?'.repeat(20)}Z`;
/** Within the limits, but it makes backtracking matchers (picomatch) take seconds per path. */
const BACKTRACKING = `**/${'*?'.repeat(7)}Z`;

/**
 * Globs sent as filters reach every source (dense, keyword, symbol, task). A pathological one
 * is refused with a reason at the edge; one that is legal but would make a regex matcher
 * backtrack runs on the linear matcher and does not hold up other requests.
 */
describe('hostile glob filters (REST, socket.io, MCP)', () => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    // Long paths make backtracking matchers suffer the most.
    const deep = `src/${'very_long_directory_name_'.repeat(4)}/${'nested_'.repeat(6)}`;
    const root = makeFixtureRepo({ ...SHOP, [`${deep}/session_helpers.ts`]: 'export function refreshSessionHelper() { return 1; }\n' }, { git: true, prefix: 'sextant-globs-' });
    const reg = await api().post('/v1/repos').send({ path: root }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index' });
    await api().post('/v1/tasks').send({ tasks: SHOP_TASKS }).expect(201);
  });
  afterAll(() => t.close());

  it('REST: a glob over the limits is a 400 naming the problem', async () => {
    const res = await api()
      .post('/v1/search')
      .send({ query: 'session refresh', filters: { include: [TOO_MANY_WILDCARDS] } })
      .expect(400);
    expect(res.body.detail).toMatch(/filters\.include\.0.*wildcards \(max 16\)/);
    for (const glob of ['{1..100000}', '+(a|b)*', '{a,b,c,d}/{a,b,c,d}/{a,b,c,d}/{a,b}', 'x'.repeat(300)]) {
      await api().post('/v1/search').send({ query: 'session', filters: { exclude: [glob] } }).expect(400);
    }
  });

  it('REST: a legal glob that backtracks in regex matchers answers at once and does not stall other requests', async () => {
    const started = Date.now();
    const [search, health] = await Promise.all([
      api()
        .post('/v1/search')
        .send({ query: 'refresh session token', filters: { include: [BACKTRACKING, '**/*.ts'], exclude: [BACKTRACKING] }, timeout_ms: 30_000 }),
      new Promise((r) => setTimeout(r, 20)).then(() => api().get('/health')),
    ]);
    expect(search.status).toBe(200);
    expect(health.status).toBe(200);
    expect(search.body.results.length).toBeGreaterThan(0);
    for (const r of search.body.results) expect(r.path).toMatch(/\.ts$/);
    // Every source ran (none failed on the filter); the task and symbol sources apply it too.
    expect(search.body.limits.filter((l: string) => /failed|timed out/.test(l))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('socket.io: search:start with a bad glob gets search:error invalid_request', async () => {
    const socket: Socket = io(t.url!, { transports: ['websocket'], reconnection: false });
    try {
      const error = new Promise<{ request_id: string; error: string; message: string }>((resolve) => socket.on('search:error', resolve));
      socket.emit('search:start', { request_id: 'g1', query: 'session', options: { filters: { include: [TOO_MANY_WILDCARDS] } } });
      expect(await error).toMatchObject({ request_id: 'g1', code: 'validation_failed', detail: expect.stringMatching(/wildcards/) });
    } finally {
      socket.close();
    }
  });

  it('MCP: the search tool refuses a bad glob with a tool error the agent can act on', async () => {
    const client = await connectClient(t.url!);
    try {
      const res = await callTool(client, 'search', { query: 'session refresh', filters: { include: [TOO_MANY_WILDCARDS] } });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(/wildcards/);
      const ok = await callTool(client, 'search', { query: 'session refresh', filters: { include: [BACKTRACKING, 'src/**'] } });
      expect(ok.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
