/**
 * The code graph end to end: an index job builds it, REST and MCP navigate it (reader role,
 * workspace scoped), and an incremental re-index after an edit replaces only what changed —
 * edges to a definition that no longer exists are gone.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { CodeGraphRepository } from '../../src/modules/indexing/repositories/code-graph.repository';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { callTool, connectClient, textOf } from '../mcp/mcp-fixture';

const FILES: Record<string, string> = {
  'pkg/__init__.py': 'from .store import save_record\n',
  'pkg/store.py': 'def save_record(record):\n    return record\n\n\ndef purge():\n    return 0\n',
  'app/service.py': [
    'from pkg import save_record as persist',
    '',
    'class Service:',
    '    def run(self):',
    '        persist(1)',
    '        self.finish()',
    '',
    '    def finish(self):',
    '        return None',
    '',
  ].join('\n'),
  'app/cleanup.py': 'from pkg.store import purge\n\n\ndef nightly():\n    purge()\n',
  'docs/notes.md': '# Notes\n\nNothing to see.\n',
};

interface Symbol {
  id: string;
  name: string;
  path: string;
  qualified_name: string;
  range: { start_line: number; end_line: number };
}
interface Site {
  kind: string;
  confidence: number;
  path: string;
  line: number;
  column: number;
  symbol: Symbol | null;
}

describe('code graph: build, navigate, update incrementally', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: string;
  let root: string;
  let repoId: string;
  let mcp: Client;
  const api = () => request(t.app.getHttpServer());

  const symbolNamed = async (name: string): Promise<Symbol> => {
    const res = await api().get('/v1/symbols').query({ query: name }).set(bearer(reader)).expect(200);
    const found = (res.body.symbols as Symbol[]).find((s) => s.name === name);
    if (!found) throw new Error(`no symbol ${name}: ${JSON.stringify(res.body)}`);
    return found;
  };
  const sites = async (id: string, which: 'references' | 'callers' | 'callees'): Promise<Site[]> => (await api().get(`/v1/symbols/${id}/${which}`).set(bearer(reader)).expect(200)).body.edges;
  const indexAndWait = async () => {
    const job = await api().post(`/v1/repos/${repoId}/index`).set(bearer(admin)).send({}).expect(202);
    await waitFor(async () => ['succeeded', 'failed'].includes((await api().get(`/v1/jobs/${job.body.id}`).set(bearer(admin))).body.status), { what: 're-index' });
    expect((await api().get(`/v1/jobs/${job.body.id}`).set(bearer(admin))).body.status).toBe('succeeded');
  };

  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV, listen: true });
    admin = (await createKey(t, 'default', 'admin', 'ops')).key;
    reader = (await createKey(t, 'default', 'reader', 'viewer')).key;
    other = (await createKey(t, 'other-team', 'admin', 'them')).key;
    root = makeFixtureRepo(FILES);
    const reg = await api().post('/v1/repos').set(bearer(admin)).send({ path: root, name: 'shop' }).expect(201);
    repoId = reg.body.id;
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`).set(bearer(admin))).body.status === 'succeeded', { what: 'fixture indexed' });
    mcp = await connectClient(t.url!, reader);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  it('finds definitions by name prefix, exact match first, with 0-based ranges', async () => {
    const res = await api().get('/v1/symbols').query({ query: 'save_rec' }).set(bearer(reader)).expect(200);
    expect(res.body.symbols).toEqual([
      expect.objectContaining({ name: 'save_record', path: 'pkg/store.py', qualified_name: 'pkg/store.py:save_record', kind: 'function', repository_id: repoId, range: expect.objectContaining({ start_line: 0, end_line: 1 }) }),
    ]);
    const first = await api().get('/v1/symbols').query({ query: 's', limit: 1 }).set(bearer(reader)).expect(200);
    expect(first.body.symbols).toHaveLength(1);
    const second = await api().get('/v1/symbols').query({ query: 's', limit: 1, cursor: first.body.next_cursor }).set(bearer(reader)).expect(200);
    expect(second.body.symbols[0].id).not.toBe(first.body.symbols[0].id);
    const inFile = await api().get('/v1/files/symbols').query({ repository: 'shop', path: 'app/service.py' }).set(bearer(reader)).expect(200);
    expect(inFile.body.symbols.map((x: Symbol) => `${x.qualified_name}@${x.range.start_line}`)).toEqual(['app/service.py:Service@2', 'app/service.py:Service.run@3', 'app/service.py:Service.finish@7']);
    await api().get('/v1/files/symbols').query({ path: 'app/service.py' }).set(bearer(reader)).expect(400);
    await api().get('/v1/files/symbols').query({ repository: 'shop', path: 'docs/notes.md' }).set(bearer(reader)).expect(404);
    const scoped = await api().get('/v1/symbols').query({ query: 'run', repository: 'shop', kind: 'method' }).set(bearer(reader)).expect(200);
    expect(scoped.body.symbols.map((s: Symbol) => s.qualified_name)).toEqual(['app/service.py:Service.run']);
  });

  it('lists callers through an aliased import re-exported by the package, and callees including self. methods', async () => {
    const save = await symbolNamed('save_record');
    const callers = await sites(save.id, 'callers');
    expect(callers).toEqual([expect.objectContaining({ kind: 'call', confidence: 1, path: 'app/service.py', line: 4, column: 8, symbol: expect.objectContaining({ qualified_name: 'app/service.py:Service.run' }) })]);
    const refs = await sites(save.id, 'references');
    expect(refs.map((r) => `${r.kind} ${r.path}:${r.line}`).sort()).toEqual(['call app/service.py:4', 'import app/service.py:0', 'import pkg/__init__.py:0']);
    const run = await symbolNamed('run');
    expect((await sites(run.id, 'callees')).map((c) => c.symbol?.qualified_name).sort()).toEqual(['app/service.py:Service.finish', 'pkg/store.py:save_record']);
  });

  it('lists file dependencies and dependents (path as a query parameter)', async () => {
    const deps = await api().get('/v1/files/dependencies').query({ repository: 'shop', path: 'app/service.py' }).set(bearer(reader)).expect(200);
    expect(deps.body).toEqual({ repository_id: repoId, path: 'app/service.py', files: [{ path: 'pkg/__init__.py', source: 'pkg', line: 0 }], next_cursor: null });
    const dependents = await api().get('/v1/files/dependents').query({ repository: repoId, path: 'pkg/store.py' }).set(bearer(reader)).expect(200);
    expect(dependents.body.files.map((f: { path: string }) => f.path).sort()).toEqual(['app/cleanup.py', 'pkg/__init__.py']);
    const windows = await api().get('/v1/files/dependents').query({ repository: repoId, path: '.\\pkg\\store.py' }).set(bearer(reader)).expect(200);
    expect(windows.body).toEqual(dependents.body);
  });

  it('rejects bad input with a clear error and keeps other workspaces out', async () => {
    await api().get('/v1/symbols').set(bearer(reader)).expect(400);
    await api().get('/v1/symbols').query({ query: 'x', limit: 0 }).set(bearer(reader)).expect(400);
    await api().get('/v1/symbols/not-a-uuid/callers').set(bearer(reader)).expect(400);
    const traversal = await api().get('/v1/files/dependencies').query({ repository: 'shop', path: '../etc/passwd' }).set(bearer(reader)).expect(400);
    expect(JSON.stringify(traversal.body)).toContain('not a path inside the repository');
    await api().get('/v1/files/dependencies').query({ repository: 'nope', path: 'app/service.py' }).set(bearer(reader)).expect(404);
    await api().get('/v1/files/dependencies').query({ repository: 'shop', path: 'docs/notes.md' }).set(bearer(reader)).expect(404);
    await api().get('/v1/symbols').query({ query: 'save' }).expect(401);

    const save = await symbolNamed('save_record');
    expect((await api().get('/v1/symbols').query({ query: 'save' }).set(bearer(other)).expect(200)).body.symbols).toEqual([]);
    await api().get(`/v1/symbols/${save.id}/callers`).set(bearer(other)).expect(404);
    await api().get('/v1/files/dependents').query({ repository: repoId, path: 'pkg/store.py' }).set(bearer(other)).expect(404);
  });

  it('serves find_callers, find_callees and find_references over MCP with seed-004 results', async () => {
    const tools = (await mcp.listTools()).tools.map((x) => x.name);
    expect(tools).toEqual(expect.arrayContaining(['find_references', 'find_callers', 'find_callees']));

    const callers = await callTool(mcp, 'find_callers', { symbol: 'save_record' });
    expect(callers.isError).toBeFalsy();
    const out = callers.structuredContent as { results: Array<{ url: string; source: string; metadata: { uri: string; start_line: number; end_line: number; symbols: string[] } }> };
    expect(out.results).toEqual([
      expect.objectContaining({ url: 'repo://shop/app/service.py#L5-L5', source: 'file.graph', metadata: expect.objectContaining({ uri: 'app/service.py', start_line: 4, end_line: 4, symbols: ['app/service.py:Service.run'] }) }),
    ]);
    expect(textOf(callers)).toContain('app/service.py: line 5');

    const callees = await callTool(mcp, 'find_callees', { symbol: 'app/service.py:Service.run' });
    const calleeOut = callees.structuredContent as { results: Array<{ metadata: { uri: string; start_line: number; end_line: number } }> };
    expect(calleeOut.results.map((r) => `${r.metadata.uri}:${r.metadata.start_line}-${r.metadata.end_line}`).sort()).toEqual(['app/service.py:7-8', 'pkg/store.py:0-1']);
    const windowsCallees = await callTool(mcp, 'find_callees', { symbol: '.\\app\\service.py:Service.run' });
    expect((windowsCallees.structuredContent as { results: unknown[] }).results).toEqual(calleeOut.results);

    const refs = await callTool(mcp, 'find_references', { symbol: 'purge', repos: ['shop'] });
    expect((refs.structuredContent as { results: unknown[] }).results).toHaveLength(2); // the import and the call in app/cleanup.py

    const missing = await callTool(mcp, 'find_references', { symbol: 'no_such_function' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('No definition named');
  });

  it('re-indexes an edited file incrementally: stale edges disappear, untouched edges and ids stay', async () => {
    const purge = await symbolNamed('purge');
    const save = await symbolNamed('save_record');
    const runCallsBefore = await sites(save.id, 'callers');
    // purge is renamed; cleanup.py still imports the old name, so its call no longer resolves.
    fs.writeFileSync(path.join(root, 'pkg/store.py'), 'def save_record(record):\n    return record\n\n\ndef purge_all():\n    return 0\n');
    fs.writeFileSync(path.join(root, 'app/cleanup.py'), 'from pkg.store import purge, save_record\n\n\ndef nightly():\n    purge()\n    save_record(None)\n');
    await indexAndWait();

    await api().get(`/v1/symbols/${purge.id}/callers`).set(bearer(reader)).expect(404);
    // save_record's file changed but the definition did not: same id, and the new caller is there.
    const callers = await sites(save.id, 'callers');
    expect(callers.map((c) => c.symbol?.qualified_name).sort()).toEqual(['app/cleanup.py:nightly', 'app/service.py:Service.run']);
    expect(callers.find((c) => c.path === 'app/service.py')).toEqual(runCallsBefore[0]);
    const nightly = await symbolNamed('nightly');
    expect((await sites(nightly.id, 'callees')).map((c) => c.symbol?.qualified_name)).toEqual(['pkg/store.py:save_record']);

    const db = t.app.get(DataSource);
    const dangling = await db.query('SELECT COUNT(*) AS n FROM graph_edges e LEFT JOIN graph_symbols s ON s.id = e.to_symbol_id WHERE s.id IS NULL');
    expect(Number(dangling[0].n)).toBe(0);
    expect(await t.app.get(CodeGraphRepository).hasDirty(repoId)).toBe(false);
  });

  it('drops a deleted file and its edges', async () => {
    const nightly = await symbolNamed('nightly');
    fs.rmSync(path.join(root, 'app/cleanup.py'));
    await indexAndWait();
    await api().get(`/v1/symbols/${nightly.id}/callees`).set(bearer(reader)).expect(404);
    const save = await symbolNamed('save_record');
    expect((await sites(save.id, 'callers')).map((c) => c.path)).toEqual(['app/service.py']);
    const dependents = await api().get('/v1/files/dependents').query({ repository: 'shop', path: 'pkg/store.py' }).set(bearer(reader)).expect(200);
    expect(dependents.body.files.map((f: { path: string }) => f.path)).toEqual(['pkg/__init__.py']);
  });
});
