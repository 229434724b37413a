import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpDocsOutputSchema, McpFileSearchOutputSchema, McpSearchOutputSchema } from '@sextant/contracts';
import request from 'supertest';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { callTool, connectClient, SHOP, SHOP_TASKS, textOf } from './mcp-fixture';

/**
 * MCP tools take REST's argument names (`top_k`, `filters.langs`, `chunk_types`); the older
 * names (`filters.lang`, search_docs `limit`, `chunk_type`) still work, so agents written
 * against them keep working. Driven by the MCP SDK's own client.
 */
describe('MCP argument names match REST, old names still accepted', () => {
  let t: TestApp;
  let reader: Client;
  let member: Client;

  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV, listen: true });
    const admin = (await createKey(t, 'default', 'admin')).key;
    const http = request(t.app.getHttpServer());
    const reg = await http.post('/v1/repos').set(bearer(admin)).send({ path: makeFixtureRepo(SHOP, { git: true }), name: 'shop' }).expect(201);
    await waitFor(async () => (await http.get(`/v1/jobs/${reg.body.job.id}`).set(bearer(admin))).body.status === 'succeeded', { what: 'index', timeoutMs: 60000 });
    await http.post('/v1/tasks').set(bearer(admin)).send({ tasks: SHOP_TASKS }).expect(201);
    reader = await connectClient(t.url!, (await createKey(t, 'default', 'reader')).key);
    member = await connectClient(t.url!, (await createKey(t, 'default', 'member')).key);
  }, 120000);

  afterAll(async () => {
    await reader?.close();
    await member?.close();
    await t?.close();
  });

  it('tools/list documents the REST names and marks the old ones deprecated', async () => {
    const { tools } = await reader.listTools();
    const props = (name: string) => (tools.find((x) => x.name === name)!.inputSchema as { properties: Record<string, { description?: string; properties?: Record<string, { description?: string }> }> }).properties;
    const filters = props('search').filters.properties!;
    expect(filters.langs.description).toMatch(/`filters.langs` of POST \/v1\/search/);
    expect(filters.lang.description).toMatch(/deprecated alias of `langs`/);
    expect(props('search_docs').top_k).toBeDefined();
    expect(props('search_docs').limit.description).toMatch(/deprecated alias of `top_k`/);
    expect(props('search_files_by_content').chunk_types).toBeDefined();
    expect(props('search_files_by_content').chunk_type.description).toMatch(/deprecated/);
    for (const name of ['search', 'search_files_by_content', 'search_functions', 'search_classes', 'search_similar_tasks', 'search_docs']) expect(props(name).top_k).toBeDefined();
  });

  it('search: filters.langs (REST) and filters.lang (deprecated) give the same Python-only results', async () => {
    const byNew = McpSearchOutputSchema.parse((await callTool(reader, 'search', { query: 'token cache session', filters: { langs: ['py'] } })).structuredContent);
    const byOld = McpSearchOutputSchema.parse((await callTool(reader, 'search', { query: 'token cache session', filters: { lang: ['py'] } })).structuredContent);
    expect(byNew.results.length).toBeGreaterThan(0);
    for (const r of byNew.results) expect(r.metadata.uri.endsWith('.py')).toBe(true);
    expect(byOld.results.map((r) => r.id)).toEqual(byNew.results.map((r) => r.id));
    const unfiltered = McpSearchOutputSchema.parse((await callTool(reader, 'search', { query: 'token cache session' })).structuredContent);
    expect(unfiltered.results.some((r) => !r.metadata.uri.endsWith('.py'))).toBe(true);
  });

  it('search_docs: top_k (REST) and limit (deprecated) both cap the sections returned', async () => {
    const all = McpDocsOutputSchema.parse((await callTool(reader, 'search_docs', { query: 'sessions rotation incidents', mode: 'OR' })).structuredContent);
    expect(all.results.length).toBeGreaterThan(1);
    const byNew = McpDocsOutputSchema.parse((await callTool(reader, 'search_docs', { query: 'sessions rotation incidents', mode: 'OR', top_k: 1 })).structuredContent);
    const byOld = McpDocsOutputSchema.parse((await callTool(reader, 'search_docs', { query: 'sessions rotation incidents', mode: 'OR', limit: 1 })).structuredContent);
    expect(byNew.results.map((r) => r.id)).toEqual([all.results[0].id]);
    expect(byOld.results.map((r) => r.id)).toEqual([all.results[0].id]);
  });

  it('search_files_by_content: chunk_types (REST) and chunk_type (deprecated) select the same kind', async () => {
    const byNew = McpFileSearchOutputSchema.parse((await callTool(reader, 'search_files_by_content', { query: 'session store', chunk_types: ['class'] })).structuredContent);
    const byOld = McpFileSearchOutputSchema.parse((await callTool(reader, 'search_files_by_content', { query: 'session store', chunk_type: 'class' })).structuredContent);
    expect(byNew.results.length).toBeGreaterThan(0);
    for (const r of byNew.results) expect(r.chunk_type).toBe('class');
    expect(byOld.results.map((r) => r.id)).toEqual(byNew.results.map((r) => r.id));
  });

  it('a "not found" hint names where the right value comes from for that tool', async () => {
    const search = await callTool(member, 'search', { query: 'Ledger balance' });
    const searchId = (search._meta as Record<string, string>)['dev.sextant/search_id'];
    const unknownItem = await callTool(member, 'rate_result', { search_id: searchId, item_id: 'not-a-result', rating: 1 });
    expect(unknownItem.isError).toBe(true);
    expect(textOf(unknownItem)).toMatch(/not among the results.*Pass the search_id printed at the end of a search/s);
    expect(textOf(unknownItem)).not.toMatch(/index_status/);
    const unknownRepo = await callTool(member, 'refresh_index', { repository: 'nope' });
    expect(unknownRepo.isError).toBe(true);
    expect(textOf(unknownRepo)).toMatch(/nope/);
  });
});
