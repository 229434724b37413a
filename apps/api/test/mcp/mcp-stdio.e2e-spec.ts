import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_TOOL_NAMES, McpFetchOutputSchema, McpSearchOutputSchema, McpSimilarTasksOutputSchema } from '@sextant/contracts';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { CLI, runCli } from '../helpers/spawn-cli';
import { callTool, SHOP, SHOP_TASKS } from './mcp-fixture';

/** `sextant mcp --stdio` spawned as a local agent would, driven by the SDK's StdioClientTransport (needs the built CLI). */
describe('sextant mcp --stdio', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-mcp-stdio-')));
  const dataDir = path.join(base, 'data');
  // SQLite in the data dir: the indexing CLI and the MCP process share it.
  const env = { SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: base, DATABASE_URL: '', LOG_LEVEL: 'warn' };
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    const root = makeFixtureRepo(SHOP, { git: true });
    fs.renameSync(root, path.join(base, 'shop'));
    const indexed = await runCli(['index', path.join(base, 'shop'), '--json'], env, 120000);
    expect(indexed.code).toBe(0);
    const tasksFile = path.join(base, 'tasks.jsonl');
    fs.writeFileSync(tasksFile, SHOP_TASKS.map((t) => JSON.stringify(t)).join('\n'));
    expect((await runCli(['tasks', 'import', tasksFile], env)).code).toBe(0);

    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--stdio'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stderr: 'pipe' });
    transport.stderr?.on('data', (d) => (stderr += d));
    client = new Client({ name: 'sextant-stdio-e2e', version: '1.0.0' });
    await client.connect(transport);
  }, 180000);

  afterAll(async () => {
    await client?.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('serves every tool without a key, searches and fetches the local index', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());

    const search = McpSearchOutputSchema.parse((await callTool(client, 'search', { query: 'where is validate_token', top_k: 5 })).structuredContent);
    expect(search.results[0]).toMatchObject({ metadata: { uri: 'src/auth/token.py' } });
    expect(search.results[0].url).toMatch(/^repo:\/\/shop\/src\/auth\/token\.py#L\d+-L\d+$/);

    const fetched = McpFetchOutputSchema.parse((await callTool(client, 'fetch', { objectIds: [search.results[0].id] })).structuredContent);
    expect(fetched.objects[0].content).toContain('def validate_token');

    const tasks = McpSimilarTasksOutputSchema.parse((await callTool(client, 'search_similar_tasks', { query: 'customers charged twice' })).structuredContent);
    expect(tasks.tasks[0].task_id).toBe('T-101');

    // Local user owns the process: member-only tools are allowed.
    const refresh = await callTool(client, 'refresh_index', {});
    expect(refresh.isError).toBeFalsy();
    expect(stderr).not.toMatch(/Error|at \S+ \(/);
  }, 60000);

  it('refuses to start without choosing a transport', async () => {
    const res = await runCli(['mcp'], env);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/--stdio/);
  });
});
