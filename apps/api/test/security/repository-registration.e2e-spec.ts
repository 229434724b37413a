import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import request from 'supertest';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { git, makeFixtureRepo, writeFiles } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/** A TCP server that records every connection made to it (a stand-in for an internal service). */
async function listeningRecorder(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('registering a repository cannot reach what the server can but the caller should not', () => {
  const allowedRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-allowed-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-outside-'));
  let t: TestApp;
  let recorder: Awaited<ReturnType<typeof listeningRecorder>>;
  const api = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    recorder = await listeningRecorder();
    t = await startTestApp({ env: { SEXTANT_ALLOWED_ROOTS: allowedRoot } });
  });
  afterAll(async () => {
    await t.close();
    await recorder.close();
    fs.rmSync(allowedRoot, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a file:// URL outside the allowed roots is refused like a path (403), and nothing is cloned', async () => {
    const secret = makeFixtureRepo({ 'creds.txt': 'top secret\n' }, { git: true, prefix: 'sextant-private-' });
    const res = await api().post('/v1/repos').send({ git_url: pathToFileURL(secret).href }).expect(403);
    expect(res.body.detail).toMatch(/outside the allowed roots/);
    expect(fs.existsSync(path.join(t.dataDir, 'clones'))).toBe(false);
    fs.rmSync(secret, { recursive: true, force: true });
  });

  it.each([
    ['loopback by IP', (port: number) => `http://127.0.0.1:${port}/repo.git`],
    ['loopback by name', (port: number) => `http://localhost:${port}/repo.git`],
    ['IPv4-mapped IPv6 loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}/repo.git`],
    ['git protocol to loopback', (port: number) => `git://127.0.0.1:${port}/repo.git`],
  ])('a clone from an internal address (%s) is refused with 403 before any connection is made', async (_name, url) => {
    const res = await api().post('/v1/repos').send({ git_url: url(recorder.port) }).expect(403);
    expect(res.body.detail).toMatch(/internal address/);
    expect(res.body.detail).toMatch(/SEXTANT_CLONE_ALLOWED_HOSTS/);
    expect(recorder.connections()).toBe(0);
  });

  it('a clone keeps no secret files: .env and private keys committed upstream are removed before indexing', async () => {
    const upstream = path.join(allowedRoot, 'upstream');
    writeFiles(upstream, { 'src/app.ts': 'export const app = 1;\n', '.env': 'DB_PASSWORD=hunter2\n', 'deploy/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n' });
    git(upstream, 'init', '-q', '-b', 'main');
    git(upstream, 'add', '-A');
    git(upstream, 'commit', '-q', '-m', 'initial');
    const reg = await api().post('/v1/repos').send({ git_url: pathToFileURL(upstream).href }).expect(201);
    const clone: string = reg.body.root_path;
    expect(clone.startsWith(path.join(t.dataDir, 'clones'))).toBe(true);
    expect(fs.existsSync(path.join(clone, 'src/app.ts'))).toBe(true);
    expect(fs.existsSync(path.join(clone, '.env'))).toBe(false);
    expect(fs.existsSync(path.join(clone, 'deploy/id_rsa'))).toBe(false);
    expect(fs.statSync(clone).mode & 0o077).toBe(0);
  });

  it('the data directory cannot be cloned from either', async () => {
    await api().post('/v1/repos').send({ git_url: pathToFileURL(t.dataDir).href }).expect(403);
  });
});

describe('an operator can allow an internal git host', () => {
  let t: TestApp;
  let recorder: Awaited<ReturnType<typeof listeningRecorder>>;

  beforeAll(async () => {
    recorder = await listeningRecorder();
    t = await startTestApp({ env: { SEXTANT_CLONE_ALLOWED_HOSTS: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t.close();
    await recorder.close();
  });

  it('the listed host is contacted (the clone then fails on its own terms, not on policy)', async () => {
    const res = await request(t.app.getHttpServer()).post('/v1/repos').send({ git_url: `http://127.0.0.1:${recorder.port}/repo.git` });
    expect(res.status).not.toBe(403);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(recorder.connections()).toBeGreaterThan(0);
  });
});

describe.each([
  ['by default', {}, false],
  ['with SEXTANT_ALLOW_SHARED_PATHS=true', { SEXTANT_ALLOW_SHARED_PATHS: 'true' }, true],
])('one workspace cannot register a directory another workspace indexes (%s)', (_name, env, shared) => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());
  // The repository sits in a folder of its own, so its parent can be tried too.
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-shared-')));
  const root = path.join(parent, 'ledger');
  writeFiles(root, { 'src/ledger.ts': 'export const ledger = 1;\n', 'pkg/inner.ts': 'export const inner = 2;\n' });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'initial');

  beforeAll(async () => {
    t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, ...env } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it(shared ? 'allows it when the operator says directories may be shared' : 'refuses the same directory, a parent or a child with 409', async () => {
    const a = await createKey(t, 'team-a', 'admin');
    const b = await createKey(t, 'team-b', 'admin');
    const reg = await api().post('/v1/repos').set(bearer(a.key)).send({ path: root }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`).set(bearer(a.key))).body.status === 'succeeded', { what: 'index of team-a' });
    // The same workspace registering it twice is a plain conflict either way.
    await api().post('/v1/repos').set(bearer(a.key)).send({ path: root }).expect(409);
    for (const p of [root, path.join(root, 'pkg'), parent]) {
      const res = await api().post('/v1/repos').set(bearer(b.key)).send({ path: p });
      if (shared) expect({ p, status: res.status }).toEqual({ p, status: 201 });
      else expect({ p, status: res.status, message: res.body.detail }).toEqual({ p, status: 409, message: expect.stringMatching(/another workspace/) });
    }
  });
});

describe('the data directory is private to the service user', () => {
  it('is created 0700 and its database files 0600, whatever the umask', async () => {
    const previous = process.umask(0o022);
    const t = await startTestApp({ env: { DATABASE_URL: '' } });
    try {
      expect(fs.statSync(t.dataDir).mode & 0o777).toBe(0o700);
      const files = fs.readdirSync(t.dataDir).filter((f) => fs.statSync(path.join(t.dataDir, f)).isFile());
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expect({ f, mode: fs.statSync(path.join(t.dataDir, f)).mode & 0o077 }).toEqual({ f, mode: 0 });
    } finally {
      process.umask(previous);
      await t.close();
    }
  });
});
