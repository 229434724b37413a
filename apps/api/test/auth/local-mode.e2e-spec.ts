import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { runCli, spawnCli, freePort, waitForHttp } from '../helpers/spawn-cli';
import { createFreshPostgresDatabase, postgresBaseUrl } from '../helpers/test-database';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { bearer, createKey } from './auth-helpers';

describe('local mode (loopback, SEXTANT_AUTH=auto)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('acts as admin of the default workspace without a key', async () => {
    const http = request(t.app.getHttpServer());
    const me = await http.get('/v1/auth/me').expect(200);
    expect(me.body).toMatchObject({ role: 'admin', principal: 'local', local_mode: true, workspace: { slug: 'default' } });
    await http.get('/v1/repos').expect(200);
    const key = await http.post('/v1/keys').send({ name: 'from-local', role: 'reader' }).expect(201);
    expect(key.body.key).toMatch(/^sxt_/);
  });

  it('still checks a key that is presented: a wrong one is 401, a reader is a reader', async () => {
    const http = request(t.app.getHttpServer());
    await http.get('/v1/repos').set(bearer('sxt_0badc0de_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).expect(401);
    const reader = await createKey(t, 'default', 'reader');
    await http.get('/v1/repos').set(bearer(reader.key)).expect(200);
    await http.post('/v1/keys').set(bearer(reader.key)).send({ name: 'x', role: 'admin' }).expect(403);
  });

  it('lets the local operator create workspaces over REST', async () => {
    await request(t.app.getHttpServer()).post('/v1/workspaces').send({ slug: 'team-local' }).expect(201);
  });
});

/** Runs `sextant serve` until `body` finishes, collecting everything it logs. */
async function withServer(args: string[], env: Record<string, string>, body: (base: string) => Promise<void>): Promise<string> {
  const port = await freePort();
  const child = spawnCli(['serve', '--no-auto-index', '--port', String(port), ...args], env);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health`);
    await body(`http://127.0.0.1:${port}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return output;
}

describe('sextant serve on a non-loopback address (spawned process)', () => {
  // Each test spawns the CLI (a Nest boot per process); give slow, shared CI machines room.
  jest.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-auth-serve-'));
  let env: Record<string, string>;
  let dropDb: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    env = { SEXTANT_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'debug' };
    if (postgresBaseUrl) {
      const db = await createFreshPostgresDatabase(postgresBaseUrl);
      env.DATABASE_URL = db.url;
      dropDb = db.drop;
    }
  });
  afterAll(async () => {
    await dropDb?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start on 0.0.0.0 without keys and says how to create one', async () => {
    const { code, stdout, stderr } = await runCli(['serve', '--no-auto-index', '--host', '0.0.0.0', '--port', String(await freePort())], env);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/0\.0\.0\.0/);
    expect(stderr).toMatch(/sextant keys create --workspace default --role admin --name/);
  });

  it('on loopback the same data dir starts without keys and serves without a key', async () => {
    await withServer([], env, async (base) => {
      expect((await fetch(`${base}/v1/repos`)).status).toBe(200);
    });
  });

  it('starts once a key exists, enforces it, and never logs a key or an Authorization value', async () => {
    const created = await runCli(['keys', 'create', '--role', 'admin', '--name', 'ops', '--json'], env);
    expect(created.code).toBe(0);
    const { key, id } = JSON.parse(created.stdout) as { key: string; id: string };
    expect(created.stderr).not.toContain(key);

    let minted = '';
    const logs = await withServer(['--host', '0.0.0.0'], env, async (base) => {
      expect((await fetch(`${base}/v1/repos`)).status).toBe(401);
      expect((await fetch(`${base}/v1/repos`, { headers: bearer(key) })).status).toBe(200);
      expect((await fetch(`${base}/v1/repos?api_key=${key}&token=${key}`, { headers: bearer(key) })).status).toBe(200);
      expect((await fetch(`${base}/v1/repos`, { headers: bearer(`${key.slice(0, -2)}zz`) })).status).toBe(401);
      expect((await fetch(`${base}/v1/repos`, { headers: { Authorization: 'Basic c2VjcmV0OnNlY3JldA==' } })).status).toBe(401);
      const res = await fetch(`${base}/v1/keys`, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'minted', role: 'reader' }) });
      expect(res.status).toBe(201);
      minted = ((await res.json()) as { key: string }).key;
      expect((await fetch(`${base}/v1/repos`, { headers: bearer(minted) })).status).toBe(200);
      // A body that carries a key-like field must not end up in logs either.
      await fetch(`${base}/v1/keys`, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x', role: 'reader', key }) });
    });
    expect(logs).toMatch(/request completed/); // the capture really holds request logs
    for (const secret of [key, key.slice(13), minted, minted.slice(13), `${key.slice(0, -2)}zz`, 'c2VjcmV0OnNlY3JldA==']) expect(logs).not.toContain(secret);
    expect(logs).not.toMatch(/Bearer\s+sxt_/);

    const revoked = await runCli(['keys', 'revoke', id, '--json'], env);
    expect(revoked.code).toBe(0);
    const listed = await runCli(['keys', 'list', '--json'], env);
    const keys = (JSON.parse(listed.stdout) as { keys: Array<{ id: string; revoked_at: string | null; workspace: string }> }).keys;
    expect(keys.find((k) => k.id === id)).toMatchObject({ workspace: 'default', revoked_at: expect.any(String) });
    expect(listed.stdout).not.toContain(key.slice(13));
  });

  it('creates workspaces and keys in them from the CLI, and rejects a bad role naming it', async () => {
    const ws = await runCli(['workspaces', 'create', 'team-cli', '--json'], env);
    expect(ws.code).toBe(0);
    expect(JSON.parse(ws.stdout)).toMatchObject({ slug: 'team-cli' });
    const key = await runCli(['keys', 'create', '--workspace', 'team-cli', '--role', 'member', '--name', 'bot', '--json'], env);
    expect(JSON.parse(key.stdout)).toMatchObject({ workspace: 'team-cli', role: 'member' });
    const bad = await runCli(['keys', 'create', '--role', 'owner', '--name', 'x'], env);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/--role/);
    const missing = await runCli(['keys', 'create', '--workspace', 'nope', '--role', 'reader', '--name', 'x'], env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/nope/);
  });
});
