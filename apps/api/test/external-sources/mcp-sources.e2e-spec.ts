import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { MASKED_SECRET, McpSearchOutputSchema, SearchResponseSchema, type ExternalResult, type SearchResponse } from '@sextant/contracts';
import { createKey, ensureWorkspace, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { callTool, connectClient, textOf } from '../mcp/mcp-fixture';
import { McpSourcesRepository } from '../../src/modules/external-sources/mcp-sources.repository';
import { SourceSecrets } from '../../src/modules/external-sources/source-secrets';
import { startHttpStub, STDIO_STUB, type HttpStub, type StubFile } from './stub-servers';

/** A token the redactor knows (GitHub classic PAT shape); it must never come back in a search. */
const LEAKED_TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const SERVER_SECRET = 'this-server-secret-must-not-reach-children';

const DOCS: StubFile[] = [
  { repo: 'other/lib', path: 'docs/session-guide.md', content: 'How session refresh works in the other library: call refreshSession before expiry.' },
  { repo: 'other/lib', path: 'docs/colours.md', content: 'Colour palette of the session-less widgets.' },
];

function connect(url: string, token: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('external MCP sources (real MCP servers over stdio and Streamable HTTP)', () => {
  let t: TestApp;
  let adminA: string;
  let memberA: string;
  let adminB: string;
  const stubs: HttpStub[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-mcp-src-'));
  const server = () => t.app.getHttpServer();
  const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
  const stub = async (...args: Parameters<typeof startHttpStub>) => {
    const s = await startHttpStub(...args);
    stubs.push(s);
    return s;
  };
  const addSource = async (key: string, body: Record<string, unknown>) => (await request(server()).post('/v1/sources/mcp').set(auth(key)).send(body).expect(201)).body;
  const search = async (key: string, body: Record<string, unknown>): Promise<{ res: SearchResponse; ms: number }> => {
    const started = performance.now();
    const res = await request(server()).post('/v1/search').set(auth(key)).send(body).expect(200);
    return { res: SearchResponseSchema.parse(res.body), ms: performance.now() - started };
  };

  beforeAll(async () => {
    process.env.SEXTANT_PROBE_SECRET = SERVER_SECRET;
    // PATH is part of the server's environment (stdio servers get it to find their command); the probe secret must not pass.
    t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, PATH: process.env.PATH!, SEXTANT_PROBE_SECRET: SERVER_SECRET, SEXTANT_CLONE_ALLOWED_HOSTS: '127.0.0.1', SEXTANT_MCP_MAX_MERGED_RESULTS: '6' }, listen: true });
    adminA = (await createKey(t, 'team-a', 'admin')).key;
    memberA = (await createKey(t, 'team-a', 'member')).key;
    adminB = (await createKey(t, 'team-b', 'admin')).key;
    const reg = await request(server()).post('/v1/repos').set(auth(adminA)).send({ path: makeFixtureRepo(SAMPLE_PROJECT), name: 'shop' }).expect(201);
    await waitFor(async () => (await request(server()).get(`/v1/jobs/${reg.body.job.id}`).set(auth(adminA))).body.status === 'succeeded', { what: 'index' });
  });
  afterAll(async () => {
    delete process.env.SEXTANT_PROBE_SECRET;
    await t.close();
    await Promise.all(stubs.map((s) => s.close()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('admins manage sources per workspace; secrets are masked, members are refused, other workspaces see nothing', async () => {
    const created = await addSource(adminA, { name: 'gh-cfg', transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer server-own-token' } } });
    expect(created).toMatchObject({ name: 'gh-cfg', source: 'mcp.gh-cfg', enabled: true, priority: 2, result_limit: 5, timeout_ms: 15000, transport: { headers: { Authorization: MASKED_SECRET } } });
    const stdio = await addSource(adminA, { name: 'gh-cfg-stdio', enabled: false, transport: { type: 'stdio', command: process.execPath, args: [STDIO_STUB], env: { GITHUB_TOKEN: 'secret-configured-token' } } });
    expect(stdio.transport.env).toEqual({ GITHUB_TOKEN: MASKED_SECRET });

    const list = await request(server()).get('/v1/sources/mcp').set(auth(adminA)).expect(200);
    expect(list.body.sources.map((s: { name: string }) => s.name).sort()).toEqual(['gh-cfg', 'gh-cfg-stdio']);
    expect(JSON.stringify(list.body)).not.toMatch(/server-own-token|secret-configured-token/);

    await request(server()).get('/v1/sources/mcp').set(auth(memberA)).expect(403);
    await request(server()).post('/v1/sources/mcp').set(auth(memberA)).send({ name: 'x', transport: { type: 'stdio', command: 'true' } }).expect(403);
    expect((await request(server()).get('/v1/sources/mcp').set(auth(adminB)).expect(200)).body.sources).toEqual([]);
    await request(server()).get(`/v1/sources/mcp/${created.id}`).set(auth(adminB)).expect(404);
    await request(server()).delete(`/v1/sources/mcp/${created.id}`).set(auth(adminB)).expect(404);

    // Bad input is refused with a reason; duplicates conflict; internal URLs fail the clone SSRF rule.
    const bad = await request(server()).post('/v1/sources/mcp').set(auth(adminA)).send({ name: 'Bad Name!', transport: { type: 'http', url: 'ftp://x' } }).expect(400);
    expect(JSON.stringify(bad.body)).toMatch(/name/);
    await request(server()).post('/v1/sources/mcp').set(auth(adminA)).send({ name: 'gh-cfg', transport: { type: 'stdio', command: 'true' } }).expect(409);
    const ssrf = await request(server()).post('/v1/sources/mcp').set(auth(adminA)).send({ name: 'internal', transport: { type: 'http', url: 'http://10.1.2.3/mcp' } }).expect(403);
    expect(ssrf.body.detail ?? ssrf.body.message).toMatch(/internal address/);
    await request(server()).post('/v1/sources/mcp').set(auth(adminA)).send({ name: 'loopback-name', transport: { type: 'http', url: 'http://localhost:9/mcp' } }).expect(403);

    await request(server()).patch(`/v1/sources/mcp/${created.id}`).set(auth(adminA)).send({ priority: 5, enabled: false }).expect(200);
    // Sending back the masked transport (as a settings form would) keeps the stored secret; a new value replaces it.
    await request(server()).patch('/v1/sources/mcp/gh-cfg').set(auth(adminA)).send({ transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: MASKED_SECRET, 'X-New': 'v2' } } }).expect(200);
    const row = (await t.app.get(McpSourcesRepository).find(await ensureWorkspace(t, 'team-a'), 'gh-cfg'))!;
    expect(JSON.parse(t.app.get(SourceSecrets).open(row.transport)).headers).toEqual({ Authorization: 'Bearer server-own-token', 'X-New': 'v2' });
    // Encrypted at rest: the database row holds no token.
    expect(row.transport).toMatch(/^enc:v1:/);
    expect(row.transport).not.toContain('server-own-token');
    await request(server()).delete('/v1/sources/mcp/gh-cfg').set(auth(adminA)).expect(200);
    await request(server()).delete('/v1/sources/mcp/gh-cfg-stdio').set(auth(adminA)).expect(200);
    expect((await request(server()).get('/v1/sources/mcp').set(auth(adminA))).body.sources).toEqual([]);
  });

  it('queries every source in parallel, fuses indexed files, merges the rest by priority, and survives hanging and crashing servers', async () => {
    const gh = await stub({ name: 'gh', delayMs: 300, secret: LEAKED_TOKEN, files: [{ repo: 'acme/shop', path: 'src/auth/session.ts', content: SAMPLE_PROJECT['src/auth/session.ts'] }, DOCS[0]] });
    const slow = await stub({ name: 'slow', delayMs: 2000, files: [{ repo: 'slow/wiki', path: 'session.md', content: 'Slow wiki page about session expiry handling and tokens.' }] });
    const hang = await stub({ name: 'hang', mode: 'hang', files: DOCS });
    await addSource(adminA, { name: 'gh-http', priority: 3, transport: { type: 'http', url: gh.url, headers: { 'X-Api-Key': 'stub-key' } } });
    await addSource(adminA, { name: 'slow-http', transport: { type: 'http', url: slow.url } });
    await addSource(adminA, { name: 'hang-http', timeout_ms: 800, transport: { type: 'http', url: hang.url } });
    await addSource(adminA, {
      name: 'gh-stdio',
      transport: { type: 'stdio', command: process.execPath, args: [STDIO_STUB], env: { STUB_DELAY_MS: '600', GITHUB_TOKEN: 'configured-for-this-server', STUB_FILES: JSON.stringify([{ repo: 'other/tools', path: 'session/refresh.go', content: 'func RefreshSession(s *Session) error { return s.Renew() }' }]) } },
    });
    await addSource(adminA, { name: 'crash-stdio', transport: { type: 'stdio', command: process.execPath, args: [STDIO_STUB], env: { STUB_MODE: 'crash' } } });

    // The first search also starts the stdio servers; time the second (pooled connections).
    await search(memberA, { query: 'session refresh', top_k: 5 });
    const { res, ms } = await search(memberA, { query: 'session refresh', top_k: 5 });

    // Parallel: ≈ the slowest answering source (2 s), far below the sum of delays and timeouts (0.3+2+0.6+0.8 = 3.7 s).
    expect(ms).toBeGreaterThanOrEqual(1950);
    expect(ms).toBeLessThan(3300);
    expect(res.timings_ms['mcp.slow-http']).toBeGreaterThanOrEqual(1950);

    // Degradation: the hanging and the crashing server are dropped and named; the search answers.
    expect(res.limits).toEqual(expect.arrayContaining([expect.stringMatching(/^mcp\.hang-http: timed out after 800 ms/), expect.stringMatching(/^mcp\.crash-stdio: failed: /)]));
    expect(res.results[0].path).toBe('src/auth/session.ts');
    // Operators see each external source's latency by outcome in /metrics.
    const metrics = (await request(server()).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/sextant_search_source_duration_seconds_count\{source="mcp\.hang-http",outcome="timeout"\} [1-9]/);
    expect(metrics).toMatch(/sextant_search_source_duration_seconds_count\{source="mcp\.crash-stdio",outcome="failed"\} [1-9]/);
    expect(metrics).toMatch(/sextant_search_source_duration_seconds_count\{source="mcp\.slow-http",outcome="ok"\} [1-9]/);
    // A hit on an indexed file joins the fused ranking, named in explain.
    expect(res.results[0].explain.sources.map((s) => s.source)).toContain('mcp.gh-http');

    // Everything else is external, in priority order (gh-http is 3, the others 2), seed 002's shape.
    const external = res.external!;
    expect(external.map((e) => e.search_source)).toEqual(['mcp.gh-http', expect.stringMatching(/^mcp\.(slow-http|gh-stdio)$/), expect.stringMatching(/^mcp\.(slow-http|gh-stdio)$/)]);
    expect(external[0]).toMatchObject({ kind: 'external', sourceType: 'mcp', title: 'other/lib/docs/session-guide.md', source: 'https://github.example/other/lib/blob/main/docs/session-guide.md', metadata: { mcp_server: 'gh-http', mcp_tool: 'search_code' } });
    expect(external.map((e) => e.search_source)).toEqual(expect.arrayContaining(['mcp.slow-http', 'mcp.gh-stdio']));
    expect(external.some((e) => (e as Record<string, unknown>).path === 'src/auth/session.ts')).toBe(false);

    // Full contents were fetched through get_file_contents, and the secret in them redacted.
    expect(external[0].text).toContain('call refreshSession before expiry');
    expect(external[0].text).toContain('[REDACTED]');
    expect(JSON.stringify(res)).not.toContain(LEAKED_TOKEN);
    expect(gh.calls.map((c) => c.tool)).toEqual(expect.arrayContaining(['search_code', 'get_file_contents']));
    expect(gh.calls.find((c) => c.tool === 'search_code')!.args).toEqual({ query: 'session refresh', perPage: 5 });

    // No credential passthrough: the stub got its own configured header, never the caller's key.
    expect(gh.requests.length).toBeGreaterThan(0);
    for (const h of gh.requests) {
      expect(h['x-api-key']).toBe('stub-key');
      expect(h.authorization).toBeUndefined();
      expect(JSON.stringify(h)).not.toContain(memberA);
    }
    // The stdio server saw exactly its configured env plus PATH: none of this server's secrets.
    const stdioHit = external.find((e) => e.search_source === 'mcp.gh-stdio')! as ExternalResult & { metadata: { item: { env_seen: string[] } } };
    expect(stdioHit.metadata.item.env_seen).toEqual(['GITHUB_TOKEN', 'PATH', 'STUB_DELAY_MS', 'STUB_FILES']);

    // Socket search streams each external source as its own partial: the fast one before the slow one, then done.
    const socket = await connect(t.url!, memberA);
    try {
      const seen: Array<{ event: string; payload: any }> = [];
      socket.onAny((event, payload) => seen.push({ event, payload }));
      socket.emit('search:start', { request_id: 's1', query: 'session refresh', options: { top_k: 5 } });
      await waitFor(() => seen.find((e) => e.event === 'search:done' || e.event === 'search:error'), { what: 'search:done' });
      const order = seen.filter((e) => e.event === 'search:partial').map((e) => e.payload.source as string);
      const mcpOrder = order.filter((s) => s.startsWith('mcp.'));
      expect([...mcpOrder].sort()).toEqual(['mcp.crash-stdio', 'mcp.gh-http', 'mcp.gh-stdio', 'mcp.hang-http', 'mcp.slow-http']);
      // Server-side delays 0.3 s (gh-http), 0.6 s (gh-stdio), a 0.8 s timeout (hang-http), 2 s (slow-http): each partial
      // arrives when its server answers, so the slow one comes last. (gh-http and the hanging source's timeout are only
      // 0.5 s apart: CI runs this beside browser tests, and their order flipped there, so it is not asserted.)
      const at = (s: string) => mcpOrder.indexOf(s);
      for (const fast of ['mcp.gh-http', 'mcp.gh-stdio', 'mcp.hang-http', 'mcp.crash-stdio']) expect(at(fast)).toBeLessThan(at('mcp.slow-http'));
      const ghPartial = seen.find((e) => e.event === 'search:partial' && e.payload.source === 'mcp.gh-http')!.payload;
      expect(ghPartial.external.map((e: ExternalResult) => e.search_source)).toContain('mcp.gh-http');
      expect(ghPartial.sources_pending).toContain('mcp.slow-http');
      const done = seen.at(-1)!;
      expect(done.event).toBe('search:done');
      expect(done.payload.external.length).toBeGreaterThan(0);
    } finally {
      socket.disconnect();
    }

    // SSE carries the same partials.
    const sse = await request(server()).get('/v1/search/stream').query({ q: 'session refresh' }).set(auth(memberA)).buffer(true).parse((r, cb) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString()));
      r.on('end', () => cb(null, text));
    });
    expect(sse.body).toMatch(/event: partial\ndata: \{"source":"mcp\.slow-http"/);
    expect(sse.body).toMatch(/event: done\ndata: .*"external":\[/);

    // Other workspaces never query team-a's servers.
    const before = gh.calls.length;
    const other = await search(adminB, { query: 'session refresh' });
    expect(other.res.external).toBeUndefined();
    expect(gh.calls.length).toBe(before);

    // external: false leaves them out for one search.
    expect((await search(memberA, { query: 'session refresh', external: false })).res.external).toBeUndefined();
    for (const name of ['gh-http', 'slow-http', 'hang-http', 'gh-stdio', 'crash-stdio']) await request(server()).delete(`/v1/sources/mcp/${name}`).set(auth(adminA)).expect(200);
  });

  it('de-duplicates by embedding keeping the higher-priority copy, caps per source and after the merge', async () => {
    const ws = 'team-dedup';
    const admin = (await createKey(t, ws, 'admin')).key;
    const same = { repo: 'mirror/a', path: 'retry.md', content: 'Retry policy: exponential backoff with jitter, five attempts, then give up and report.' };
    const high = await stub({ files: [same] });
    const low = await stub({ files: [{ ...same, repo: 'mirror/b' }, { repo: 'mirror/b', path: 'other.md', content: 'Unrelated notes on retry budgets for queue consumers and their dashboards.' }] });
    const many = await stub({ files: Array.from({ length: 8 }, (_, i) => ({ repo: 'many/docs', path: `retry-${i}.md`, content: `Retry note number ${i}: ${'lorem ipsum '.repeat(i + 1)} distinct ${i * 7919}` })) });
    await addSource(admin, { name: 'high', priority: 3, transport: { type: 'http', url: high.url } });
    await addSource(admin, { name: 'low', priority: 2, transport: { type: 'http', url: low.url } });
    await addSource(admin, { name: 'many', priority: 1.5, result_limit: 5, transport: { type: 'http', url: many.url } });
    const { res } = await search(admin, { query: 'retry' });
    const ext = res.external!;
    // The mirror copy from the lower-priority server is gone; its different document stays.
    expect(ext.filter((e) => e.text.startsWith('Retry policy')).map((e) => e.search_source)).toEqual(['mcp.high']);
    expect(ext.map((e) => e.title)).toContain('mirror/b/other.md');
    expect(res.limits.some((l) => /^dedup: mcp\.low:mirror\/b\/retry\.md duplicates mcp\.high:mirror\/a\/retry\.md/.test(l))).toBe(true);
    // result_limit 5 for "many" (sent as perPage) although 8 match; merged external capped at SEXTANT_MCP_MAX_MERGED_RESULTS (6 here).
    expect(many.calls.find((c) => c.tool === 'search_code')!.args.perPage).toBe(5);
    expect(ext.length).toBe(6);
    expect(ext.map((e) => e.search_source)).toEqual(['mcp.high', 'mcp.low', 'mcp.many', 'mcp.many', 'mcp.many', 'mcp.many']);
    expect(res.limits).toContain('external: 1 result(s) over max_merged_results (6) left out');

    // Agents get the same external results from the MCP search tool, in structured content and text.
    const client = await connectClient(t.url!, admin);
    try {
      const out = await callTool(client, 'search', { query: 'retry' });
      const structured = McpSearchOutputSchema.parse(out.structuredContent);
      expect(structured.external!.map((e) => e.id)).toEqual(ext.map((e) => e.id));
      expect(textOf(out)).toContain('6 result(s) from external MCP sources');
      expect(textOf(out)).toMatch(/E1\. mirror\/a\/retry\.md {2}\[via mcp\.high \(search_code\)\]\n {3}https:\/\/github\.example\/mirror\/a\/blob\/main\/retry\.md/);
    } finally {
      await client.close();
    }
  });

  it('kills a removed stdio server with its whole process group, and restarts a server that died', async () => {
    const ws = 'team-proc';
    const admin = (await createKey(t, ws, 'admin')).key;
    const pidFile = path.join(tmp, 'server.pid');
    const grandchildFile = path.join(tmp, 'grandchild.pid');
    await addSource(admin, { name: 'proc', transport: { type: 'stdio', command: process.execPath, args: [STDIO_STUB], env: { STUB_PIDFILE: pidFile, STUB_GRANDCHILD_PIDFILE: grandchildFile, STUB_FILES: JSON.stringify(DOCS) } } });
    const first = await search(admin, { query: 'session' });
    expect(first.res.external!.length).toBeGreaterThan(0);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    const grandchild = Number(fs.readFileSync(grandchildFile, 'utf8'));
    expect(alive(pid) && alive(grandchild)).toBe(true);

    // It dies on its own: the next search fails over, the one after gets a fresh server.
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !alive(pid) || undefined, { what: 'server exit' });
    await search(admin, { query: 'session' });
    const again = await search(admin, { query: 'session' });
    expect(again.res.external!.length).toBeGreaterThan(0);
    const restarted = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(restarted).not.toBe(pid);

    const restartedGrandchild = Number(fs.readFileSync(grandchildFile, 'utf8'));
    await request(server()).delete('/v1/sources/mcp/proc').set(auth(admin)).expect(200);
    await waitFor(() => (!alive(restarted) && !alive(restartedGrandchild)) || undefined, { what: 'process group gone', timeoutMs: 5000 });
    process.kill(grandchild, 'SIGKILL');
  });
});

describe('external MCP sources at shutdown', () => {
  it('stopping the server kills every stdio server with its process group', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-mcp-stop-'));
    const t = await startTestApp({ env: { PATH: process.env.PATH! } });
    let pids: number[] = [];
    try {
      const pidFile = path.join(tmp, 'server.pid');
      const grandchildFile = path.join(tmp, 'grandchild.pid');
      await request(t.app.getHttpServer())
        .post('/v1/sources/mcp')
        .send({ name: 'proc', transport: { type: 'stdio', command: process.execPath, args: [STDIO_STUB], env: { STUB_PIDFILE: pidFile, STUB_GRANDCHILD_PIDFILE: grandchildFile, STUB_FILES: JSON.stringify(DOCS) } } })
        .expect(201);
      const res = await request(t.app.getHttpServer()).post('/v1/search').send({ query: 'session' }).expect(200);
      expect(res.body.external.length).toBeGreaterThan(0);
      pids = [Number(fs.readFileSync(pidFile, 'utf8')), Number(fs.readFileSync(grandchildFile, 'utf8'))];
      expect(pids.every(alive)).toBe(true);
    } finally {
      await t.close();
    }
    await waitFor(() => pids.every((p) => !alive(p)) || undefined, { what: 'stdio server and its child gone after shutdown', timeoutMs: 5000 });
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
