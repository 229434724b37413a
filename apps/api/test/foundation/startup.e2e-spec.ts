import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { CLI, runCli, spawnCli, freePort, waitForHttp } from '../helpers/spawn-cli';
import { waitFor } from '../helpers/wait';

describe('sextant serve (spawned process)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-start-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('on an empty data dir creates the database and default workspace, then exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = spawnCli(['serve'], { PORT: String(port), SEXTANT_DATA_DIR: dataDir, DATABASE_URL: '' });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    try {
      const res = await waitForHttp(`http://127.0.0.1:${port}/health`);
      const body = (await res.json()) as { dependencies: { database: { status: string } } };
      expect(body.dependencies.database.status).toBe('up');
      const db = new Database(path.join(dataDir, 'sextant.sqlite'), { readonly: true });
      expect(db.prepare(`SELECT slug FROM workspaces`).all()).toEqual([{ slug: 'default' }]);
      db.close();
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    expect(output).not.toMatch(/Error/);
  });

  it('the quickstart: `serve` in a git checkout indexes it with its own ./data inside, never the data, and watching it does not chase the database', async () => {
    // No .gitignore names data/: the service itself must keep out of its data directory.
    const repo = makeFixtureRepo({ 'src/config.ts': 'export function loadConfig(file: string) {\n  return JSON.parse(file);\n}\n', 'README.md': '# Shop\n\nConfiguration is read by loadConfig.\n' }, { git: true, prefix: 'sextant-quickstart-' });
    const port = await freePort();
    const child = spawnCli(['serve'], { PORT: String(port), DATABASE_URL: '', SEXTANT_WATCH: 'true', LOG_LEVEL: 'info' }, { cwd: repo });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const url = `http://127.0.0.1:${port}`;
    const jobs = async () => ((await (await fetch(`${url}/v1/jobs`)).json()) as { jobs: Array<{ status: string; kind: string }> }).jobs;
    const search = async (query: string) => ((await (await fetch(`${url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json()) as { results: Array<{ path: string }> }).results;
    try {
      await waitForHttp(`${url}/health`);
      await waitFor(async () => (await jobs()).some((j) => j.status === 'succeeded'), { what: 'the first-start index job', timeoutMs: 60_000 }).catch((err: Error) => {
        throw new Error(`${err.message}\nserver output:\n${output.slice(-4000)}`);
      });
      await waitFor(() => /First start: imported 1 commits/.test(output), { what: 'the history import', timeoutMs: 30_000 });
      expect((await search('where is loadConfig')).map((r) => r.path)).toContain('src/config.ts');

      // The database wrote all along; none of it may start a job.
      await new Promise((r) => setTimeout(r, 4000));
      expect((await jobs()).map((j) => j.kind)).toEqual(['full']);
      // An edit to the code still does, once.
      fs.writeFileSync(path.join(repo, 'src/cache.ts'), 'export function evictStaleEntries() {}\n');
      await waitFor(async () => (await search('evictStaleEntries')).some((r) => r.path === 'src/cache.ts'), { what: 'the watched edit to be indexed', timeoutMs: 30_000 });
      await new Promise((r) => setTimeout(r, 4000));
      expect((await jobs()).map((j) => j.kind)).toEqual(['incremental', 'full']);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    const db = new Database(path.join(repo, 'data', 'sextant.sqlite'), { readonly: true });
    const paths = (db.prepare(`SELECT path FROM files ORDER BY path`).all() as Array<{ path: string }>).map((r) => r.path);
    db.close();
    fs.rmSync(repo, { recursive: true, force: true });
    expect(paths).toEqual(['README.md', 'src/cache.ts', 'src/config.ts']);
    expect(output).not.toMatch(/Could not index/);
  }, 120_000);

  it('logs one JSON line per request without headers, and keeps Nest start-up chatter at debug', async () => {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-logs-'));
    const child = spawnCli(['serve', '--no-auto-index'], { PORT: String(port), SEXTANT_DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'info' });
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health`);
      await fetch(`http://127.0.0.1:${port}/v1/repos`, { headers: { 'X-Custom-Header': 'header-value-never-logged' } });
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const lines = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { msg?: string; req?: Record<string, unknown>; res?: Record<string, unknown> });
    expect(lines.filter((l) => /Mapped \{|dependencies initialized/.test(l.msg ?? ''))).toEqual([]);
    expect(lines.some((l) => /Sextant listening on http:\/\/127\.0\.0\.1:\d+/.test(l.msg ?? ''))).toBe(true);
    const requests = lines.filter((l) => l.req?.url === '/v1/repos');
    expect(requests).toHaveLength(1);
    expect(requests[0].req).toEqual({ id: expect.any(String), method: 'GET', url: '/v1/repos' });
    expect(requests[0].res).toEqual({ statusCode: 200 });
    expect(stdout).not.toContain('header-value-never-logged');
  });

  it('prints readable log lines, not JSON, on a terminal', async () => {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-tty-logs-'));
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', PORT: String(port), SEXTANT_DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'info' };
    const command = ['timeout', '8', process.execPath, CLI, 'serve', '--no-auto-index'].map((a) => `'${a}'`).join(' ');
    const session = promisify(execFile)('script', ['-qec', command, '/dev/null'], { env, timeout: 30_000 }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    await waitForHttp(`http://127.0.0.1:${port}/health`);
    await fetch(`http://127.0.0.1:${port}/v1/repos`);
    const { stdout } = await session;
    fs.rmSync(dir, { recursive: true, force: true });
    const screen = stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(screen).toMatch(/Sextant listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(screen).toMatch(/GET \/v1\/repos 200 \d+ms/);
    expect(screen.split(/\r?\n/).filter((l) => l.trim().startsWith('{"level"'))).toEqual([]);
  }, 40_000);

  it.each([
    ['PORT', { PORT: 'not-a-port' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://nope' }],
    ['EMBEDDINGS_PROVIDER', { EMBEDDINGS_PROVIDER: 'magic' }],
  ])('exits non-zero naming %s when it is invalid', async (variable, env) => {
    const { code, stderr } = await runCli(['serve'], { SEXTANT_DATA_DIR: dataDir, ...env });
    expect(code).not.toBe(0);
    expect(stderr).toContain(variable);
  });

  it('an unreachable QDRANT_URL stops start-up with one clear line, not a stack trace', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    for (const args of [['serve', '--no-auto-index'], ['status']]) {
      const { code, stderr } = await runCli(args, { SEXTANT_DATA_DIR: dataDir, DATABASE_URL: '', QDRANT_URL: `http://127.0.0.1:${closed}`, PORT: '0' });
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([`sextant: Qdrant at http://127.0.0.1:${closed} is not reachable (ECONNREFUSED): start it, fix QDRANT_URL, or unset QDRANT_URL to use the embedded vector store`]);
    }
  });

  it('a mistyped command exits 3 with a suggestion', async () => {
    const { code, stderr } = await runCli(['serach', 'x']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/unknown command 'serach'[\s\S]*Did you mean search\?/);
    expect((await runCli(['index'])).code).toBe(3); // missing <path>
  });

  it('sextant db revert asks for --yes and is refused while a server uses the data dir', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-revert-'));
    const env = { SEXTANT_DATA_DIR: dir, DATABASE_URL: '' };
    expect((await runCli(['db', 'migrate'], env)).code).toBe(0);
    const unconfirmed = await runCli(['db', 'revert'], env);
    expect(unconfirmed.code).toBe(3);
    expect(unconfirmed.stderr).toMatch(/run again with --yes/);
    const server = spawnCli(['serve', '--no-auto-index'], { ...env, PORT: '0' });
    try {
      await waitFor(() => fs.existsSync(path.join(dir, 'writer.json')) && JSON.parse(fs.readFileSync(path.join(dir, 'writer.json'), 'utf8')).url, { what: 'server to claim the data dir', timeoutMs: 30_000 });
      const refused = await runCli(['db', 'revert', '--yes'], env);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toMatch(/the Sextant server \(pid \d+, since .*\) uses this data dir at http:\/\/127\.0\.0\.1:\d+; stop it first/);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    const reverted = await runCli(['db', 'revert', '--yes'], env);
    expect(reverted.code).toBe(0);
    expect(reverted.stdout).toMatch(/Reverted 1 migration/);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('prints help for every command', async () => {
    for (const args of [['--help'], ['serve', '--help'], ['db', 'migrate', '--help']]) {
      const { code, stdout } = await runCli(args);
      expect(code).toBe(0);
      expect(stdout).toMatch(/Usage: sextant/);
    }
  });

  it('sextant db migrate reports an up-to-date schema the second time', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-dbm-'));
    const first = await runCli(['db', 'migrate'], { SEXTANT_DATA_DIR: dir, DATABASE_URL: '' });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Applied [1-9]\d* migration/);
    const second = await runCli(['db', 'migrate'], { SEXTANT_DATA_DIR: dir, DATABASE_URL: '' });
    expect(second.stdout).toMatch(/up to date/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
