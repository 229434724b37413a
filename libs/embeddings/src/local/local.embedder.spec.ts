import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { CachedEmbedder } from '../cache/cached.embedder';
import { MemoryEmbeddingCache } from '../cache/memory-embedding.cache';
import { createEmbedder } from '../create-embedder';
import { EmbeddingError } from '../embedding.error';
import { LocalEmbedder } from './local.embedder';
import type { DownloadProgress } from './model-files';
import { TINY_DIMS, writeTinyModel } from './__tests__/tiny-model.fixture';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a));

/** Serves a directory like the hub does: `/<org>/<model>/resolve/main/<file>`. */
async function serveModelHost(root: string): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url!);
    const m = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const file = m && path.join(root, m[1], m[2]);
    if (!file || !file.startsWith(root) || !fs.existsSync(file)) return void res.writeHead(404).end('Entry not found');
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

describe('LocalEmbedder (a tiny ONNX model written by the test, run with onnxruntime-node)', () => {
  let tmp: string;
  const embedders: LocalEmbedder[] = [];
  const make = (o: ConstructorParameters<typeof LocalEmbedder>[0]) => {
    const e = new LocalEmbedder(o);
    embedders.push(e);
    return e;
  };

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-local-embed-'));
  });
  afterEach(async () => {
    await Promise.all(embedders.splice(0).map((e) => e.close()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('loads from EMBEDDINGS_MODEL_PATH and embeds: unit vectors of the model width; same tokens -> cosine 1; shared words -> closer', async () => {
    const dir = path.join(tmp, 'tiny-bert');
    writeTinyModel(dir);
    const embedder = make({ modelPath: dir, cacheDir: path.join(tmp, 'unused'), workers: 1 });
    expect(embedder.dimensions).toBe(TINY_DIMS);
    expect(embedder.id).toBe(`local:tiny-bert:q8:${TINY_DIMS}`);
    expect(embedder.semantic).toBe(true);
    const [a, b, c, d] = await embedder.embedDocuments(['user session refresh', 'Refresh the session of a USER', 'ledger balance payment', 'session token expire']);
    for (const v of [a, b, c, d]) {
      expect(v).toHaveLength(TINY_DIMS);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // The same words (case, order and stop-word tokens aside, all in the vocabulary) pool to the same vector...
    expect(cosine(a, await embedder.embedQuery('refresh user session'))).toBeCloseTo(1, 5);
    // ...a sentence sharing one word is closer than one sharing none.
    expect(cosine(a, d)).toBeGreaterThan(cosine(a, c));
    expect(cosine(a, b)).toBeLessThan(1);
  });

  it('a batch spread over worker threads gives the same vectors, in order, as one text at a time', async () => {
    const dir = path.join(tmp, 'tiny-bert');
    writeTinyModel(dir);
    const texts = Array.from({ length: 37 }, (_, i) => ['session', 'refresh', 'ledger', 'token', 'invoice', 'payment'].slice(i % 6, (i % 6) + 1 + (i % 3)).join(' ') + ` user ${i % 2 ? 'login' : 'balance'}`);
    const batched = await make({ modelPath: dir, cacheDir: tmp, workers: 2, batchSize: 5 }).embedDocuments(texts);
    const single = make({ modelPath: dir, cacheDir: tmp, workers: 1, batchSize: 1 });
    expect(batched).toHaveLength(texts.length);
    for (let i = 0; i < texts.length; i += 6) {
      const [one] = await single.embedDocuments([texts[i]]);
      expect(cosine(batched[i], one)).toBeCloseTo(1, 5);
    }
  });

  it('downloads the model once into the cache dir from EMBEDDINGS_MODEL_HOST, reporting progress, then works offline', async () => {
    const hostRoot = path.join(tmp, 'host');
    const files = writeTinyModel(path.join(hostRoot, 'acme', 'tiny-bert'));
    const host = await serveModelHost(hostRoot);
    try {
      const cacheDir = path.join(tmp, 'data', 'models');
      const progress: DownloadProgress[] = [];
      const embedder = make({ model: 'acme/tiny-bert', cacheDir, host: host.url, dimensions: TINY_DIMS, workers: 1, onProgress: (p) => progress.push(p) });
      expect((await embedder.health()).detail).toMatch(/downloaded from http:\/\/127\.0\.0\.1:\d+ .* on first use/);
      const [v] = await embedder.embedDocuments(['session refresh']);
      expect(norm(v)).toBeCloseTo(1, 5);
      expect(host.requests.sort()).toEqual(files.map((f) => `/acme/tiny-bert/resolve/main/${f}`).sort());
      for (const f of files) expect(fs.existsSync(path.join(cacheDir, 'acme', 'tiny-bert', f))).toBe(true);
      const onnx = progress.filter((p) => p.file === 'onnx/model_quantized.onnx');
      expect(onnx.at(-1)).toMatchObject({ done: true, loaded: onnx.at(-1)!.total });
      expect((await embedder.health()).detail).toMatch(/files in .*acme\/tiny-bert/);

      // A second embedder (a restart) finds the files and downloads nothing, even with the host gone.
      await host.close();
      const again = make({ model: 'acme/tiny-bert', cacheDir, host: host.url, workers: 1 });
      expect(again.dimensions).toBe(TINY_DIMS); // read from the downloaded config.json
      expect(cosine((await again.embedDocuments(['session refresh']))[0], v)).toBeCloseTo(1, 5);
      expect(host.requests).toHaveLength(files.length);
    } finally {
      await host.close().catch(() => undefined);
    }
  });

  it('fails clearly when the model can be neither downloaded nor found, and leaves no partial files', async () => {
    const hostRoot = path.join(tmp, 'empty-host');
    fs.mkdirSync(hostRoot);
    const host = await serveModelHost(hostRoot);
    try {
      const cacheDir = path.join(tmp, 'models');
      const missing = make({ model: 'acme/nope', cacheDir, host: host.url, dimensions: 8 });
      const err = await missing.embedQuery('x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EmbeddingError);
      expect((err as Error).message).toMatch(/Could not download config\.json of embedding model acme\/nope from http:.*HTTP 404.*EMBEDDINGS_MODEL_PATH/);
      expect(fs.existsSync(path.join(cacheDir, 'acme', 'nope', 'config.json'))).toBe(false);
    } finally {
      await host.close();
    }

    // A download cut off mid-file leaves neither the file nor its .part behind.
    const cut = http.createServer((req, res) => {
      if (req.url?.endsWith('config.json')) return void res.writeHead(200, { 'content-length': 1000 }).write('{"hidden_size": 8', () => res.destroy());
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => cut.listen(0, '127.0.0.1', r));
    try {
      const cacheDir = path.join(tmp, 'models-cut');
      const e = make({ model: 'acme/cut', cacheDir, host: `http://127.0.0.1:${(cut.address() as AddressInfo).port}`, dimensions: 8 });
      await expect(e.embedQuery('x')).rejects.toThrow(/Could not download config\.json of embedding model acme\/cut/);
      expect(fs.readdirSync(path.join(cacheDir, 'acme', 'cut'))).toEqual([]);
    } finally {
      await new Promise((r) => cut.close(r));
    }
    const unreachable = make({ model: 'acme/nope', cacheDir: tmp, host: 'http://127.0.0.1:9', dimensions: 8 });
    await expect(unreachable.embedDocuments(['x'])).rejects.toThrow(/Could not download .* from http:\/\/127\.0\.0\.1:9\/acme\/nope\/resolve\/main\/config\.json/);

    const emptyDir = path.join(tmp, 'air-gapped');
    fs.mkdirSync(emptyDir);
    const airGapped = make({ modelPath: emptyDir, cacheDir: tmp, dimensions: 8 });
    expect(await airGapped.health()).toMatchObject({ ok: false });
    await expect(airGapped.embedQuery('x')).rejects.toThrow(/EMBEDDINGS_MODEL_PATH .*air-gapped is missing config\.json, tokenizer\.json, tokenizer_config\.json, onnx\/model_quantized\.onnx/);
    expect(() => make({ model: 'acme/unknown-width', cacheDir: tmp })).toThrow(/set EMBEDDINGS_DIM/);
    expect(() => make({ model: '../../etc', cacheDir: tmp, dimensions: 8 })).toThrow(/not a model id/);
  });

  it('createEmbedder({ provider: "local" }) behind the cache: the cache key is the model id, so another model re-embeds', async () => {
    const dir = path.join(tmp, 'tiny-bert');
    writeTinyModel(dir);
    const other = path.join(tmp, 'tiny-bert-2');
    writeTinyModel(other, { dims: 8 });
    const cache = new MemoryEmbeddingCache();
    const first = createEmbedder({ provider: 'local', modelPath: dir, workers: 1 }) as LocalEmbedder;
    const second = createEmbedder({ provider: 'local', modelPath: other, workers: 1 }) as LocalEmbedder;
    embedders.push(first, second);
    const a = new CachedEmbedder({ embedder: first, cache });
    await a.embedDocuments(['session refresh', 'ledger balance']);
    await a.embedDocuments(['session refresh', 'ledger balance']);
    expect(a.stats).toMatchObject({ hits: 2, misses: 2 });
    const b = new CachedEmbedder({ embedder: second, cache });
    const [v] = await b.embedDocuments(['session refresh']);
    expect(b.stats).toMatchObject({ hits: 0, misses: 1 });
    expect(v).toHaveLength(8);
  });
});
