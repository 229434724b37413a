import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { git, makeFixtureRepo, SAMPLE_PROJECT, writeFiles } from '../helpers/fixture-repo';
import { CLI, runCli, spawnCli } from '../helpers/spawn-cli';
import { waitFor } from '../helpers/wait';
import { callTool, textOf } from '../mcp/mcp-fixture';
import { FakeChatServer, sourceNumber } from '../ask/fake-chat-server';

const writerFile = (dataDir: string) => path.join(dataDir, 'writer.json');
const readWriter = (dataDir: string) => {
  try {
    return JSON.parse(fs.readFileSync(writerFile(dataDir), 'utf8')) as { pid: number; role: string; url?: string; command: string };
  } catch {
    return null;
  }
};

/** A git repository with history under `base`, so import-git has commits to read. */
function repoWithHistory(base: string, name: string, files: Record<string, string>): string {
  const root = path.join(base, name);
  writeFiles(root, files);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'Add the session store and token validation');
  writeFiles(root, { 'src/auth/session.ts': `${files['src/auth/session.ts']}\n// refresh sessions before they expire\n` });
  git(root, 'commit', '-q', '-am', 'Fix session refresh racing with expiry');
  return root;
}

/**
 * Real processes on one data dir (SQLite files): `sextant serve`, the CLI and a stdio MCP
 * client. The server is the only writer; everything the others change is visible through its
 * REST API at once, and two CLI writers never run together.
 */
describe('one data dir, many processes', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-one-writer-')));
  const dataDir = path.join(base, 'data');
  const env = { SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: base, DATABASE_URL: '', LOG_LEVEL: 'warn' };
  let server: ChildProcess | null = null;
  let chat: FakeChatServer;

  beforeAll(async () => {
    chat = await new FakeChatServer().start();
  });

  // A test that failed with its server still running must not leave it to the next one.
  afterEach(async () => {
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
    server = null;
  });

  afterAll(async () => {
    server?.kill('SIGKILL');
    await chat?.stop();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('with a server running, CLI index and import and stdio MCP go through it: every change is searchable at once, no restart', async () => {
    // Only the server has a chat model: `sextant ask` below can only answer through it.
    server = spawnCli(['serve', '--no-auto-index'], { ...env, PORT: '0', CHAT_BASE_URL: chat.url, CHAT_MODEL: 'fake-model', SEXTANT_IMPORT_BODY_LIMIT: '1mb' });
    let serverErr = '';
    server.stderr!.on('data', (d) => (serverErr += d));
    await waitFor(() => Boolean(readWriter(dataDir)?.url), { what: 'server to claim the data dir', timeoutMs: 30_000 });
    const { url, role, pid } = readWriter(dataDir)!;
    expect({ role, pid }).toEqual({ role: 'server', pid: server.pid });
    expect(fs.statSync(writerFile(dataDir)).mode & 0o077).toBe(0); // holds the operator token

    const shop = repoWithHistory(base, 'shop', SAMPLE_PROJECT);
    const indexed = await runCli(['index', shop, '--json'], env, 120_000);
    expect(indexed.stderr).toMatch(/through the server/);
    expect(indexed.code).toBe(0);
    expect(JSON.parse(indexed.stdout)).toMatchObject({ status: 'succeeded' });

    const imported = await runCli(['tasks', 'import-git', 'shop', '--json'], env);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ imported: 2 });
    const tasksFile = path.join(base, 'tasks.jsonl');
    fs.writeFileSync(tasksFile, [JSON.stringify({ id: 'T-9', title: 'Customers charged twice after a retry', files: ['src/auth/session.ts'] }), '{broken'].join('\n'));
    const fromFile = await runCli(['tasks', 'import', tasksFile, '--json'], env);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ imported: 1, skipped: 1, errors: [expect.objectContaining({ line: 2 })] });

    // `sextant search` asks the server too: its in-memory index and caches, not a second copy.
    const cliSearch = await runCli(['search', 'charged twice after a retry', '--json', '--top-k', '3'], env);
    expect(cliSearch.stderr).toMatch(/Searching through the server/);
    expect(cliSearch.code).toBe(0);
    expect((JSON.parse(cliSearch.stdout) as { results: Array<{ path: string }> }).results[0].path).toBe('src/auth/session.ts');
    const badSearch = await runCli(['search', 'x', '--top-k', '500'], env);
    expect({ code: badSearch.code, stderr: badSearch.stderr }).toEqual({ code: 3, stderr: expect.stringMatching(/top_k/) });

    // `sextant ask` too: the server's chat model, streamed (steps on stderr, the answer on stdout).
    chat.enqueue({ respond: (body) => ({ tokens: ['Sessions refresh ', `in SessionStore [${sourceNumber(body, 'src/auth/session.ts')}].`] }) });
    const asked = await runCli(['ask', 'How are sessions refreshed?', '--max-steps', '0'], env);
    expect(asked.stderr).toMatch(/Asking through the server[\s\S]*· search "How are sessions refreshed\?"/);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/^Sessions refresh in SessionStore \[(\d+)\]\.\n\nSources:\n {2}\[\1\] shop\/src\/auth\/session\.ts:\d+-\d+\n$/);
    // A pasted issue too long for the stream's URL is asked in one POST and printed when done.
    chat.enqueue({ tokens: ['Long ', 'answer.'] });
    const pasted = await runCli(['ask', `Sessions expire early.\n${'Traceback line from the session store\n'.repeat(200)}`, '--max-steps', '0'], env);
    expect({ code: pasted.code, stdout: pasted.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(/^Long answer\.\n\nSources: none cited\.\n$/) });
    chat.enqueue({ tokens: ['Refunds are not in this code.'] });
    expect(JSON.parse((await runCli(['ask', 'Where are refunds?', '--json'], env)).stdout)).toMatchObject({ answer: 'Refunds are not in this code.', model: 'fake-model' });

    // The server sees all of it without a restart: code, git history and the imported file.
    const search = (await (await fetch(`${url}/v1/search`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'SessionStore refresh', top_k: 5 }) })).json()) as { results: Array<{ path: string }> };
    expect(search.results.map((r: { path: string }) => r.path)).toContain('src/auth/session.ts');
    const similar = (await (await fetch(`${url}/v1/tasks?query=${encodeURIComponent('charged twice retry')}`)).json()) as { tasks: Array<{ external_id: string }> };
    expect(similar.tasks.map((t: { external_id: string }) => t.external_id)).toContain('T-9');
    const history = (await (await fetch(`${url}/v1/tasks?source=git`)).json()) as { total: number };
    expect(history.total).toBe(2);

    // A stdio MCP client on the same data dir relays to the server: refresh_index runs there.
    writeFiles(shop, { 'src/billing/refunds.ts': 'export function issueRefund(orderId: string): string {\n  return `refund:${orderId}`;\n}\n' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--stdio'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stderr: 'pipe' });
    let mcpErr = '';
    transport.stderr?.on('data', (d) => (mcpErr += d));
    const client = new Client({ name: 'one-writer', version: '1.0.0' });
    await client.connect(transport);
    try {
      const refresh = await callTool(client, 'refresh_index', {});
      expect(refresh.isError).toBeFalsy();
      await waitFor(
        async () => {
          const res = (await (await fetch(`${url}/v1/search`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'issueRefund', top_k: 3 }) })).json()) as { results: Array<{ path: string }> };
          return res.results[0]?.path === 'src/billing/refunds.ts';
        },
        { what: 'the file refresh_index indexed to be searchable on the server', timeoutMs: 30_000 },
      );
      expect(textOf(await callTool(client, 'index_status', {}))).toMatch(/"shop"/);
    } finally {
      await client.close();
    }
    expect(mcpErr).toMatch(/relaying to the server/);
    // Last, since the server refits its ranker on the new history in the background afterwards.
    // Files past the server's 1 MB body limit go in pieces: whole CSV records (quoted line breaks,
    // non-ASCII text) each with the header, and JSONL lines measured in bytes, not characters.
    const prose = '日本語の説明、"引用" を含む。'.repeat(40);
    const csvFile = path.join(base, 'tickets.csv');
    const rows = Array.from({ length: 1200 }, (_, i) => `K-${i},${i === 1000 ? '' : `Ticket ${i}`},"${prose.replace(/"/g, '""')}\nsecond line","src\\auth\\session.ts"`);
    fs.writeFileSync(csvFile, `\uFEFFkey,title,description,files\r\n${rows.join('\r\n')}\r\n`);
    expect(fs.statSync(csvFile).size).toBeGreaterThan(1.5 * 1024 * 1024);
    const fromCsv = await runCli(['tasks', 'import', csvFile, '--csv-id', 'key', '--csv-body', 'description', '--json', '--no-train'], env, 120_000);
    expect(fromCsv.code).toBe(0);
    expect(JSON.parse(fromCsv.stdout)).toEqual({ imported: 1199, updated: 0, skipped: 1, errors: [{ line: 1002, id: 'K-1000', message: 'title: empty: every task needs a title' }] });
    const jsonlFile = path.join(base, 'tickets.jsonl');
    fs.writeFileSync(jsonlFile, Array.from({ length: 1200 }, (_, i) => JSON.stringify({ id: `L-${i}`, title: `チケット ${i}`, body: prose, files: ['./src/auth/session.ts'] })).join('\n'));
    const fromJsonl = await runCli(['tasks', 'import', jsonlFile, '--json', '--no-train'], env, 120_000);
    expect(JSON.parse(fromJsonl.stdout)).toMatchObject({ imported: 1200, skipped: 0 });
    expect(((await (await fetch(`${url}/v1/tasks?source=import`)).json()) as { total: number }).total).toBe(1 + 1199 + 1200);
    const found = (await (await fetch(`${url}/v1/tasks?source=import&query=${encodeURIComponent('Ticket 777')}`)).json()) as { tasks: Array<{ external_id: string; body: string; files: string[] }> };
    expect(found.tasks.find((x) => x.external_id === 'K-777')).toMatchObject({ body: `${prose}\nsecond line`, files: ['src/auth/session.ts'] });
    // One task past the import limit: its piece is refused, and the CLI says what went in before it.
    const hugeFile = path.join(base, 'huge.jsonl');
    fs.writeFileSync(hugeFile, [...Array.from({ length: 1500 }, (_, i) => JSON.stringify({ id: `H-${i}`, title: `Huge ${i}`, body: 'Short body. '.repeat(50) })), JSON.stringify({ id: 'H-huge', title: 'Huge', body: 'x'.repeat(1_200_000) })].join('\n'));
    const huge = await runCli(['tasks', 'import', hugeFile, '--source', 'huge', '--no-train'], env, 120_000);
    expect(huge.code).toBe(3);
    expect(huge.stderr).toContain('SEXTANT_IMPORT_BODY_LIMIT');
    expect(huge.stderr).toContain("the file's first 1500 lines were imported: 1500 new, 0 updated");
    expect(((await (await fetch(`${url}/v1/tasks?source=huge`)).json()) as { total: number }).total).toBe(1500);

    expect(serverErr).not.toMatch(/UNIQUE constraint|out of bounds|Error:/);

    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = null;
    expect(fs.existsSync(writerFile(dataDir))).toBe(false); // released on a clean stop
  }, 240_000);

  it('without a server, a second CLI writer is refused with the holder named (exit 4), and the first finishes cleanly', async () => {
    const big = makeFixtureRepo(
      Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`src/module_${i}.ts`, `/** Module ${i}. */\nexport function handler${i}(input: string): string {\n  return input.repeat(${(i % 5) + 1});\n}\n`])),
      { git: true, prefix: 'sextant-big-' },
    );
    const target = path.join(base, 'big');
    fs.renameSync(big, target);
    // --watch keeps the first writer (and its claim) alive until it is stopped, however fast indexing is.
    const first = spawnCli(['index', target, '--json', '--watch'], env);
    let firstOut = '';
    let firstErr = '';
    first.stdout!.on('data', (d) => (firstOut += d));
    first.stderr!.on('data', (d) => (firstErr += d));
    const firstExit = new Promise<number | null>((resolve) => first.once('exit', resolve));
    await waitFor(() => readWriter(dataDir)?.role === 'cli' && firstErr.includes('Watching'), { what: 'first index to claim the data dir and finish its job', timeoutMs: 60_000 });

    const second = await runCli(['index', target], env);
    expect(second.code).toBe(4);
    expect(second.stderr).toMatch(new RegExp(`another Sextant process writes to this data dir: \`sextant index ${target}\` \\(pid ${first.pid}, since .*\\)\\. Wait for it to finish`));
    // Other write commands are refused the same way.
    expect((await runCli(['tasks', 'import-git', 'shop'], env)).code).toBe(4);
    expect(second.stderr).not.toMatch(/constraint|SQLITE/i);

    first.kill('SIGINT'); // Ctrl-C: the context closes, then the process ends by the signal
    await firstExit;
    expect(JSON.parse(firstOut.split('\n')[0])).toMatchObject({ status: 'succeeded', counts: expect.objectContaining({ indexed: 400, failed: 0 }) });

    // Once it is done the second one runs, and finds nothing left to do.
    const again = await runCli(['index', target, '--json'], env, 120_000);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'succeeded', counts: expect.objectContaining({ unchanged: 400 }) });
  }, 240_000);

  it('a writer that died (kill -9) does not block the next one', async () => {
    fs.writeFileSync(writerFile(dataDir), JSON.stringify({ pid: 2 ** 22 + 17, hostname: os.hostname(), role: 'cli', command: 'sextant index /gone', started_at: new Date(0).toISOString() }), { mode: 0o600 });
    const res = await runCli(['tasks', 'import-git', 'shop', '--json'], env);
    expect(res.stderr).not.toMatch(/another Sextant process/);
    expect(res.code).toBe(0);
  }, 120_000);
});
