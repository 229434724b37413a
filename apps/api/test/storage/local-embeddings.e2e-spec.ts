import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { readIndexEmbedder, writeIndexEmbedder } from '../../src/modules/indexing/index-embedder.marker';
import { startBackgroundIndexing } from '../../src/modules/indexing/indexing.startup';
import { TINY_DIMS, writeTinyModel } from '../../../../libs/embeddings/src/local/__tests__/tiny-model.fixture';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { runCli, spawnCli, waitForHttp } from '../helpers/spawn-cli';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/** Code that uses the tiny model's vocabulary, so its vectors differ by file. */
const REPO = {
  'src/session.ts': '// session refresh: the user session token expire\nexport function refreshSession(user: string) {\n  return user;\n}\n',
  'src/ledger.ts': '// ledger balance of a payment invoice\nexport function ledgerBalance(invoice: number) {\n  return invoice;\n}\n',
};

describe('EMBEDDINGS_PROVIDER=local: the server downloads the model once, indexes and searches with it, and says it is semantic', () => {
  let host: http.Server;
  let hostUrl: string;
  const requests: string[] = [];
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    const hostRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-model-host-'));
    writeTinyModel(path.join(hostRoot, 'acme', 'tiny-bert'));
    host = http.createServer((req, res) => {
      requests.push(req.url!);
      const m = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(req.url ?? '');
      const file = m && path.join(hostRoot, m[1], m[2]);
      if (!file || !fs.existsSync(file)) return void res.writeHead(404).end();
      const body = fs.readFileSync(file);
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    env = { EMBEDDINGS_PROVIDER: 'local', EMBEDDINGS_MODEL: 'acme/tiny-bert', EMBEDDINGS_DIM: String(TINY_DIMS), EMBEDDINGS_MODEL_HOST: hostUrl, EMBEDDINGS_THREADS: '1' };
    t = await startTestApp({ env });
  }, 60000);

  afterAll(async () => {
    await t?.close();
    await new Promise((r) => host.close(r));
  });

  it('before first use /health names the local model, semantic, to be downloaded; after indexing the files are in the data dir', async () => {
    const before = await request(t.app.getHttpServer()).get('/health').expect(200);
    expect(before.body.dependencies.embedder).toMatchObject({ status: 'up', id: `local:acme/tiny-bert:q8:${TINY_DIMS}`, provider: 'local', dimensions: TINY_DIMS, semantic: true });
    expect(before.body.dependencies.embedder.detail).toMatch(/downloaded from http:\/\/127\.0\.0\.1:\d+ into .*models\/acme\/tiny-bert on first use/);
    expect(requests).toEqual([]);

    const root = makeFixtureRepo(REPO);
    const reg = await request(t.app.getHttpServer()).post('/v1/repos').send({ path: root }).expect(201);
    const job = await waitFor(async () => {
      const j = (await request(t.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`)).body;
      return ['succeeded', 'failed'].includes(j.status) ? j : null;
    }, { what: 'index job', timeoutMs: 60000 });
    expect(job.status).toBe('succeeded');
    expect(fs.existsSync(path.join(t.dataDir, 'models', 'acme', 'tiny-bert', 'onnx', 'model_quantized.onnx'))).toBe(true);
    expect(requests.filter((u) => u.endsWith('model_quantized.onnx'))).toHaveLength(1);

    const after = await request(t.app.getHttpServer()).get('/health').expect(200);
    expect(after.body.dependencies.embedder.detail).toMatch(/files in .*models\/acme\/tiny-bert/);

    // The dense source alone ranks by the model's vectors: the ledger file for a ledger question.
    const res = await request(t.app.getHttpServer()).post('/v1/search').send({ query: 'invoice payment balance', sources: ['file.dense'] }).expect(200);
    expect(res.body.results[0].path).toBe('src/ledger.ts');
    const res2 = await request(t.app.getHttpServer()).post('/v1/search').send({ query: 'user session token', sources: ['file.dense'] }).expect(200);
    expect(res2.body.results[0].path).toBe('src/session.ts');
  });

  it('`sextant status` shows the active embedder and that it is semantic (the default hash embedder says it is not)', async () => {
    const local = await runCli(['status'], { SEXTANT_DATA_DIR: t.dataDir, ...env, ...(t.config.storage.databaseUrl ? { DATABASE_URL: t.config.storage.databaseUrl } : {}) });
    expect(local.code).toBe(0);
    expect(local.stdout).toMatch(new RegExp(`embeddings +local:acme/tiny-bert:q8:${TINY_DIMS}: semantic`));
    const json = await runCli(['status', '--json'], { SEXTANT_DATA_DIR: t.dataDir, ...env, ...(t.config.storage.databaseUrl ? { DATABASE_URL: t.config.storage.databaseUrl } : {}) });
    expect(JSON.parse(json.stdout).dependencies.embedder).toMatchObject({ provider: 'local', semantic: true });

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-hash-status-'));
    const hash = await runCli(['status'], { SEXTANT_DATA_DIR: dir, DATABASE_URL: '' });
    expect(hash.code).toBe(0);
    expect(hash.stdout).toMatch(/embeddings +hash-v1:384: lexical, not semantic/);
  });

  it('a server started with another embedder than the one that built the index re-embeds every repository once', async () => {
    const http = () => request(t.app.getHttpServer());
    const repoId = (await http().get('/v1/repos').expect(200)).body.repositories[0].id as string;
    const jobsBefore = (await http().get('/v1/jobs').expect(200)).body.jobs.length as number;
    // As if the index had been built by the default hash embedder before EMBEDDINGS_PROVIDER=local was set.
    writeIndexEmbedder(t.dataDir, 'hash-v1:384');
    await startBackgroundIndexing(t.app, t.config);
    const jobs = (await http().get('/v1/jobs').expect(200)).body.jobs as Array<{ id: string; kind: string; repository_id: string }>;
    expect(jobs).toHaveLength(jobsBefore + 1);
    const job = jobs[0]; // newest first
    expect(job).toMatchObject({ kind: 'full', repository_id: repoId });
    await waitFor(async () => (await http().get(`/v1/jobs/${job.id}`)).body.status === 'succeeded', { what: 're-embed job', timeoutMs: 60000 });
    expect(readIndexEmbedder(t.dataDir)).toBe(`local:acme/tiny-bert:q8:${TINY_DIMS}`);
    // Same embedder at the next start: nothing to do.
    await startBackgroundIndexing(t.app, t.config);
    expect((await http().get('/v1/jobs').expect(200)).body.jobs).toHaveLength(jobsBefore + 1);
  });

  it('`sextant serve` downloads the model at start-up with progress in its log, loads it, and indexes with it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-serve-local-'));
    const port = await new Promise<number>((resolve) => {
      const srv = http.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const child = spawnCli(['serve'], { ...env, PORT: String(port), SEXTANT_DATA_DIR: dataDir, DATABASE_URL: '', SEXTANT_REPO: makeFixtureRepo(REPO), SEXTANT_ALLOWED_ROOTS: os.tmpdir(), LOG_LEVEL: 'info' });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health`);
      await waitFor(() => output.includes('loaded in'), { what: 'model loaded log line', timeoutMs: 60000 });
      expect(output).toMatch(/Embedding model acme\/tiny-bert: onnx\/model_quantized\.onnx downloaded/);
      expect(output).toMatch(new RegExp(`Embedding model local:acme/tiny-bert:q8:${TINY_DIMS} loaded in \\d+ ms`));
      expect(fs.existsSync(path.join(dataDir, 'models', 'acme', 'tiny-bert', 'onnx', 'model_quantized.onnx'))).toBe(true);
      // The first-start index job (SEXTANT_REPO) ran with the local model; the record says so.
      await waitFor(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'invoice payment balance', sources: ['file.dense'] }) });
        return res.ok && ((await res.json()) as { results: Array<{ path: string }> }).results[0]?.path === 'src/ledger.ts';
      }, { what: 'dense search over the first-start index', timeoutMs: 60000 });
      expect(readIndexEmbedder(dataDir)).toBe(`local:acme/tiny-bert:q8:${TINY_DIMS}`);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a model that cannot be downloaded fails the index job with a message that says what to do', async () => {
    const broken = await startTestApp({ env: { ...env, EMBEDDINGS_MODEL: 'acme/missing', EMBEDDINGS_MODEL_HOST: hostUrl } });
    try {
      const root = makeFixtureRepo(REPO);
      const reg = await request(broken.app.getHttpServer()).post('/v1/repos').send({ path: root }).expect(201);
      const job = await waitFor(async () => {
        const j = (await request(broken.app.getHttpServer()).get(`/v1/jobs/${reg.body.job.id}`)).body;
        return ['succeeded', 'failed'].includes(j.status) ? j : null;
      }, { what: 'index job', timeoutMs: 60000 });
      expect(job.status).toBe('failed');
      expect(JSON.stringify(job)).toMatch(/Could not download config\.json of embedding model acme\/missing .*EMBEDDINGS_MODEL_PATH/);
    } finally {
      await broken.close();
    }
  });
});
