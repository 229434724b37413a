import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  MCP_TOOL_NAMES,
  McpDocsOutputSchema,
  McpFetchOutputSchema,
  McpFileSearchOutputSchema,
  McpIndexStatusOutputSchema,
  McpRefreshIndexOutputSchema,
  McpSearchOutputSchema,
  McpSimilarTasksOutputSchema,
  type McpSearchOutput,
} from '@sextant/contracts';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { bearer, createKey } from '../auth/auth-helpers';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { callTool, connectClient, OPS, OPS_TASKS, SHOP, SHOP_TASKS, textOf } from './mcp-fixture';

/** Not local mode: every request needs a key, as on a server bound to 0.0.0.0. */
const ENV = { HOST: '0.0.0.0' };

describe('MCP over Streamable HTTP (real app on an ephemeral port, SDK client)', () => {
  let t: TestApp;
  let url: string;
  let shopRoot: string;
  const keys = { admin: '', member: '', reader: '', opsAdmin: '', opsReader: '' };
  let client: Client; // reader of the main workspace
  let memberClient: Client;
  const http = () => request(t.app.getHttpServer());

  async function registerAndIndex(adminKey: string, root: string, name: string, tasks: object[]): Promise<void> {
    const reg = await http().post('/v1/repos').set(bearer(adminKey)).send({ path: root, name }).expect(201);
    await waitFor(async () => (await http().get(`/v1/jobs/${reg.body.job.id}`).set(bearer(adminKey))).body.status === 'succeeded', { what: `index of ${name}`, timeoutMs: 60000 });
    await http().post('/v1/tasks').set(bearer(adminKey)).send({ tasks }).expect(201);
  }

  beforeAll(async () => {
    t = await startTestApp({ env: ENV, listen: true });
    url = t.url!;
    keys.admin = (await createKey(t, 'default', 'admin')).key;
    keys.member = (await createKey(t, 'default', 'member')).key;
    keys.reader = (await createKey(t, 'default', 'reader')).key;
    keys.opsAdmin = (await createKey(t, 'ops-team', 'admin')).key;
    keys.opsReader = (await createKey(t, 'ops-team', 'reader')).key;
    shopRoot = makeFixtureRepo(SHOP, { git: true });
    await registerAndIndex(keys.admin, shopRoot, 'shop', SHOP_TASKS);
    await registerAndIndex(keys.opsAdmin, makeFixtureRepo(OPS, { git: true }), 'ops', OPS_TASKS);
    client = await connectClient(url, keys.reader);
    memberClient = await connectClient(url, keys.member);
  }, 120000);

  afterAll(async () => {
    await client?.close();
    await memberClient?.close();
    await t?.close();
  });

  const searchLogCount = async () => Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM search_logs'))[0].n);

  it('lists every tool with its input and output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(120);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const search = tools.find((x) => x.name === 'search')!.inputSchema as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(search.required).toEqual(['query']);
    expect(search.properties.top_k).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 12 });
    expect(search.properties.rerank).toMatchObject({ type: 'boolean' });
    expect(Object.keys((search.properties.filters as { properties: object }).properties).sort()).toEqual(['exclude', 'include', 'lang', 'langs', 'repos', 'symbols']);
    const fetchSchema = tools.find((x) => x.name === 'fetch')!.inputSchema as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(fetchSchema.required).toEqual(['objectIds']);
    expect(fetchSchema.properties.max_tokens).toMatchObject({ minimum: 256, maximum: 16000, default: 4000 });
    const docs = tools.find((x) => x.name === 'search_docs')!.inputSchema as { properties: Record<string, { enum?: string[] }> };
    expect(docs.properties.mode.enum).toEqual(['AND', 'OR', 'PHRASE']);
  });

  it('search returns seed-004 results: the defining file first, titles and urls from the chunk bounds, a search id', async () => {
    const res = await callTool(client, 'search', { query: 'where is validate_token' });
    expect(res.isError).toBeFalsy();
    const out = McpSearchOutputSchema.parse(res.structuredContent);
    expect(out).toMatchObject({ queryEcho: 'where is validate_token', top_k: 12 });
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.results.length).toBeLessThanOrEqual(12);
    const top = out.results[0];
    expect(top.metadata.uri).toBe('src/auth/token.py');
    const { start_line: a, end_line: b } = top.metadata;
    expect(top.title).toBe(`src/auth/token.py: lines ${a + 1}-${b + 1}`);
    expect(top.url).toBe(`repo://shop/src/auth/token.py#L${a + 1}-L${b + 1}`);
    expect(top.metadata.lang).toBe('python');
    expect(top.snippet).toContain('validate_token');
    expect(top.metadata.explain.hit_reason.length).toBeGreaterThan(0);
    expect(top.metadata.explain.sources.map((s) => s.source)).toContain(top.source);
    const searchId = (res._meta as Record<string, string>)['dev.sextant/search_id'];
    expect(searchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(textOf(res)).toContain(`search_id: ${searchId}`);
    expect(textOf(res)).toContain(top.id);
  });

  it('search filters by language alias, globs and symbol', async () => {
    const py = McpSearchOutputSchema.parse((await callTool(client, 'search', { query: 'token cache session', filters: { lang: ['py'] } })).structuredContent);
    expect(py.results.length).toBeGreaterThan(0);
    for (const r of py.results) expect(r.metadata.uri.endsWith('.py')).toBe(true);
    const noSrc = McpSearchOutputSchema.parse((await callTool(client, 'search', { query: 'session', filters: { exclude: ['src/**'] } })).structuredContent);
    for (const r of noSrc.results) expect(r.metadata.uri.startsWith('src/')).toBe(false);
    const shopOnly = McpSearchOutputSchema.parse((await callTool(client, 'search', { query: 'session refresh', filters: { repos: ['shop'] } })).structuredContent);
    expect(shopOnly.results.length).toBeGreaterThan(0);
    for (const r of shopOnly.results) expect(r.url).toMatch(/^repo:\/\/shop\//);
    const unknownRepo = await callTool(client, 'search', { query: 'session', filters: { repos: ['no-such-repo'] } });
    expect(unknownRepo.isError).toBe(true);
    expect(textOf(unknownRepo)).toMatch(/no-such-repo/);
    // Headings alone (a section whose text is in its sub-sections) are never returned as hits.
    const docs = McpSearchOutputSchema.parse((await callTool(client, 'search', { query: 'Runbook incidents key rotation', top_k: 20 })).structuredContent);
    for (const r of docs.results) expect(r.snippet.split('\n').some((l) => l.trim() && !/^#{1,6}(\s|$)/.test(l.trim()))).toBe(true);
    const top3 = McpSearchOutputSchema.parse((await callTool(client, 'search', { query: 'session refresh', top_k: 3, rerank: false })).structuredContent);
    expect(top3.results.length).toBeLessThanOrEqual(3);
    expect(top3.top_k).toBe(3);
  });

  it('fetch hydrates chunks in the requested order with the exact file lines, and reports unknown ids', async () => {
    const found = McpSearchOutputSchema.parse((await callTool(client, 'search', { query: 'SessionStore refresh Ledger balance', top_k: 4 })).structuredContent);
    const ids = found.results.map((r) => r.id).reverse();
    const res = await callTool(client, 'fetch', { objectIds: [...ids, 'not-a-chunk', '00000000-0000-4000-8000-000000000000'] });
    expect(res.isError).toBeFalsy();
    const out = McpFetchOutputSchema.parse(res.structuredContent);
    expect(out.objects.map((o) => o.id)).toEqual(ids);
    expect(out.missing).toEqual(['not-a-chunk', '00000000-0000-4000-8000-000000000000']);
    for (const o of out.objects) {
      const file = fs.readFileSync(path.join(shopRoot, o.metadata.uri));
      expect(o.content.length).toBeGreaterThan(0);
      expect(o.content).toBe(file.subarray(o.metadata.start_byte, o.metadata.end_byte).toString('utf8'));
      expect(file.toString('utf8').split('\n').slice(o.metadata.start_line, o.metadata.end_line + 1).join('\n')).toContain(o.content.trim().split('\n')[0]);
      expect(o.url).toBe(`repo://shop/${o.metadata.uri}#L${o.metadata.start_line + 1}-L${o.metadata.end_line + 1}`);
    }
    expect(textOf(res)).toMatch(/Not found in this workspace: not-a-chunk/);
  });

  it('fetch keeps the whole response within max_tokens and cuts only on line boundaries', async () => {
    const docs = McpDocsOutputSchema.parse((await callTool(client, 'search_docs', { query: 'rotate signing keys', mode: 'OR', limit: 10 })).structuredContent);
    const long = docs.results.filter((r) => r.path === 'docs/runbook.md').map((r) => r.id);
    expect(long.length).toBeGreaterThan(0);
    const full = McpFetchOutputSchema.parse((await callTool(client, 'fetch', { objectIds: long, max_tokens: 16000 })).structuredContent);
    expect(full.objects.every((o) => !o.content.includes('[truncated:'))).toBe(true);
    expect(full.objects.reduce((s, o) => s + o.content.length, 0)).toBeGreaterThan(256 * 4);

    const cut = McpFetchOutputSchema.parse((await callTool(client, 'fetch', { objectIds: long, max_tokens: 256 })).structuredContent);
    expect(cut.objects.map((o) => o.id)).toEqual(long);
    expect(cut.objects.reduce((s, o) => s + o.content.length, 0)).toBeLessThanOrEqual(256 * 4);
    const truncated = cut.objects.filter((o) => o.content.includes('[truncated:'));
    expect(truncated.length).toBeGreaterThan(0);
    let used = 0;
    cut.objects.forEach((o, i) => {
      const original = full.objects[i].content;
      const lines = original.endsWith('\n') ? original.split('\n').length - 1 : original.split('\n').length;
      const m = /… \[truncated: (\d+) more lines?\]$/.exec(o.content);
      if (o.content === '') expect(256 * 4 - used).toBeLessThan('… [truncated: 99 more lines]'.length); // budget spent
      else if (!m) expect(o.content).toBe(original);
      else {
        const kept = o.content.slice(0, m.index);
        expect(original.startsWith(kept)).toBe(true);
        expect(kept === '' || kept.endsWith('\n')).toBe(true);
        expect(Number(m[1]) + (kept.match(/\n/g) ?? []).length).toBe(lines);
      }
      used += o.content.length;
    });
  });

  it('search_files_by_content, search_functions and search_classes return code matches of the requested kind', async () => {
    const py = McpFileSearchOutputSchema.parse((await callTool(client, 'search_files_by_content', { query: 'token', file_types: ['.py'] })).structuredContent);
    expect(py.results.length).toBeGreaterThan(0);
    for (const r of py.results) expect(r.file_path.endsWith('.py')).toBe(true);
    expect(py.search_id).toMatch(/^[0-9a-f-]{36}$/);

    const fns = McpFileSearchOutputSchema.parse((await callTool(client, 'search_functions', { query: 'validate token signature' })).structuredContent);
    expect(fns.results.length).toBeGreaterThan(0);
    for (const r of fns.results) expect(['function', 'method']).toContain(r.chunk_type);
    expect(fns.results[0].chunk_text).toContain('def validate_token');

    const classes = McpFileSearchOutputSchema.parse((await callTool(client, 'search_classes', { query: 'SessionStore keeps user sessions' })).structuredContent);
    expect(classes.results.length).toBeGreaterThan(0);
    for (const r of classes.results) expect(r.chunk_type).toBe('class');
    expect(classes.results[0]).toMatchObject({ file_path: 'src/auth/session.ts', repository: 'shop' });
    expect(classes.results[0].chunk_text).toContain('class SessionStore');
  });

  it('search_similar_tasks returns past tasks with the files they touched', async () => {
    const out = McpSimilarTasksOutputSchema.parse((await callTool(client, 'search_similar_tasks', { query: 'customers charged twice after a retry' })).structuredContent);
    expect(out.tasks[0]).toMatchObject({ task_id: 'T-101', title: 'Customers were charged twice after a retry', files: ['src/billing/ledger.ts'] });
    expect(out.tasks[0].similarity).toBeGreaterThan(out.tasks[out.tasks.length - 1].similarity - 1e-9);
  });

  it('search_docs honours AND / OR / PHRASE over documentation only', async () => {
    const and = McpDocsOutputSchema.parse((await callTool(client, 'search_docs', { query: 'sessions expire hour' })).structuredContent);
    expect(and.mode).toBe('AND');
    expect(and.results[0]).toMatchObject({ path: 'docs/guide.md', section: 'Guide > Sessions', repository: 'shop' });
    for (const r of and.results) expect(r.path.endsWith('.md')).toBe(true);
    const phrase = McpDocsOutputSchema.parse((await callTool(client, 'search_docs', { query: 'expire after an hour', mode: 'PHRASE' })).structuredContent);
    expect(phrase.results.map((r) => r.path)).toContain('docs/guide.md');
    const reversed = McpDocsOutputSchema.parse((await callTool(client, 'search_docs', { query: 'hour an after expire', mode: 'PHRASE' })).structuredContent);
    expect(reversed.results).toEqual([]);
    const none = await callTool(client, 'search_docs', { query: 'sessions zzzunknownword' });
    expect(McpDocsOutputSchema.parse(none.structuredContent).results).toEqual([]);
    expect(textOf(none)).toMatch(/try mode OR/);
    const or = McpDocsOutputSchema.parse((await callTool(client, 'search_docs', { query: 'sessions zzzunknownword', mode: 'OR' })).structuredContent);
    expect(or.results.map((r) => r.path)).toContain('docs/guide.md');
  });

  it('index_status describes the repository; refresh_index needs a member key and starts an incremental job', async () => {
    const status = McpIndexStatusOutputSchema.parse((await callTool(client, 'index_status', {})).structuredContent);
    expect(status.repositories).toHaveLength(1);
    expect(status.repositories[0]).toMatchObject({ name: 'shop', last_job: { status: 'succeeded' } });
    expect(status.repositories[0].files).toBeGreaterThan(3);
    expect(status.repositories[0].chunks).toBeGreaterThan(status.repositories[0].files);

    const jobsBefore = (await http().get('/v1/jobs').set(bearer(keys.admin))).body;
    const denied = await callTool(client, 'refresh_index', {});
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/needs the member role; this key has the reader role/);
    expect((await http().get('/v1/jobs').set(bearer(keys.admin))).body).toEqual(jobsBefore);

    const unknown = await callTool(memberClient, 'refresh_index', { repository: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/No repository "nope".*shop/);

    fs.mkdirSync(path.join(shopRoot, 'src/http'), { recursive: true });
    fs.writeFileSync(path.join(shopRoot, 'src/http/health.ts'), 'export function healthCheck(): string {\n  return "ok";\n}\n');
    const started = McpRefreshIndexOutputSchema.parse((await callTool(memberClient, 'refresh_index', { repository: 'shop' })).structuredContent);
    expect(started.jobs).toHaveLength(1);
    expect(started.jobs[0].job).toMatchObject({ kind: 'incremental' });
    expect(started.summary).toMatch(/index_status/);
    await waitFor(async () => {
      const s = McpIndexStatusOutputSchema.parse((await callTool(client, 'index_status', { repository: 'shop' })).structuredContent);
      return s.repositories[0].last_job?.job_id === started.jobs[0].job.job_id && s.repositories[0].last_job.status === 'succeeded';
    }, { what: 'refresh job', timeoutMs: 30000 });
    const fresh = McpSearchOutputSchema.parse((await callTool(client, 'search', { query: 'healthCheck' })).structuredContent);
    expect(fresh.results[0].metadata.uri).toBe('src/http/health.ts');
  });

  it('rate_result needs a member key and says plainly when feedback is not available', async () => {
    const search = await callTool(memberClient, 'search', { query: 'Ledger balance' });
    const searchId = (search._meta as Record<string, string>)['dev.sextant/search_id'];
    const itemId = McpSearchOutputSchema.parse(search.structuredContent).results[0].id;
    const asReader = await callTool(client, 'rate_result', { search_id: searchId, item_id: itemId, rating: 1 });
    expect(asReader.isError).toBe(true);
    expect(textOf(asReader)).toMatch(/needs the member role/);
    const asMember = await callTool(memberClient, 'rate_result', { search_id: searchId, item_id: itemId, rating: 1 });
    if (asMember.isError) expect(textOf(asMember)).toMatch(/feedback is not available yet/);
    else expect(asMember.structuredContent).toMatchObject({ recorded: true, search_id: searchId, item_id: itemId, rating: 1 });
  });

  it('invalid arguments give a validation error and do nothing', async () => {
    const before = await searchLogCount();
    const bad: Array<[string, Record<string, unknown>]> = [
      ['search', { query: '' }],
      ['search', { query: 'x', top_k: 51 }],
      ['search', { query: 'x', top_k: 0 }],
      ['search', { query: 'x', surprise: true }],
      ['search', { query: 'x', filters: { lang: 'python' } }],
      ['fetch', { objectIds: [] }],
      ['fetch', { objectIds: ['a'], max_tokens: 100 }],
      ['search_docs', { query: 'x', mode: 'NEAR' }],
      ['rate_result', { search_id: 'nope', item_id: 'x', rating: 5 }],
      ['search_functions', {}],
    ];
    for (const [name, args] of bad) {
      const res = await callTool(memberClient, name, args);
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(/Input validation error/);
      expect(res.structuredContent).toBeUndefined();
    }
    expect(await searchLogCount()).toBe(before);
    const unknown = await callTool(memberClient, 'grep_everything', { query: 'x' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/Tool grep_everything not found\. Available tools: search, fetch/);
  });

  it('refuses a wrong or missing key with 401 and WWW-Authenticate', async () => {
    await expect(connectClient(url, 'sxt_0badc0de_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).rejects.toThrow(/401/);
    await expect(connectClient(url)).rejects.toThrow(/401/);
    const res = await fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${keys.reader}x` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses a foreign Origin or Host with 403 before looking at the key; GET and DELETE are 405', async () => {
    await expect(connectClient(url, keys.reader, { Origin: 'https://evil.example' })).rejects.toThrow(/evil.example.* is not allowed for \/mcp/);
    const post = (headers: Record<string, string>) =>
      http().post('/mcp').set({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect((await post({ Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ Host: 'evil.example:3000', ...bearer(keys.reader) })).status).toBe(403);
    expect((await post({ Origin: 'http://localhost:5173' })).status).toBe(401);
    const ok = await post({ Origin: 'http://localhost:5173', ...bearer(keys.reader) });
    expect(ok.status).toBe(200);
    expect(ok.body.result.tools).toHaveLength(MCP_TOOL_NAMES.length);
    const get = await http().get('/mcp').set(bearer(keys.reader));
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await http().delete('/mcp').set(bearer(keys.reader))).status).toBe(405);
  });

  it('answers a body that is not JSON with JSON-RPC parse error -32700, and a missing key (before any JSON-RPC is read) with problem details', async () => {
    const malformed = await http().post('/mcp').set({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(keys.reader) }).send('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
    const anonymous = await http().post('/mcp').set({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(anonymous.body).toMatchObject({ status: 401, code: 'unauthenticated', detail: expect.stringMatching(/API key/), request_id: expect.any(String) });
  });

  it('refuses bodies over the MCP limit with 413', async () => {
    const res = await http()
      .post('/mcp')
      .set({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(keys.reader) })
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'x'.repeat(300 * 1024) } } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 413, code: 'payload_too_large', detail: expect.stringMatching(/SEXTANT_MCP_BODY_LIMIT/) });
  });

  it('exports search/fetch latency histograms and a per-tool call counter', async () => {
    const metrics = (await http().get('/metrics')).text;
    expect(metrics).toMatch(/^sextant_mcp_search_latency_seconds_count\{tool="search"\} [1-9]/m);
    expect(metrics).toMatch(/^sextant_mcp_fetch_latency_seconds_count [1-9]/m);
    expect(metrics).toMatch(/^sextant_mcp_tool_calls_total\{tool="search",outcome="ok"\} [1-9]/m);
    expect(metrics).toMatch(/^sextant_mcp_tool_calls_total\{tool="refresh_index",outcome="forbidden"\} [1-9]/m);
    // From the invalid-arguments test above: refused calls are counted, unknown names under one label.
    expect(metrics).toMatch(/^sextant_mcp_tool_calls_total\{tool="search",outcome="invalid"\} [4-9]/m);
    expect(metrics).toMatch(/^sextant_mcp_tool_calls_total\{tool="\(unknown\)",outcome="invalid"\} 1$/m);
    expect(metrics).not.toMatch(/grep_everything/);
  });

  it('50 concurrent clients with keys of two workspaces each see only their own workspace', async () => {
    const ownIds = { shop: new Set<string>(), ops: new Set<string>() };
    const run = async (i: number) => {
      const ops = i % 2 === 1;
      const c = await connectClient(url, ops ? keys.opsReader : keys.reader);
      try {
        const res = await callTool(c, 'search', { query: i % 4 < 2 ? 'validate_token' : 'session refresh token', top_k: 10 });
        const out: McpSearchOutput = McpSearchOutputSchema.parse(res.structuredContent);
        const tasks = McpSimilarTasksOutputSchema.parse((await callTool(c, 'search_similar_tasks', { query: 'sessions expire too early' })).structuredContent);
        out.results.forEach((r) => ownIds[ops ? 'ops' : 'shop'].add(r.id));
        return { ops, urls: out.results.map((r) => r.url), tasks: tasks.tasks.map((x) => x.task_id) };
      } finally {
        await c.close();
      }
    };
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => run(i)));
    for (const o of outcomes) {
      expect(o.urls.length).toBeGreaterThan(0);
      for (const u of o.urls) expect(u.startsWith(o.ops ? 'repo://ops/' : 'repo://shop/')).toBe(true);
      expect(o.tasks.length).toBeGreaterThan(0);
      for (const id of o.tasks) expect(o.ops ? id.startsWith('OPS-') : id.startsWith('T-')).toBe(true);
    }
    // A chunk id of the other workspace is unknown, not readable.
    const opsClient = await connectClient(url, keys.opsReader);
    try {
      const out = McpFetchOutputSchema.parse((await callTool(opsClient, 'fetch', { objectIds: [...ownIds.shop].slice(0, 5) })).structuredContent);
      expect(out.objects).toEqual([]);
      expect(out.missing).toHaveLength(Math.min(5, ownIds.shop.size));
    } finally {
      await opsClient.close();
    }
  }, 60000);
});
