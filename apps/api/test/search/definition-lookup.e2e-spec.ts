/**
 * "where is loadSettings" asks for the definition, while the keyword and history signals favour
 * the test: it names the function thirty times, and the past tasks about it touched the test.
 * The file that defines it comes first and says why (the lift from a lower place is the
 * `liftDefinitionFirst` spec's); a question about its callers, or a commit message naming it,
 * is left to the ranking.
 */
import request from 'supertest';
import { formatSearchTable } from '../../src/cli/commands/search.command';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { callTool, connectClient, textOf } from '../mcp/mcp-fixture';

const FILLER = Array.from({ length: 30 }, (_, i) => `export function helper${i}(value: number): number {\n  return value * ${i + 2} + ${i};\n}\n`).join('\n');
const PROJECT: Record<string, string> = {
  'src/settings/load.ts': `import { readFileSync } from 'node:fs';\n\n${FILLER}\n/** Reads the settings file. */\nexport function loadSettings(file: string): Record<string, string> {\n  return JSON.parse(readFileSync(file, 'utf8'));\n}\n`,
  'test/settings/load.spec.ts': `import { loadSettings } from '../../src/settings/load';\n\ndescribe('loadSettings', () => {\n${Array.from({ length: 30 }, (_, i) => `  it('loadSettings case ${i}', () => {\n    expect(loadSettings('fixtures/settings-${i}.json')).toBeDefined();\n  });\n`).join('')}});\n`,
  'src/cli/main.ts': `import { loadSettings } from '../settings/load';\n\nexport function loadSettingsOrExit(file: string) {\n  try {\n    return loadSettings(file);\n  } catch {\n    process.exit(2);\n  }\n}\n`,
};
const TASKS = Array.from({ length: 12 }, (_, i) => ({
  id: `S-${i}`,
  title: `loadSettings spec: case ${i} for loadSettings fixtures`,
  body: 'More loadSettings coverage.',
  files: ['test/settings/load.spec.ts'],
  created_at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
}));

type Result = { path: string; explain: { hit_reasons: string[] } };

describe('definition lookups (real app)', () => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());
  const search = async (query: string): Promise<Result[]> => (await api().post('/v1/search').send({ query, timeout_ms: 15000 }).expect(200)).body.results;
  const definitionReason = (r: Result) => r.explain.hit_reasons.find((x) => x.startsWith('definition:'));

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    const reg = await api().post('/v1/repos').send({ path: makeFixtureRepo(PROJECT, { git: true }), name: 'app' }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
    await api().post('/v1/tasks').send({ tasks: TASKS }).expect(201);
  });
  afterAll(() => t?.close());

  it('puts the file that defines the named function first, above the test that names it more, and says why', async () => {
    for (const query of ['where is loadSettings', 'loadSettings', 'where is loadSettings defined?']) {
      const results = await search(query);
      expect([query, results[0].path]).toEqual([query, 'src/settings/load.ts']);
      expect(definitionReason(results[0])).toMatch(/^definition:loadSettings:from_rank_\d+$/);
      expect(results.slice(1, 3).map((r) => r.path)).toContain('test/settings/load.spec.ts');
    }
  });

  it('says why in the CLI table and the MCP search text', async () => {
    const res = await api().post('/v1/search').send({ query: 'where is loadSettings', timeout_ms: 15000 }).expect(200);
    expect(formatSearchTable(res.body)).toMatch(/1\. \S+  app\/src\/settings\/load\.ts[^\n]*\n(?:.*\n)*?\s+defines loadSettings, which the query asks for/);
    const mcp = await connectClient(t.url!);
    try {
      const out = await callTool(mcp, 'search', { query: 'where is loadSettings' });
      expect(textOf(out)).toMatch(/^1\. src\/settings\/load\.ts[^\n]*\n(?:   .*\n)*   defines loadSettings, which the query asks for/m);
    } finally {
      await mcp.close();
    }
  });

  it('leaves questions about uses, and commit messages that name the function, to the ranking', async () => {
    for (const query of ['who calls loadSettings', 'Add loadSettings cases for empty fixtures']) {
      const results = await search(query);
      expect([query, results.some((r) => definitionReason(r))]).toEqual([query, false]);
    }
  });
});
