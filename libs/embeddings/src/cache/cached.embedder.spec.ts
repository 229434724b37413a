import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHash } from '../content-hash.util';
import { Embedder } from '../embedder.port';
import { HashEmbedder } from '../hash/hash.embedder';
import { CachedEmbedder } from './cached.embedder';
import { EmbeddingCache } from './embedding-cache.port';
import { MemoryEmbeddingCache } from './memory-embedding.cache';
import { SqliteEmbeddingCache } from './sqlite-embedding.cache';

/** A real HashEmbedder that records every text it is asked to embed. */
class RecordingEmbedder implements Embedder {
  readonly calls: string[][] = [];
  private readonly inner: HashEmbedder;
  constructor(options: { dimensions?: number; id?: string } = {}) {
    this.inner = new HashEmbedder({ dimensions: options.dimensions ?? 64 });
    this.id = options.id ?? this.inner.id;
    this.dimensions = this.inner.dimensions;
  }
  readonly id: string;
  readonly dimensions: number;
  async embedDocuments(texts: string[]) {
    this.calls.push(texts);
    return this.inner.embedDocuments(texts);
  }
  embedQuery(text: string) {
    return this.inner.embedQuery(text);
  }
  health() {
    return this.inner.health();
  }
  get embeddedTexts(): string[] {
    return this.calls.flat();
  }
}

const CHUNKS = ['function a() { return 1; }', 'class UserRepository {}', 'export const MAX_RETRIES = 5;'];

describe('contentHash', () => {
  it('is the sha256 hex of the text, identical for identical text', () => {
    expect(contentHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(contentHash(CHUNKS[0])).toBe(contentHash(String(CHUNKS[0])));
    expect(contentHash('a')).not.toBe(contentHash('a '));
  });
});

describe.each<[string, (dir: string) => EmbeddingCache & { close?: () => void }]>([
  ['MemoryEmbeddingCache', () => new MemoryEmbeddingCache()],
  ['SqliteEmbeddingCache', (dir) => new SqliteEmbeddingCache({ path: join(dir, 'cache.sqlite') })],
])('CachedEmbedder with %s', (_name, makeCache) => {
  let dir: string;
  let cache: EmbeddingCache & { close?: () => void };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sextant-emb-'));
    cache = makeCache(dir);
  });
  afterEach(() => {
    cache.close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes zero embedder calls on a second run over the same inputs and returns the same vectors', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new CachedEmbedder({ embedder: inner, cache });
    const first = await embedder.embedChunks(CHUNKS.map((text) => ({ text })));
    expect(inner.embeddedTexts).toHaveLength(3);
    inner.calls.length = 0;
    embedder.resetStats();
    const second = await embedder.embedChunks(CHUNKS.map((text) => ({ text, contentHash: contentHash(text) })));
    expect(inner.calls).toHaveLength(0);
    expect(embedder.stats).toEqual({ hits: 3, misses: 0, embedded: 0 });
    second.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(first[i])));
  });

  it('passes documents of a non-cacheable embedder (the hash embedder) straight through, storing nothing', async () => {
    const hash = new HashEmbedder({ dimensions: 64 });
    expect(hash.cacheable).toBe(false);
    const embedder = new CachedEmbedder({ embedder: hash, cache });
    const first = await embedder.embedChunks([...CHUNKS, CHUNKS[0]].map((text) => ({ text })));
    const again = await embedder.embedDocuments(CHUNKS);
    expect(await cache.getMany(hash.id, CHUNKS.map(contentHash))).toEqual(new Map());
    expect(embedder.stats).toEqual({ hits: 0, misses: 7, embedded: 6 });
    const direct = await hash.embedDocuments(CHUNKS);
    const expected = [...direct, direct[0], ...direct];
    [...first, ...again].forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(expected[i])));
  });

  it('embeds only the changed chunk after an edit, in input order', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new CachedEmbedder({ embedder: inner, cache });
    await embedder.embedDocuments(CHUNKS);
    inner.calls.length = 0;
    const edited = [CHUNKS[0], 'class UserRepository { find() {} }', CHUNKS[2]];
    const vectors = await embedder.embedDocuments(edited);
    expect(inner.embeddedTexts).toEqual([edited[1]]);
    const direct = await new HashEmbedder({ dimensions: 64 }).embedDocuments(edited);
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(direct[i])));
  });

  it('embeds identical texts in one batch once', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new CachedEmbedder({ embedder: inner, cache });
    const vectors = await embedder.embedDocuments([CHUNKS[0], CHUNKS[1], CHUNKS[0], CHUNKS[0]]);
    expect(inner.embeddedTexts).toEqual([CHUNKS[0], CHUNKS[1]]);
    expect(embedder.stats).toEqual({ hits: 0, misses: 4, embedded: 2 });
    expect(Array.from(vectors[3])).toEqual(Array.from(vectors[0]));
  });

  it('never shares entries between model ids', async () => {
    const a = new RecordingEmbedder({ id: 'model-a' });
    const b = new RecordingEmbedder({ id: 'model-b' });
    await new CachedEmbedder({ embedder: a, cache }).embedDocuments(CHUNKS);
    await new CachedEmbedder({ embedder: b, cache }).embedDocuments(CHUNKS);
    expect(b.embeddedTexts).toEqual(CHUNKS);
  });

  it('treats a cached vector of the wrong length as a miss', async () => {
    await cache.putMany('hash-v1:64', [[contentHash(CHUNKS[0]), new Float32Array(3)]]);
    const inner = new RecordingEmbedder();
    const [v] = await new CachedEmbedder({ embedder: inner, cache }).embedDocuments([CHUNKS[0]]);
    expect(v).toHaveLength(64);
    expect(inner.embeddedTexts).toEqual([CHUNKS[0]]);
  });

  it('keeps what was embedded before a failure', async () => {
    const inner = new RecordingEmbedder();
    let calls = 0;
    const flaky: Embedder = {
      id: inner.id,
      dimensions: inner.dimensions,
      embedDocuments: async (texts) => {
        if (++calls === 2) throw new Error('provider down');
        return inner.embedDocuments(texts);
      },
      embedQuery: (t) => inner.embedQuery(t),
      health: () => inner.health(),
    };
    await expect(new CachedEmbedder({ embedder: flaky, cache, writeBatchSize: 2 }).embedDocuments(CHUNKS)).rejects.toThrow('provider down');
    inner.calls.length = 0;
    await new CachedEmbedder({ embedder: inner, cache }).embedDocuments(CHUNKS);
    expect(inner.embeddedTexts).toEqual([CHUNKS[2]]);
  });
});

describe('SqliteEmbeddingCache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sextant-emb-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('survives closing and reopening the file (a restart re-embeds nothing)', async () => {
    const path = join(dir, 'nested', 'embeddings.sqlite');
    const first = new SqliteEmbeddingCache({ path });
    const inner = new RecordingEmbedder();
    const before = await new CachedEmbedder({ embedder: inner, cache: first }).embedDocuments(CHUNKS);
    first.close();

    const reopened = new SqliteEmbeddingCache({ path });
    const fresh = new RecordingEmbedder();
    const after = await new CachedEmbedder({ embedder: fresh, cache: reopened }).embedDocuments(CHUNKS);
    expect(fresh.calls).toHaveLength(0);
    after.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(before[i])));
    expect(reopened.count()).toBe(3);
    expect(reopened.count('other-model')).toBe(0);
    reopened.close();
  });

  it('stores vectors bit-exactly and can drop a model', () => {
    const cache = new SqliteEmbeddingCache({ path: join(dir, 'c.sqlite') });
    const v = Float32Array.of(0.1, -0.2, 1e-30, 3.4e38);
    cache.putMany('m', [['h', v]]);
    expect(Array.from(cache.getMany('m', ['h', 'missing']).get('h')!)).toEqual(Array.from(v));
    expect(cache.getMany('m', ['missing']).size).toBe(0);
    expect(cache.deleteModel('m')).toBe(1);
    expect(cache.getMany('m', ['h']).size).toBe(0);
    cache.close();
  });

  it('uses WAL journaling', () => {
    const path = join(dir, 'w.sqlite');
    const cache = new SqliteEmbeddingCache({ path });
    cache.putMany('m', [['h', new Float32Array(4)]]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3');
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    cache.close();
  });
});

describe('MemoryEmbeddingCache', () => {
  it('evicts the least recently used entry', () => {
    const cache = new MemoryEmbeddingCache({ maxEntries: 2 });
    cache.putMany('m', [['a', Float32Array.of(1)], ['b', Float32Array.of(2)]]);
    cache.getMany('m', ['a']); // a is now more recent than b
    cache.putMany('m', [['c', Float32Array.of(3)]]);
    expect([...cache.getMany('m', ['a', 'b', 'c']).keys()]).toEqual(['a', 'c']);
  });

  it('hands out copies, so mutating a result does not corrupt the cache', () => {
    const cache = new MemoryEmbeddingCache();
    cache.putMany('m', [['a', Float32Array.of(1, 2)]]);
    cache.getMany('m', ['a']).get('a')!.fill(0);
    expect(Array.from(cache.getMany('m', ['a']).get('a')!)).toEqual([1, 2]);
  });
});
