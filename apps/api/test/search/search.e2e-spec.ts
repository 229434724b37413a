import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchSource } from '@sextant/contracts';
import { DataSource } from 'typeorm';
import request from 'supertest';
import { formatSearchTable } from '../../src/cli/commands/search.command';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { SearchLogService } from '../../src/modules/fusion/search-log.service';
import { SearchService } from '../../src/modules/fusion/search.service';
import { makeFixtureRepo, SAMPLE_PROJECT, writeFiles } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/** A repository whose billing code never mentions the words users use for it. */
const PROJECT: Record<string, string> = {
  ...SAMPLE_PROJECT,
  'src/billing/ledger.ts': `export class Ledger {\n  private entries: Array<{ amount: number; memo: string }> = [];\n  post(amount: number, memo: string): void {\n    this.entries.push({ amount, memo });\n  }\n  balance(): number {\n    return this.entries.reduce((sum, e) => sum + e.amount, 0);\n  }\n}\n`,
  'src/http/router.ts': `export function route(path: string, handler: () => void) {\n  return { path, handler };\n}\n`,
  // A test that holds a report's words, beside the code it tests.
  'src/report/csv.ts': `/** Rows to CSV text. */\nexport function toCsv(rows: string[][]): string {\n  return rows.map((r) => r.join(',')).join('\\n');\n}\n`,
  'test/report/csv.spec.ts': `import { toCsv } from '../../src/report/csv';\n\ndescribe('toCsv', () => {\n  it('quotes cells holding commas', () => {\n    expect(toCsv([['a,b', 'c']])).toBe('"a,b",c');\n  });\n});\n`,
  // Shares every word of a pasted `pip list` and download log, and nothing with the problem.
  'scripts/pin_deps.py': `"""Pins the development dependencies and logs their download."""\nPINNED = ["attrs", "pluggy", "iniconfig", "urllib3", "certifi", "idna", "packaging", "tomli", "colorama", "virtualenv"]\n\ndef download(logger, name):\n    logger.debug("urllib3 connectionpool: starting new HTTPS connection to pypi.org for %s", name)\n`,
  'test/auth/session.spec.ts': `import { SessionStore } from '../../src/auth/session';\n\ndescribe('SessionStore', () => {\n  it('refreshes', () => {\n    expect(new SessionStore().refresh('x')).toBe(false);\n  });\n});\n`,
};

const TASKS = [
  { id: 'T-101', title: 'Customers were charged twice after a retry', body: 'Duplicate payment entries appeared on invoices when the card processor timed out.', files: ['src/billing/ledger.ts'], created_at: '2024-03-01T10:00:00Z' },
  { id: 'T-102', title: 'Refund flow shows wrong totals', body: 'Money returned to the customer was not reflected.', files: ['src/billing/ledger.ts'], created_at: '2024-04-01T10:00:00Z' },
  { id: 'T-103', title: 'Login sessions expire too early', body: 'Users are logged out after five minutes.', files: ['src/auth/session.ts'], created_at: '2024-05-01T10:00:00Z' },
  { id: 'T-104', title: 'Old task touching a deleted file', body: 'Nothing', files: ['src/removed/gone.ts'], created_at: '2020-01-01T10:00:00Z' },
];

describe('search (real app, SQLite + embedded store)', () => {
  let t: TestApp;
  let repoId: string;
  let root: string;
  const api = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    root = makeFixtureRepo(PROJECT, { git: true });
    const reg = await api().post('/v1/repos').send({ path: root, name: 'shop' }).expect(201);
    repoId = reg.body.id;
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
    const imported = await api().post('/v1/tasks').send({ tasks: TASKS }).expect(201);
    expect(imported.body).toMatchObject({ imported: 4, updated: 0, skipped: 0 });
  });
  afterAll(() => t.close());

  it('an identifier query puts the file defining it first ("where is validate_token")', async () => {
    // Cold start (first embed, first queries): a generous per-source timeout keeps this about ranking, not machine load.
    const res = await api().post('/v1/search').send({ query: 'where is validate_token', timeout_ms: 15000 }).expect(200);
    expect(res.body.query_class).toBe('specific');
    expect(res.body.results[0]).toMatchObject({ path: 'src/auth/token.py', repo_name: 'shop', kind: 'file' });
    const top = res.body.results[0];
    expect(top.explain.sources.map((s: { source: string }) => s.source)).toContain('file.symbol');
    expect(top.explain.hit_reasons.some((r: string) => r.startsWith('symbol:exact:'))).toBe(true);
    expect(top.chunk.snippet).toContain('validate_token');
    expect(res.body.search_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a conceptual query finds the file a similar past task touched, though the file shares no words with the query', async () => {
    const query = 'customers charged twice for the same payment';
    const fileOnly = await api().post('/v1/search').send({ query, sources: ['file.dense', 'file.keyword', 'file.symbol'] }).expect(200);
    expect(fileOnly.body.results.slice(0, 1).map((r: { path: string }) => r.path)).not.toContain('src/billing/ledger.ts');
    const res = await api().post('/v1/search').send({ query }).expect(200);
    expect(res.body.query_class).toBe('conceptual');
    const ledger = res.body.results.find((r: { path: string }) => r.path === 'src/billing/ledger.ts');
    expect(ledger).toBeDefined();
    expect(ledger.rank).toBe(1);
    expect(ledger.explain.related_tasks[0]).toMatchObject({ task_id: 'T-101', title: 'Customers were charged twice after a retry' });
    expect(ledger.chunk).not.toBeNull(); // evidence hydrated for a task-only file
    // A task's file that no longer exists is never returned.
    expect(res.body.results.map((r: { path: string }) => r.path)).not.toContain('src/removed/gone.ts');
  });

  it('every strategy returns explained results; every fusing strategy puts the defining source file first', async () => {
    const wrong: string[] = [];
    for (const strategy of ['rrf', 'weighted', 'cascade', 'vote', 'concat']) {
      const res = await api().post('/v1/search').send({ query: 'SessionStore refresh', strategy }).expect(200);
      expect(res.body.strategy).toBe(strategy);
      // concat is the no-fusion ablation: it just appends source lists, so it is only checked for explanations.
      if (strategy !== 'concat' && res.body.results[0]?.path !== 'src/auth/session.ts') wrong.push(`${strategy}: ${res.body.results.slice(0, 3).map((r: { path: string; score: number }) => `${r.path}=${r.score}`).join(', ')}`);
      for (const r of res.body.results) expect(r.explain.sources.length).toBeGreaterThan(0);
    }
    expect(wrong).toEqual([]);
  });

  it('the structural prior ranks a test file below the source file it tests when sources agree', async () => {
    const res = await api().post('/v1/search').send({ query: 'SessionStore refresh', sources: ['file.keyword', 'file.dense'], strategy: 'rrf' }).expect(200);
    const spec = res.body.results.find((r: { path: string }) => r.path === 'test/report/csv.spec.ts');
    expect(spec.explain.prior).toBeLessThan(1);
    expect(spec.explain.hit_reasons).toContain(`prior:${spec.explain.prior}`);
    // rrf weighs each source's score by the prior before fusing; the fused score is not multiplied again.
    expect(spec.explain.prior_applied).toBe('sources');
    expect(spec.score).toBeCloseTo(spec.explain.score_before_prior, 6);
  });

  it('keyword AND falls back to OR and says so in limits', async () => {
    const res = await api().post('/v1/search').send({ query: 'Ledger zzzunmatchedterm', sources: ['file.keyword'] }).expect(200);
    expect(res.body.limits.join(' ')).toMatch(/fell back to OR/);
    expect(res.body.results[0].path).toBe('src/billing/ledger.ts');
  });

  it('filters: language, include/exclude globs, repository name; pathological glob -> 400', async () => {
    const py = await api().post('/v1/search').send({ query: 'token cache', filters: { langs: ['python'] } }).expect(200);
    expect(py.body.results.length).toBeGreaterThan(0);
    for (const r of py.body.results) expect(r.path.endsWith('.py')).toBe(true);
    const inc = await api().post('/v1/search').send({ query: 'session', filters: { include: ['src/**'], exclude: ['**/*.py'] } }).expect(200);
    for (const r of inc.body.results) expect(r.path.startsWith('src/') && !r.path.endsWith('.py')).toBe(true);
    await api().post('/v1/search').send({ query: 'x', filters: { include: ['**/'.repeat(20)] } }).expect(400);
    await api().post('/v1/search').send({ query: 'x', filters: { repos: ['no-such-repo'] } }).expect(400);
    const byName = await api().post('/v1/search').send({ query: 'Ledger', filters: { repos: ['shop'] } }).expect(200);
    expect(byName.body.results[0].repo_id).toBe(repoId);
  });

  it('chunk granularity returns chunk ids with line ranges', async () => {
    const res = await api().post('/v1/search').send({ query: 'Ledger balance', granularity: 'chunk', top_k: 5 }).expect(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const r of res.body.results) {
      expect(r.kind).toBe('chunk');
      expect(r.id).toBe(r.chunk.id);
      expect(r.chunk.end_line).toBeGreaterThanOrEqual(r.chunk.start_line);
    }
    // The first chunk results cover different files, in the order of the file results.
    const files = await api().post('/v1/search').send({ query: 'Ledger balance', top_k: 5 }).expect(200);
    const filePaths = files.body.results.map((r: { path: string }) => r.path);
    const firstLayer = res.body.results.slice(0, Math.min(filePaths.length, res.body.results.length)).map((r: { path: string }) => r.path);
    expect(filePaths.length).toBeGreaterThan(1);
    expect(firstLayer).toEqual(filePaths.slice(0, firstLayer.length));
  });

  it('takes a long issue report whole: the file named by a traceback frame comes first and the keyword cut is reported', async () => {
    const log = Array.from({ length: 180 }, (_, i) => `2024-05-0${i % 9} worker-${i} heartbeat latency=${i}ms queue=${i * 7} status=ok region=eu-${i % 5}`).join('\n');
    const report = [
      'Clamping a negative page size returns garbage',
      '',
      'Steps: call the API with page_size=-5 from the mobile checkout while the inventory sync job runs. The service crashes and the balancer marks the node unhealthy.',
      'Traceback (most recent call last):',
      '  File "/opt/service/vendor/github.com/acme/shop/src/util/math.go", line 5, in Clamp',
      'panic: runtime error',
      '',
      log,
    ].join('\n');
    expect(report.length).toBeGreaterThan(12_000);
    const res = await api().post('/v1/search').send({ query: report, timeout_ms: 15000 }).expect(200);
    expect(res.body.query).toBe(report); // nothing cut
    expect(res.body.results[0].path).toBe('src/util/math.go');
    expect(res.body.results[0].explain.hit_reasons).toContainEqual(expect.stringMatching(/^mention:frame:.*src\/util\/math\.go:Clamp$/));
    expect(res.body.limits).toContainEqual(expect.stringMatching(/^query: \d+ distinct terms; the keyword sources searched the 32 strongest/));
    expect(res.body.match).toBe('strong');
  });

  it('takes a whole GitHub-sized issue (65k characters): a traceback frame after 60k characters of log still names the file', async () => {
    const log = Array.from({ length: 900 }, (_, i) => `2024-05-0${i % 9} worker-${i} heartbeat latency=${i}ms queue=${i * 7} status=ok region=eu-${i % 5}`).join('\n');
    const report = ['Negative page sizes crash the service', '', log.slice(0, 60_000), 'Traceback (most recent call last):', '  File "/opt/service/src/util/math.go", line 5, in Clamp', 'panic: runtime error'].join('\n');
    expect(report.length).toBeGreaterThan(60_000);
    expect(report.length).toBeLessThan(66_000);
    const res = await api().post('/v1/search').send({ query: report, timeout_ms: 15000 }).expect(200);
    expect(res.body.query).toBe(report);
    expect(res.body.results[0].path).toBe('src/util/math.go');
    expect(res.body.results[0].explain.hit_reasons).toContainEqual(expect.stringMatching(/^mention:frame:.*src\/util\/math\.go:Clamp$/));
  });

  it('a problem report (code block) gets its code file first, ahead of the test; the same words as plain text do not', async () => {
    const words = "expect quotes cells holding commas: CSV rows";
    const plain = await api().post('/v1/search').send({ query: words }).expect(200);
    const paths = (res: request.Response) => res.body.results.map((r: { path: string }) => r.path);
    // The test file holds these very words, so as a plain query it leads.
    expect(paths(plain)[0]).toBe('test/report/csv.spec.ts');
    expect(paths(plain)).toContain('src/report/csv.ts');
    for (const r of plain.body.results) expect(r.explain.hit_reasons.join(' ')).not.toMatch(/report:/);

    const report = await api().post('/v1/search').send({ query: `CSV export breaks on commas\n\n\`\`\`ts\n${words}\n\`\`\`` }).expect(200);
    expect(paths(report)[0]).toBe('src/report/csv.ts');
    expect(report.body.results[0].explain.hit_reasons).toContainEqual(expect.stringMatching(/^report:code-first:[2-5]$/));
    // Only the code file moved: the test it passed is right behind it.
    expect(paths(report)[1]).toBe('test/report/csv.spec.ts');
    expect(report.body.results.filter((r: { explain: { hit_reasons: string[] } }) => r.explain.hit_reasons.some((h) => h.startsWith('report:')))).toHaveLength(1);
    // The CLI table says why the code leads.
    const table = formatSearchTable(report.body);
    expect(table).toMatch(/report\/csv\.ts:\d+-\d+\n.*\n\s+query evidence: code first for a problem report \(was #[2-5], behind tests or docs\)/);
    expect(table.split('\n')[0]).toMatch(/^\d+ result\(s\) for "CSV export breaks on commas ```ts expect quotes/); // one line, whatever the query's line breaks
    // Scores stay in result order.
    const scores = report.body.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("an issue report's pasted pip list and download log do not outweigh its problem (they are left out of the keyword terms)", async () => {
    const pipList = ['Package    Version', '---------- -------', 'attrs      23.1.0', 'pluggy     1.2.0', 'iniconfig  2.0.0', 'urllib3    2.0.4', 'certifi    2023.7.22', 'idna       3.4', 'packaging  23.1', 'tomli      2.0.1', 'colorama   0.4.6', 'virtualenv 20.24.3'];
    const log = Array.from({ length: 6 }, (_, i) => `2023-09-14 10:21:0${i},118 DEBUG urllib3.connectionpool Starting new HTTPS connection (${i}): pypi.org:443`);
    const report = ['Session refresh keeps sessions alive', '', 'SessionStore refresh returns true for a session that was never created.', '', ...pipList, '', ...log].join('\n');
    const res = await api().post('/v1/search').send({ query: report }).expect(200);
    // The session code and its test lead; the script that only shares the pasted lines comes after them.
    expect(res.body.results.slice(0, 2).map((r: { path: string }) => r.path)).toEqual(['src/auth/session.ts', 'test/auth/session.spec.ts']);
    expect(res.body.limits).toContainEqual('query: 18 lines of version lists, logs and environment left out of the keyword terms');
    // The same words without the problem's sentence still find the dependency script: nothing is filtered by file.
    const deps = await api().post('/v1/search').send({ query: 'pluggy iniconfig urllib3 connectionpool' }).expect(200);
    expect(deps.body.results[0].path).toBe('scripts/pin_deps.py');
  });

  it("a pasted commit message's trailers are left out: the subject's results, said in limits, the query echoed as asked", async () => {
    const subject = 'customers charged twice for the same payment';
    // The trailer's name and address share words with the session code; left in, they would pull it up.
    const message = `${subject}\n\nCo-authored-by: Session Store <session.refresh@shop.example>\nSigned-off-by: Session Refresh <refresh@shop.example>`;
    const plain = await api().post('/v1/search').send({ query: subject, top_k: 5 }).expect(200);
    const pasted = await api().post('/v1/search').send({ query: message, top_k: 5 }).expect(200);
    expect(pasted.body.results.map((r: { path: string }) => r.path)).toEqual(plain.body.results.map((r: { path: string }) => r.path));
    expect(pasted.body.limits).toContainEqual('query: 2 commit trailer lines (Signed-off-by, Co-authored-by, …) left out');
    expect(pasted.body.query).toBe(message);
    // The trailer's words do move the session code up when they are what is asked.
    const names = await api().post('/v1/search').send({ query: `${subject}\n\nSession Store session.refresh Session Refresh refresh`, top_k: 5 }).expect(200);
    const sessionRank = (body: { results: Array<{ path: string }> }) => body.results.findIndex((r) => r.path === 'src/auth/session.ts');
    expect(sessionRank(names.body)).toBeGreaterThanOrEqual(0);
    expect(sessionRank(names.body)).toBeLessThan(sessionRank(plain.body) === -1 ? 5 : sessionRank(plain.body));
  });

  it('flags a query nothing matches lexically as a weak match instead of presenting neighbours as answers', async () => {
    const res = await api().post('/v1/search').send({ query: 'zzqqxxnonexistentterm' }).expect(200);
    expect(res.body.match).toBe('weak');
    expect(res.body.match_reason).toBe('embedding_only');
    expect(formatSearchTable(res.body).split('\n')[1]).toBe('Weak match: no keyword, symbol or past-task hit; these are only the nearest embeddings.');
    const strong = await api().post('/v1/search').send({ query: 'validate_token' }).expect(200);
    expect(strong.body.match).toBe('strong');
    expect(strong.body).not.toHaveProperty('match_reason');
    expect(formatSearchTable(strong.body)).not.toMatch(/weak match/i);
    // Words matched but the learned ranker rated the best file unlikely: the CLI says that, not "no hit".
    const unlikely = { ...strong.body, match: 'weak', match_reason: 'low_relevance', results: strong.body.results.map((r: { score: number }, i: number) => ({ ...r, score: i ? 0.01 : 0.042 })) };
    expect(formatSearchTable(unlikely).split('\n')[1]).toBe('Weak match: words matched, but the learned ranker gives the best result only a 4.2 % chance of being a file a past task like this changed.');
  });

  it('rejects invalid requests with 400', async () => {
    await api().post('/v1/search').send({ query: '' }).expect(400);
    await api().post('/v1/search').send({ query: 'x', top_k: 101 }).expect(400);
    const tooLong = await api().post('/v1/search').send({ query: 'y'.repeat(66_001) }).expect(400);
    expect(JSON.stringify(tooLong.body)).toMatch(/longer than 66000 characters/);
    await api().post('/v1/search').send({ query: 'x', strategy: 'magic' }).expect(400);
    await api().post('/v1/search').send({ query: 'x', surprise: true }).expect(400);
  });

  it('logs every search as a pool with each source’s ranks and the weights version', async () => {
    const res = await api().post('/v1/search').send({ query: 'Ledger post amount' }).expect(200);
    await t.app.get(SearchLogService).flush(); // the pool is written after the response
    const db = t.app.get(DataSource);
    const [log] = await db.query('SELECT * FROM search_logs WHERE id = $1'.replace('$1', db.options.type === 'postgres' ? '$1' : '?'), [res.body.search_id]);
    expect(log).toMatchObject({ query: 'Ledger post amount', strategy: 'weighted', weights_version: 0 });
    const pool = await db.query(`SELECT source, rank, item_id FROM search_pool WHERE search_id = ${db.options.type === 'postgres' ? '$1' : '?'}`, [res.body.search_id]);
    expect(pool.length).toBeGreaterThan(0);
    expect(pool).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'file.keyword', rank: 1, item_id: `file:${repoId}:src/billing/ledger.ts` })]));
  });

  it('searches logged in the same turn share one write, and one that cannot be stored loses only its own pool', async () => {
    const logs = t.app.get(SearchLogService);
    const db = t.app.get(DataSource);
    const mark = db.options.type === 'postgres' ? '$1' : '?';
    const [{ id: workspaceId }] = await db.query('SELECT id FROM workspaces LIMIT 1');
    const header = (searchId: string, query: string | null) => ({ searchId, workspaceId, principal: 'local', query: query as string, queryClass: 'nl', strategy: 'weighted', granularity: 'file', weights: { 'file.keyword': 1 }, weightsVersion: 0, resultCount: 1, latencyMs: 3.4 });
    const ranking = [{ source: 'file.keyword' as const, items: [{ id: 'file:r:a.ts', score: 2 }, { id: 'file:r:b.ts', score: 1 }] }];
    const errors: string[] = [];
    const writes = jest.spyOn(t.app.get(TransactionRunner), 'run');
    logs.recordInBackground(header('0b6f5b0e-0000-4000-8000-00000000000a', 'a'), ranking);
    logs.recordInBackground(header('0b6f5b0e-0000-4000-8000-00000000000b', 'b'), ranking);
    await logs.flush();
    expect(writes).toHaveBeenCalledTimes(1);
    writes.mockRestore();
    const ids = ['0b6f5b0e-0000-4000-8000-000000000001', '0b6f5b0e-0000-4000-8000-000000000002', '0b6f5b0e-0000-4000-8000-000000000003'];
    logs.recordInBackground(header(ids[0], 'first'), ranking, [], () => errors.push(ids[0]));
    // query is NOT NULL: this row fails the shared transaction, which must not take the other two with it.
    logs.recordInBackground(header(ids[1], null), ranking, [], () => errors.push(ids[1]));
    logs.recordInBackground(header(ids[2], 'third'), ranking, [{ source: 'file.dense', itemId: 'chunk:x', rank: 1, score: 0.5 }], () => errors.push(ids[2]));
    await logs.flush();
    expect(errors).toEqual([ids[1]]);
    for (const [id, poolSize] of [[ids[0], 2], [ids[2], 3]] as const) {
      const [log] = await db.query(`SELECT query, latency_ms, weights FROM search_logs WHERE id = ${mark}`, [id]);
      expect(log).toMatchObject({ latency_ms: 3 });
      expect(JSON.parse(log.weights)).toEqual({ 'file.keyword': 1 });
      const pool = await db.query(`SELECT source, rank, item_id FROM search_pool WHERE search_id = ${mark} ORDER BY source, rank`, [id]);
      expect(pool).toHaveLength(poolSize);
      expect(pool[pool.length - 1]).toMatchObject({ source: 'file.keyword', rank: 2, item_id: 'file:r:b.ts' });
    }
    expect(await db.query(`SELECT id FROM search_logs WHERE id = ${mark}`, [ids[1]])).toEqual([]);
    expect(await logs.pool(workspaceId, ids[2])).toHaveLength(3);
  });

  it('a source that throws or hangs is dropped and reported in limits; the others still answer', async () => {
    const search = t.app.get(SearchService);
    const original = (search as unknown as { execute: (...a: unknown[]) => Promise<unknown> }).execute.bind(search);
    const spy = jest.spyOn(search as unknown as { execute: (s: SearchSource, ...rest: unknown[]) => Promise<unknown> }, 'execute').mockImplementation((source: SearchSource, ...rest: unknown[]) => {
      if (source === 'file.dense') return Promise.reject(new Error('vector store exploded'));
      if (source === 'task.dense') return new Promise(() => undefined); // never answers
      return original(source, ...rest);
    });
    try {
      const res = await api().post('/v1/search').send({ query: 'where is validate_token', timeout_ms: 1000 }).expect(200);
      expect(res.body.results[0].path).toBe('src/auth/token.py');
      expect(res.body.limits).toEqual(expect.arrayContaining([expect.stringMatching(/^file\.dense: failed: vector store exploded/), 'task.dense: timed out after 1000 ms']));
    } finally {
      spy.mockRestore();
    }
  });

  it('caches identical searches and drops the cache when the index changes', async () => {
    const body = { query: 'Clamp limits value', top_k: 5 };
    const first = await api().post('/v1/search').send(body).expect(200);
    const second = await api().post('/v1/search').send(body).expect(200);
    expect(first.body.cached).toBe(false);
    expect(second.body.cached).toBe(true);
    expect(second.body.results).toEqual(first.body.results);
    expect(second.body.search_id).not.toBe(first.body.search_id);
    writeFiles(root, { 'src/util/limits.go': 'package util\n\n// ClampLimitsValue clamps limits value.\nfunc ClampLimitsValue(v int) int { return v }\n' });
    const job = await api().post(`/v1/repos/${repoId}/index`).send({}).expect(202);
    await waitFor(async () => (await api().get(`/v1/jobs/${job.body.id}`)).body.status === 'succeeded', { what: 're-index' });
    const third = await api().post('/v1/search').send(body).expect(200);
    expect(third.body.cached).toBe(false);
    expect(third.body.results.map((r: { path: string }) => r.path)).toContain('src/util/limits.go');
  });

  it('tasks: browse, find similar, fetch one; bad bulk item -> 400 and nothing written', async () => {
    const list = await api().get('/v1/tasks').expect(200);
    expect(list.body.total).toBe(4);
    const similar = await api().get('/v1/tasks').query({ query: 'charged twice' }).expect(200);
    expect(similar.body.tasks[0].external_id).toBe('T-101');
    const one = await api().get('/v1/tasks/T-103').expect(200);
    expect(one.body).toMatchObject({ title: 'Login sessions expire too early', files: ['src/auth/session.ts'] });
    await api().post('/v1/tasks').send({ tasks: [{ id: 'ok', title: 'fine' }, { id: 'bad' }] }).expect(400);
    expect((await api().get('/v1/tasks').expect(200)).body.total).toBe(4);
  });

  it('an exact definition is found even when hundreds of other definitions share a query identifier as prefix', async () => {
    // 400 definitions start with `aa_run`; `zz_target` sorts after all of them.
    const crowd = makeFixtureRepo({
      'lib/runners.py': Array.from({ length: 400 }, (_, i) => `def aa_run_${i}():\n    return ${i}\n`).join('\n'),
      'lib/target.py': 'def zz_target():\n    return 0\n',
    });
    const reg = await api().post('/v1/repos').send({ path: crowd, name: 'crowd' }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
    const res = await api().post('/v1/search').send({ query: 'aa_run zz_target', sources: ['file.symbol'], filters: { repos: ['crowd'] } }).expect(200);
    expect(res.body.results[0]).toMatchObject({ path: 'lib/target.py', repo_name: 'crowd' });
    expect(res.body.results[0].explain.hit_reasons).toContain('symbol:exact:lib/target.py:zz_target');
  });

  it('a file removed from the repository stops coming back through the tasks that touched it once re-indexed', async () => {
    const body = { query: 'Login sessions expire too early', sources: ['task.keyword'] };
    const before = await api().post('/v1/search').send(body).expect(200);
    expect(before.body.results.map((r: { path: string }) => r.path)).toContain('src/auth/session.ts');
    fs.rmSync(path.join(root, 'src/auth/session.ts'));
    const job = await api().post(`/v1/repos/${repoId}/index`).send({}).expect(202);
    await waitFor(async () => (await api().get(`/v1/jobs/${job.body.id}`)).body.status === 'succeeded', { what: 're-index' });
    const after = await api().post('/v1/search').send(body).expect(200);
    expect(after.body.results.map((r: { path: string }) => r.path)).not.toContain('src/auth/session.ts');
  });
});
