/**
 * Files whose content is not indexed but which past tasks changed with the code (lockfiles,
 * build output, files too large to read) are still files task search can name, marked
 * history-only; secrets, binaries and ignored paths never are. Files git tracks although
 * `.gitignore` matches them are indexed like any other.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { HISTORY_ONLY_NOTE, HISTORY_ONLY_REASON, SearchResponseSchema } from '@sextant/contracts';
import { git, makeFixtureRepo } from '../helpers/fixture-repo';
import { runCli } from '../helpers/spawn-cli';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "shop", "dependencies": { "leftpad": "1.0.0" } }\n',
  'package-lock.json': '{ "name": "shop", "lockfileVersion": 3, "packages": { "node_modules/leftpad": { "version": "1.0.0" } } }\n',
  'src/cart.ts': 'export function cartTotal(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
  'src/types/store.ts': 'export interface WarehouseStore {\n  restockShelves(): void;\n}\n',
  'public/vendor.min.js': 'var a=1;',
  'assets/logo.png': 'PNG',
  '.env': 'PAYMENT_TOKEN=sk_live_never_indexed\n',
};

const DEPENDENCY_TASKS = ['leftpad', 'rightpad', 'uuid', 'lodash', 'dayjs'].map((name, i) => ({
  id: `DEP-${i}`,
  title: `Add the ${name} dependency for cart formatting`,
  body: '',
  files: ['package.json', 'package-lock.json', 'src/cart.ts', 'public/vendor.min.js', 'assets/logo.png', '.env'],
  created_at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
}));

describe('history-only files (real app, SQLite + embedded store)', () => {
  let t: TestApp;
  let root: string;
  let repoId: string;
  const api = () => request(t.app.getHttpServer());
  const search = async (body: Record<string, unknown>) => SearchResponseSchema.parse((await api().post('/v1/search').send(body).expect(200)).body);
  const reindex = async () => {
    const job = (await api().post(`/v1/repos/${repoId}/index`).send({}).expect((r) => expect([200, 201, 202]).toContain(r.status))).body;
    await waitFor(async () => (await api().get(`/v1/jobs/${job.id}`)).body.status === 'succeeded', { what: 're-index' });
  };

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    root = makeFixtureRepo(PROJECT, { git: true });
    // Added after src/types/ was committed: git ignores untracked files only, so store.ts stays part of the repository.
    writeFileSync(join(root, '.gitignore'), 'types\n');
    git(root, 'add', '.gitignore');
    git(root, 'commit', '-q', '-m', 'ignore the types build output');
    const reg = await api().post('/v1/repos').send({ path: root, name: 'shop' }).expect(201);
    repoId = reg.body.id;
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
    await api().post('/v1/tasks').send({ tasks: DEPENDENCY_TASKS }).expect(201);
  }, 60_000);
  afterAll(() => t?.close());

  it('lets task search name the lockfile and build output past tasks changed, marked history-only, and never a secret or a binary', async () => {
    const res = await search({ query: 'Add the zod dependency for cart formatting', sources: ['task.keyword', 'task.dense'] });
    const byPath = new Map(res.results.map((r) => [r.path, r]));
    expect(byPath.get('package-lock.json')?.explain.hit_reasons).toContain(HISTORY_ONLY_REASON);
    expect(byPath.get('public/vendor.min.js')?.explain.hit_reasons).toContain(HISTORY_ONLY_REASON);
    expect(byPath.get('src/cart.ts')?.explain.hit_reasons).not.toContain(HISTORY_ONLY_REASON);
    expect(byPath.has('.env')).toBe(false);
    expect(byPath.has('assets/logo.png')).toBe(false);
    // Nothing of the lockfile was read: no chunk, no keyword hit.
    const keyword = await search({ query: 'lockfileVersion', sources: ['file.keyword'] });
    expect(keyword.results.map((r) => r.path)).not.toContain('package-lock.json');
  });

  it('indexes a file git tracks although .gitignore matches it', async () => {
    const res = await search({ query: 'WarehouseStore restockShelves', sources: ['file.keyword', 'file.symbol'] });
    expect(res.results[0]?.path).toBe('src/types/store.ts');
  });

  it('counts history-only files by state, not by language', async () => {
    const detail = (await api().get(`/v1/repos/${repoId}`).expect(200)).body;
    expect(detail.files.by_state.history).toBe(2); // package-lock.json, public/vendor.min.js
    expect(Object.values(detail.files.by_language as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(detail.files.total - 2);
  });

  it('says why the file view has nothing to show for a history-only file', async () => {
    const res = await api().get(`/v1/repos/${repoId}/file`).query({ path: 'package-lock.json' }).expect(404);
    expect(JSON.stringify(res.body)).toContain('known from the task history only');
  });

  // The MCP search tool returns chunks, and a history-only file has none: it does not appear there.
  it('the CLI says the file is history-only', async () => {
    const query = 'Add the zod dependency for cart formatting';
    const env = { SEXTANT_DATA_DIR: t.dataDir, DATABASE_URL: t.config.storage.databaseUrl ?? '' };
    const cli = await runCli(['search', '--sources', 'task.keyword,task.dense', query], env, 60_000);
    expect(cli.code).toBe(0);
    const block = cli.stdout.slice(cli.stdout.indexOf('package-lock.json'));
    expect(block.split('\n').slice(0, 6).join('\n')).toContain(HISTORY_ONLY_NOTE);
  }, 90_000);

  it('keeps the file through re-indexing and drops it once it is gone', async () => {
    writeFileSync(join(root, 'package-lock.json'), '{ "name": "shop", "lockfileVersion": 3 }\n');
    await reindex();
    const query = { query: 'Add the zod dependency for cart formatting', sources: ['task.keyword'] };
    expect((await search(query)).results.map((r) => r.path)).toContain('package-lock.json');
    rmSync(join(root, 'package-lock.json'));
    await reindex();
    expect((await search(query)).results.map((r) => r.path)).not.toContain('package-lock.json');
  }, 60_000);
});
