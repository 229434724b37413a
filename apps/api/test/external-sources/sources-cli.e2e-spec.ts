import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/spawn-cli';
import { startHttpStub, type HttpStub } from './stub-servers';

/** `sextant sources mcp …` and `sextant search` against a real MCP server, as an operator runs them (built CLI). */
jest.setTimeout(300_000);

describe('sextant sources mcp (CLI)', () => {
  let stub: HttpStub;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-cli-mcp-'));
  const env = { SEXTANT_DATA_DIR: dataDir, SEXTANT_CLONE_ALLOWED_HOSTS: '127.0.0.1' };

  beforeAll(async () => {
    stub = await startHttpStub({ files: [{ repo: 'other/lib', path: 'docs/session-guide.md', content: 'How session refresh works: call refreshSession before expiry.' }] });
  });
  afterAll(async () => {
    await stub.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds, lists (masked), tests, searches with and removes a server; refuses bad input with exit 3', async () => {
    const add = await runCli(['sources', 'mcp', 'add', 'gh', '--url', stub.url, '--header', 'Authorization: Bearer cli-secret-token', '--priority', '3'], env);
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    expect(add.stdout).toContain(`Added mcp.gh (http: ${stub.url})`);

    const neither = await runCli(['sources', 'mcp', 'add', 'x'], env);
    expect(neither.code).toBe(3);
    expect(neither.stderr).toContain('give exactly one of --command (stdio) or --url (HTTP)');
    const internal = await runCli(['sources', 'mcp', 'add', 'internal', '--url', 'http://10.0.0.1/mcp'], env);
    expect(internal.code).toBe(3);
    expect(internal.stderr).toMatch(/internal address/);
    const badEnv = await runCli(['sources', 'mcp', 'add', 'p', '--command', 'true', '--env', 'NOEQUALS'], env);
    expect(badEnv.code).toBe(3);

    const list = await runCli(['sources', 'mcp', 'list', '--json'], env);
    expect(list.code).toBe(0);
    const sources = JSON.parse(list.stdout).sources;
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({ source: 'mcp.gh', priority: 3, transport: { type: 'http', headers: { Authorization: '********' } } });
    expect(list.stdout).not.toContain('cli-secret-token');

    const test = await runCli(['sources', 'mcp', 'test', 'gh', '--query', 'session'], env);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/^ok in \d+ ms; tools: .*search_code.*; search tool: search_code$/m);
    expect(test.stdout).toContain('1. other/lib/docs/session-guide.md  https://github.example/other/lib/blob/main/docs/session-guide.md');
    // The server got its own header, not anything of the operator's.
    expect(stub.requests.every((h) => h.authorization === 'Bearer cli-secret-token')).toBe(true);

    const search = await runCli(['search', 'session refresh'], env);
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('E1. other/lib/docs/session-guide.md  (external, mcp.gh)');
    expect(search.stdout).toContain('https://github.example/other/lib/blob/main/docs/session-guide.md');

    const removed = await runCli(['sources', 'mcp', 'remove', 'gh'], env);
    expect(removed.stdout).toContain('Removed mcp.gh');
    const empty = await runCli(['sources', 'mcp', 'list'], env);
    expect(empty.stdout).toContain('No MCP sources');
    const missing = await runCli(['sources', 'mcp', 'remove', 'gh'], env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('MCP source gh not found');
  });
});
