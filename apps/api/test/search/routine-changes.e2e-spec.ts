import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { RankerStatusSchema, SearchResponseSchema, routineHit } from '@sextant/contracts';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { callTool, connectClient, textOf } from '../mcp/mcp-fixture';
import { runCli } from '../helpers/spawn-cli';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { vocabularyHistory, vocabularyProject, WORDS } from '../helpers/vocabulary-history';
import { waitFor } from '../helpers/wait';

const MODULES = WORDS.length;
/** Files that talk about versions far more than the changelog does: word search ranks them above it. */
const VERSION_TALK = 16;
/** Plugins released in step with the package: a release touches more files than a top 10 holds. */
const PLUGIN_FILES = Array.from({ length: 12 }, (_, i) => `plugins/p${i}/__init__.py`);
const ROUTINE_FILES = new Set(['src/pkg/__init__.py', 'CHANGES.md', ...PLUGIN_FILES]);
const RELEASE_QUERY = 'Version 1.9.0 (#909)';

function project(): Record<string, string> {
  const files = vocabularyProject(MODULES);
  for (let i = 0; i < VERSION_TALK; i++) files[`src/compat/v${i}.py`] = `"""Version ${i} compatibility: version checks for release ${i}."""\n\ndef version_${i}(version):\n    return version >= ${i}  # version gate\n`;
  files['src/pkg/__init__.py'] = '__version__ = "1.8.0"\n';
  PLUGIN_FILES.forEach((path, i) => (files[path] = `"""Plugin ${i}."""\n__version__ = "1.8.0"\n`));
  // A long changelog: its entries are about features, in words no query here uses.
  files['CHANGES.md'] = `# Changes\n\n${Array.from({ length: 120 }, (_, i) => `- Improved the ${WORDS[i % MODULES]} flow for customers (${i}).`).join('\n')}\n`;
  return files;
}

/**
 * Releases after the everyday history: the first bumps touched only the package version, the
 * five newest also the changelog and every plugin's version (a project that started keeping a
 * changelog and releasing its plugins with the package).
 */
function releases(): Array<{ id: string; title: string; body: string; files: string[]; created_at: string }> {
  return Array.from({ length: 9 }, (_, n) => ({
    id: `REL-${n}`,
    title: `Version 1.${n}.0 (#${900 + n})`,
    body: '',
    files: n < 4 ? ['src/pkg/__init__.py'] : ['src/pkg/__init__.py', 'CHANGES.md', ...PLUGIN_FILES],
    created_at: new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString(),
  }));
}

describe('routine changes (real app, SQLite + embedded store)', () => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());
  const search = async (body: Record<string, unknown>) => SearchResponseSchema.parse((await api().post('/v1/search').send(body).expect(200)).body);

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    const reg = await api().post('/v1/repos').send({ path: makeFixtureRepo(project(), { git: true }), name: 'app' }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
    await api().post('/v1/tasks').send({ tasks: [...vocabularyHistory(200, MODULES), ...releases()] }).expect(201);
    expect(RankerStatusSchema.parse((await api().post('/v1/ranker/train').expect(200)).body).state).toBe('active');
  }, 120_000);
  afterAll(() => t?.close());

  it('keeps what the newest releases touched in the top 10 of the next release, and says why', async () => {
    const res = await search({ query: RELEASE_QUERY });
    // Fourteen files changed in each of the last five releases: the top 10 cannot hold them all
    // beside the files that talk about versions, so some were ranked below it; up to three of
    // them take the places of other files.
    const moved = res.results.map((r) => ({ path: r.path, hit: routineHit(r.explain.hit_reasons) })).filter((r) => r.hit);
    expect(moved.length).toBeGreaterThanOrEqual(1);
    expect(moved.length).toBeLessThanOrEqual(3);
    for (const { path, hit } of moved) {
      expect(ROUTINE_FILES.has(path)).toBe(true);
      expect(hit).toEqual({ touched: 5, window: 5, template: 'version <n>', from: expect.any(Number) });
      expect(hit!.from).toBeGreaterThan(10);
    }
    const top = res.results.slice(0, 10);
    expect(top.map((r) => r.path)).toEqual(expect.arrayContaining(moved.map((m) => m.path)));
    // Routine files the ranker had put in the top 10 are still there: other files made room.
    expect(top.filter((r) => ROUTINE_FILES.has(r.path)).length).toBeGreaterThan(moved.length);
    // Each place keeps its score: scores still decrease down the list.
    expect(res.results.map((r) => r.score)).toEqual([...res.results.map((r) => r.score)].sort((a, b) => b - a));
  });

  it('leaves other queries, and requests that pick a strategy, alone', async () => {
    const everyday = await search({ query: `Customers report ${WORDS[3]} problem` });
    expect(everyday.results.every((r) => routineHit(r.explain.hit_reasons) === null)).toBe(true);
    const chosen = await search({ query: RELEASE_QUERY, strategy: 'rrf' });
    expect(chosen.results.every((r) => routineHit(r.explain.hit_reasons) === null)).toBe(true);
  });

  it('the CLI and the MCP search tool say which routine kept a file in the top 10', async () => {
    const line = /^\s+routine change: 5 of the last 5 past changes like "version <n>" touched it \(was #\d+\)$/m;
    const env = { SEXTANT_DATA_DIR: t.dataDir, DATABASE_URL: t.config.storage.databaseUrl ?? '' };
    const queryFile = join(t.dataDir, 'release.txt');
    writeFileSync(queryFile, RELEASE_QUERY);
    const cli = await runCli(['search', '--query-file', queryFile], env, 60_000);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(line);
    const client = await connectClient(t.url!);
    try {
      expect(textOf(await callTool(client, 'search', { query: RELEASE_QUERY }))).toMatch(line);
    } finally {
      await client.close();
    }
  }, 90_000);
});
