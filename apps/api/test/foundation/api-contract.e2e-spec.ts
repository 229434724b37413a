import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import {
  ApiKeyListResponseSchema,
  EvalReportListResponseSchema,
  FeedbackRecentResponseSchema,
  IndexJobListResponseSchema,
  McpSourceListResponseSchema,
  RepositoryListResponseSchema,
  TaskListResponseSchema,
  WeightsHistoryResponseSchema,
  WorkspaceListResponseSchema,
} from '@sextant/contracts';
import Ajv from 'ajv';
import Database from 'better-sqlite3';
import type { ZodType } from 'zod';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { holdSource } from '../helpers/hold-source';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { EvalReportsService } from '../../src/modules/evaluation/eval-reports.service';

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
    t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, SEXTANT_BODY_LIMIT: '16kb', SEXTANT_IMPORT_BODY_LIMIT: '64kb' }, listen: true });
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
    expectProblem(res, 413, 'payload_too_large', /limit \(SEXTANT_BODY_LIMIT\)$/);
  });

  it('a task file import has its own, larger limit (SEXTANT_IMPORT_BODY_LIMIT), named when it is exceeded', async () => {
    const file = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `BIG-${i}`, title: `Ticket ${i}`, body: 'b'.repeat(400) })).join('\n');
    const fits = await http().post('/v1/tasks/import').set(bearer(admin)).send({ format: 'jsonl', content: file(100), source: 'big-file' });
    expect(fits.status).toBe(201);
    expect(fits.body).toMatchObject({ imported: 100, skipped: 0 });
    expectProblem(await http().post('/v1/tasks/import').set(bearer(admin)).send({ format: 'jsonl', content: file(200), source: 'big-file' }), 413, 'payload_too_large', /SEXTANT_IMPORT_BODY_LIMIT/);
    expectProblem(await http().post('/v1/tasks').set(bearer(admin)).send({ tasks: [{ id: 'x', title: 'x', body: 'b'.repeat(20_000) }] }), 413, 'payload_too_large', /SEXTANT_BODY_LIMIT/);
  });

  it('415 unsupported_media_type for a text/plain body (not "expected object, received undefined"), even an empty one', async () => {
    const res = await http().post('/v1/search').set(bearer(reader)).set('content-type', 'text/plain').send('{"query":"x"}');
    expectProblem(res, 415, 'unsupported_media_type', /must be JSON/);
    expectProblem(await http().post('/v1/search').set(bearer(reader)).set('content-type', 'text/plain'), 415, 'unsupported_media_type');
    const noBody = await http().post('/v1/search').set(bearer(reader));
    expectProblem(noBody, 400, 'validation_failed', /needs a JSON body/);
    expect(noBody.body.detail).not.toMatch(/received undefined/);
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

  it('socket.io: a refused handshake carries the same problem fields', async () => {
    const anonymous: Socket = io(t.url!, { transports: ['websocket'], reconnection: false });
    try {
      const data = await new Promise<Record<string, unknown>>((resolve) => anonymous.on('connect_error', (err: Error & { data?: Record<string, unknown> }) => resolve(err.data ?? {})));
      expect(data).toMatchObject({ type: 'urn:sextant:problem:unauthenticated', status: 401, code: 'unauthenticated', detail: expect.any(String) });
    } finally {
      anonymous.close();
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

type Operation = {
  summary?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }> }>;
  security?: Array<Record<string, string[]>>;
  'x-sextant-role'?: string;
};

/** Every operation of the document, as [method, path, operation]. */
function operationsOf(doc: { paths: Record<string, Record<string, Operation>> }): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map(([m, op]) => [m, p, op] as [string, string, Operation]));
}

/**
 * Collection routes (no trailing `{id}`) whose arrays are not pages of a collection: a
 * search's ratings with their totals (bounded by the search's results), the weights overview
 * (one entry per query class), the ranker's status and the latest report (one resource each).
 */
const NOT_PAGED = new Set(['get /v1/feedback', 'get /v1/weights', 'get /v1/ranker', 'get /v1/eval/reports/latest']);
// (`GET /v1/weights` keeps the newest `history_limit` versions for charts; `GET /v1/weights/history` pages them all.)

describe('API contract: the served OpenAPI document', () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> } };

  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV });
    doc = (await request(t.app.getHttpServer()).get('/docs/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('validates as OpenAPI 3.x (@seriousme/openapi-schema-validator)', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-openapi-')), 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const cli = path.resolve(__dirname, '../../../../node_modules/@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
    const run = await promisify(execFile)(process.execPath, [cli, file]).catch((e: { stdout: string }) => e);
    const result = JSON.parse(run.stdout) as { valid: boolean; errors?: unknown };
    expect(result).toEqual({ valid: true });
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Problem).toMatchObject({ required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'code', 'request_id']) });
  });

  it('gives every operation a summary, a 2xx schema, documented problem responses, and the bearer scheme exactly when it needs a key', async () => {
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThanOrEqual(35);
    const failures: string[] = [];
    for (const [method, p, op] of ops) {
      const name = `${method.toUpperCase()} ${p}`;
      if (!op.summary?.trim()) failures.push(`${name}: no summary`);
      const success = Object.entries(op.responses).filter(([status]) => /^2/.test(status));
      const hasSchema = success.some(([status, r]) => status === '204' || Object.values(r.content ?? {}).some((c) => c.schema && Object.keys(c.schema).length > 0));
      if (!hasSchema) failures.push(`${name}: no 2xx response schema`);
      const problems = Object.entries(op.responses).filter(([status, r]) => /^4/.test(status) && r.content?.['application/problem+json']?.schema?.$ref === '#/components/schemas/Problem');
      if (!problems.length && p !== '/health') failures.push(`${name}: no documented 4xx problem`);
      if (op.requestBody && !(op.responses['415'] && op.responses['413'])) failures.push(`${name}: takes a body but documents no 413/415`);
      const secured = JSON.stringify(op.security ?? []) === JSON.stringify([{ bearer: [] }]);
      if (secured !== Boolean(op['x-sextant-role'])) failures.push(`${name}: security ${JSON.stringify(op.security)} vs role ${op['x-sextant-role']}`);
      if (secured && !op.responses['401']) failures.push(`${name}: protected but no 401`);
    }
    expect(failures).toEqual([]);
  });

  it('documents security the way the server enforces it: protected operations answer 401 without a key, public ones do not', async () => {
    const mismatches: string[] = [];
    for (const [method, p, op] of operationsOf(doc)) {
      const url = p.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const res = await (request(t.app.getHttpServer()) as unknown as Record<string, (u: string) => request.Test>)[method](url).set('content-type', 'application/json');
      const documentedProtected = Boolean(op.security?.length);
      if (documentedProtected !== (res.status === 401)) mismatches.push(`${method.toUpperCase()} ${p}: documented ${documentedProtected ? 'protected' : 'public'}, answered ${res.status}`);
      if (res.status === 401) expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect(mismatches).toEqual([]);
  });

  it('pages every list: limit and cursor in, next_cursor out', async () => {
    const unpaged: string[] = [];
    for (const [method, p, op] of operationsOf(doc)) {
      if (method !== 'get') continue;
      const schema = op.responses['200']?.content?.['application/json']?.schema as { properties?: Record<string, { type?: string }> } | undefined;
      const lists = Object.entries(schema?.properties ?? {}).filter(([, s]) => s.type === 'array');
      if (!lists.length || p.endsWith('}') || NOT_PAGED.has(`get ${p}`)) continue;
      const params = (op.parameters ?? []).filter((x) => x.in === 'query').map((x) => x.name);
      if (!params.includes('limit') || !params.includes('cursor') || !schema?.properties?.next_cursor) unpaged.push(`GET ${p} (${lists.map(([k]) => k).join(', ')})`);
    }
    expect(unpaged).toEqual([]);
  });
});

describe('API contract: walking every list page by page', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());

  /** Follows next_cursor from the first page with `limit`, checking each page against its wire schema. */
  async function walk<T extends { id?: string; search_id?: string; item_id?: string }>(route: string, field: string, schema: ZodType, limit: number): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { body: Record<string, unknown> } = await http().get(route).query({ limit, ...(cursor ? { cursor } : {}) }).expect(200);
      schema.parse(res.body);
      const page = res.body[field] as T[];
      expect(page.length).toBeLessThanOrEqual(limit);
      items.push(...page);
      cursor = res.body.next_cursor as string | null;
      pages++;
      expect(pages).toBeLessThan(50);
    } while (cursor);
    return { items, pages };
  }

  beforeAll(async () => {
    t = await startTestApp();
    for (const slug of ['page-a', 'page-b', 'page-c']) await http().post('/v1/workspaces').send({ slug }).expect(201);
    for (const name of ['k1', 'k2', 'k3']) await http().post('/v1/keys').send({ name, role: 'reader' }).expect(201);
    const reg = await http().post('/v1/repos').send({ path: makeFixtureRepo(SAMPLE_PROJECT, { git: true }) }).expect(201);
    for (let i = 0; i < 2; i++) await http().post('/v1/repos').send({ path: makeFixtureRepo({ [`src/m${i}.ts`]: `export const m${i} = ${i};\n` }) }).expect(201);
    await waitFor(async () => (await http().get('/v1/jobs')).body.jobs.every((j: { status: string }) => j.status === 'succeeded'), { what: 'index' });
    await http().post('/v1/tasks').send({ tasks: Array.from({ length: 7 }, (_, i) => ({ id: `PG-${i}`, title: `Paged task ${i}`, files: ['src/auth/session.ts'] })) }).expect(201);
    const search = await http().post('/v1/search').send({ query: 'session refresh', top_k: 5 }).expect(200);
    for (const r of search.body.results.slice(0, 3)) await http().post('/v1/feedback').send({ search_id: search.body.search_id, item_id: r.id, rating: 1 }).expect(200);
    for (let i = 0; i < 3; i++) {
      await t.app.get(EvalReportsService).publish((await http().get('/v1/auth/me')).body.workspace.id, { title: `Report ${i}`, repo: null, cutoff_date: null, queries: 1, baseline: null, default_strategy: 'weighted', strategies: [], chart_svg: '<svg/>' } as never, 'test');
    }
    // Disabled, so no search in this file starts their servers.
    for (const name of ['src-a', 'src-b', 'src-c']) await http().post('/v1/sources/mcp').send({ name, enabled: false, transport: { type: 'stdio', command: 'true' } }).expect(201);
    for (const w of [1, 2, 3, 4]) await http().put('/v1/weights').send({ query_class: 'specific', weights: { 'file.dense': w } }).expect(200);
    expect(reg.body.job).not.toBeNull();
  }, 120_000);
  afterAll(() => t.close());

  it.each([
    ['/v1/repos', 'repositories', RepositoryListResponseSchema, 3],
    ['/v1/jobs', 'jobs', IndexJobListResponseSchema, 3],
    ['/v1/tasks', 'tasks', TaskListResponseSchema, 7],
    ['/v1/keys', 'keys', ApiKeyListResponseSchema, 3],
    ['/v1/workspaces', 'workspaces', WorkspaceListResponseSchema, 4],
    ['/v1/feedback/recent', 'ratings', FeedbackRecentResponseSchema, 3],
    ['/v1/eval/reports', 'reports', EvalReportListResponseSchema, 3],
    ['/v1/weights/history?query_class=specific', 'versions', WeightsHistoryResponseSchema, null],
    ['/v1/sources/mcp', 'sources', McpSourceListResponseSchema, 3],
  ] as const)('GET %s: pages of 2 add up to the whole list, each item once, ending with next_cursor null', async (route, field, schema, expected) => {
    const all = (await http().get(route).expect(200)).body[field] as Array<Record<string, string>>;
    // Weight versions: the 4 set above, the defaults (version 0), and any the ratings above learned.
    const count = expected ?? all.length;
    if (expected === null) expect(all.length).toBeGreaterThanOrEqual(5);
    expect(all).toHaveLength(count);
    const { items, pages } = await walk<Record<string, string>>(route, field, schema, 2);
    expect(pages).toBe(Math.ceil(count / 2));
    const key = (x: Record<string, string>) => x.id ?? (x.search_id ? `${x.search_id}/${x.item_id}` : `v${x.version}`);
    expect(items.map(key)).toEqual(all.map(key));
    expect(new Set(items.map(key)).size).toBe(count);
  });

  it('every readable operation answers with the schema its OpenAPI document promises', async () => {
    const doc = (await http().get('/docs/openapi.json').expect(200)).body as { paths: Record<string, Record<string, Operation>> };
    const ids: Record<string, string> = {
      '/v1/repos/{id}': (await http().get('/v1/repos')).body.repositories[0].id,
      '/v1/jobs/{id}': (await http().get('/v1/jobs')).body.jobs[0].id,
      '/v1/tasks/{id}': (await http().get('/v1/tasks')).body.tasks[0].id,
      '/v1/eval/reports/{id}': (await http().get('/v1/eval/reports')).body.reports[0].id,
    };
    const queries: Record<string, Record<string, string>> = {
      '/v1/weights/history': { query_class: 'specific' },
      '/v1/feedback': { search_id: (await http().get('/v1/feedback/recent')).body.ratings[0].search_id },
    };
    const ajv = new Ajv({ strict: false, allErrors: true });
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const [method, p, op] of operationsOf(doc)) {
      const schema = op.responses['200']?.content?.['application/json']?.schema;
      const required = (op.parameters ?? []).filter((x) => x.in === 'query' && (x as { required?: boolean }).required).map((x) => x.name);
      const url = p.includes('{') ? (ids[p] ? p.replace(/\{[^}]+\}/, ids[p]) : null) : p;
      if (method !== 'get' || !schema || !url || required.some((q) => !queries[p]?.[q])) continue;
      const res = await http().get(url).query(queries[p] ?? {});
      if (res.status !== 200) {
        wrong.push(`GET ${p}: ${res.status} ${res.body?.detail ?? ''}`);
        continue;
      }
      if (!ajv.validate(schema, res.body)) wrong.push(`GET ${p}: ${ajv.errorsText(ajv.errors)}`);
      checked.push(p);
    }
    expect(wrong).toEqual([]);
    expect(checked).toEqual(expect.arrayContaining(['/v1/repos', '/v1/repos/{id}', '/v1/jobs', '/v1/tasks', '/v1/tasks/{id}', '/v1/keys', '/v1/workspaces', '/v1/auth/me', '/v1/weights', '/v1/weights/history', '/v1/feedback', '/v1/feedback/recent', '/v1/eval/reports', '/v1/eval/reports/latest', '/v1/ranker', '/health']));
  });

  it('limit=1 returns one item (jobs too), and a cursor this server did not hand out is a 400 problem', async () => {
    const one = await http().get('/v1/jobs').query({ limit: 1 }).expect(200);
    expect(one.body.jobs).toHaveLength(1);
    expect(one.body.next_cursor).toEqual(expect.any(String));
    for (const route of ['/v1/repos', '/v1/tasks', '/v1/keys', '/v1/workspaces', '/v1/feedback/recent', '/v1/eval/reports', '/v1/jobs', '/v1/weights/history?query_class=specific', '/v1/sources/mcp']) {
      expectProblem(await http().get(route).query({ cursor: 'not-a-cursor' }), 400, 'invalid_input', /cursor/);
      expectProblem(await http().get(route).query({ limit: 0 }), 400, 'validation_failed', /limit/);
    }
  });
});
