/**
 * The embedded store's restart snapshot: a clean close writes the in-memory mirror (and a log of
 * keyword records) next to SQLite, and the next open reads it back instead of every row. Whatever
 * happens to the files, an open must answer exactly what SQLite holds.
 */
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChunkPayload, ChunkPoint, KeywordMode, TaskPoint } from '@sextant/retrieval';
import { openEmbeddedStore } from '../../src/storage/embedded';
import { testUuid } from './chunk-index.contract';

const DIMS = 8;
const WS = 'ws-snapshot';
/** A word only a rewritten point carries, one per rewrite. */
const VARIANT_WORDS = ['', 'zebra', 'quokka', 'pelican', 'walrus', 'narwhal'];
const WORDS = ['parse', 'http', 'response', 'cache', 'user', 'session', 'token', 'query', 'builder', 'render'];

function vec(seed: number): number[] {
  return Array.from({ length: DIMS }, (_, i) => Math.sin(seed * 7.3 + i * 1.7));
}

function chunk(i: number, variant = 0): ChunkPoint {
  const text = `function f${i}() { ${WORDS[i % 10]} ${WORDS[(i * 3 + variant) % 10]} ${WORDS[(i * 7) % 10]}${variant ? ` ${VARIANT_WORDS[variant]}` : ''} }`;
  const path = `src/m${i % 7}/file${i % 23}.ts`;
  const payload: ChunkPayload = {
    workspaceId: WS, repoId: i % 2 ? 'repo-a' : 'repo-b', path, lang: i % 3 ? 'typescript' : 'python', chunkType: 'function', name: `f${i}`, symbol: `f${i}`, symbols: [`f${i}`],
    parentId: null, signature: null, startLine: 1, endLine: 1, startByte: 0, endByte: text.length, contentHash: `h${i}:${variant}`, content: text,
  };
  return { id: testUuid(`snapshot:${i}`), vector: vec(i + variant * 0.37), text: `${path}\nf${i}\n${text}`, payload };
}

const POINTS = Array.from({ length: 120 }, (_, i) => chunk(i));
const TASK: TaskPoint = {
  id: testUuid('snapshot:task'), vector: vec(99), text: 'Flaky login test times out on CI',
  payload: { workspaceId: WS, taskId: 'T-1', title: 'Flaky login test', files: ['src/login.ts'], status: 'closed', source: 'github', createdAt: null },
};
const QUERIES: [string, KeywordMode][] = [
  ['parse http', 'and'],
  ['cache token', 'or'],
  ['user session', 'phrase'],
  [VARIANT_WORDS.join(' '), 'or'],
];

type Store = ReturnType<typeof openEmbeddedStore>;

/** The vector point `i` was last written with (its content hash names the variant). */
async function pointVector(store: Store, i: number): Promise<number[]> {
  const [stored] = await store.chunks.get([POINTS[i].id], { workspaceId: WS });
  const variant = stored ? Number(stored.payload.contentHash.split(':')[1]) : 0;
  return vec(i + variant * 0.37);
}

/** Everything a user can observe: keyword and dense hits (ids, scores), filtered counts, payloads. */
async function observe(store: Store) {
  const out: unknown[] = [];
  for (const [q, mode] of QUERIES) out.push((await store.chunks.searchKeyword(q, { workspaceId: WS }, 20, { mode })).map((h) => [h.id, h.score.toFixed(9)]));
  out.push((await store.chunks.searchKeyword('parse', { workspaceId: WS, repoIds: ['repo-a'], langs: ['typescript'] }, 20, { mode: 'or' })).map((h) => h.id));
  out.push((await store.chunks.searchDense(vec(3.3), { workspaceId: WS }, 10)).map((h) => [h.id, h.score.toFixed(6)]));
  out.push((await store.chunks.searchDense(vec(5.1), { workspaceId: WS, paths: ['src/m1/file1.ts', 'src/m3/file12.ts'] }, 10)).map((h) => h.id));
  out.push(await store.chunks.count({ workspaceId: WS }));
  out.push(await store.chunks.count({ workspaceId: WS, repoIds: ['repo-b'] }));
  out.push(await store.chunks.count({ workspaceId: WS, symbols: ['f7', 'f8'] }));
  out.push((await store.chunks.get([0, 1, 5, 10, 41, 70].map((i) => POINTS[i].id), { workspaceId: WS })).map((p) => p.payload.content));
  // Every point's own vector finds it first: vectors and ids stayed together.
  for (const i of [0, 1, 2, 11, 41, 42]) out.push((await store.chunks.searchDense(await pointVector(store, i), { workspaceId: WS }, 1)).map((h) => h.id));
  out.push((await store.tasks.searchKeyword('flaky login', { workspaceId: WS }, 5)).map((h) => h.id));
  return out;
}

describe('embedded store restart snapshot', () => {
  let dir: string;
  let file: string;
  const snap = () => `${file}-chunks.snap`;
  const log = () => `${file}-chunks.kw`;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sextant-embedded-snapshot-'));
    file = join(dir, 'vectors.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** What the store answers when it has to load every row (no snapshot). */
  async function fromRows(): Promise<unknown[]> {
    const copy = join(dir, 'rows');
    rmSync(copy, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(copy);
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) copyFileSync(file + suffix, join(copy, `vectors.sqlite${suffix}`));
    const store = openEmbeddedStore({ file: join(copy, 'vectors.sqlite') });
    const seen = await observe(store);
    await store.close();
    return seen;
  }

  /** A store after some writes: upserts, replacements, deletes (freed and reused slots). */
  async function written(): Promise<unknown[]> {
    const store = openEmbeddedStore({ file });
    await store.chunks.upsert(POINTS);
    await store.tasks.upsert([TASK]);
    await store.chunks.delete({ workspaceId: WS, paths: ['src/m2/file2.ts', 'src/m4/file4.ts'] });
    await store.chunks.upsert(POINTS.slice(10, 30).map((p, i) => chunk(10 + i, 1)));
    const seen = await observe(store);
    await store.close();
    return seen;
  }

  it('answers exactly as before after a clean restart, and again after writes on the restored store', async () => {
    const before = await written();
    expect(existsSync(snap())).toBe(true);
    let store = openEmbeddedStore({ file });
    expect(await observe(store)).toEqual(before);
    // Writes on a store restored from the snapshot reach the next snapshot.
    await store.chunks.upsert(POINTS.slice(40, 60).map((p, i) => chunk(40 + i, 2)));
    await store.chunks.delete({ workspaceId: WS, ids: [POINTS[70].id] });
    const after = await observe(store);
    expect(after).not.toEqual(before);
    await store.close();
    store = openEmbeddedStore({ file });
    expect(await observe(store)).toEqual(after);
    await store.close();
    expect(await fromRows()).toEqual(after);
  });

  it('loads rows after a crash: writes made since the snapshot are never lost', async () => {
    await written();
    const crashed = openEmbeddedStore({ file });
    // Points rewritten in place: same ids, same slots, same row count.
    await crashed.chunks.upsert(POINTS.slice(5, 10).map((p, i) => chunk(5 + i, 3)));
    const expected = await observe(crashed);
    // No close: the snapshot on disk is the one from before these writes.
    const next = openEmbeddedStore({ file });
    expect(await observe(next)).toEqual(expected);
    await next.close();
    await crashed.close();
    const last = openEmbeddedStore({ file });
    expect(await observe(last)).toEqual(expected);
    await last.close();
  });

  it('falls back to rows when the snapshot or its keyword log is damaged, missing, or from another copy of the database', async () => {
    const expected = await written();
    const reopen = async () => {
      const store = openEmbeddedStore({ file });
      expect(await observe(store)).toEqual(expected);
      await store.close();
    };
    // Scribbled over (header intact, data wrong): the log holds the keyword records the snapshot points at.
    const fd = openSync(log(), 'r+');
    writeSync(fd, Buffer.alloc(64, 0x7f), 0, 64, 0);
    closeSync(fd);
    truncateSync(log(), Math.floor(statSync(log()).size / 2));
    await reopen();
    rmSync(snap());
    await reopen();
    truncateSync(snap(), 100);
    await reopen();
    rmSync(log());
    await reopen();

    // The database put back from a copy taken before later writes: the newer snapshot is not its own.
    copyFileSync(file, `${file}.bak`);
    const later = openEmbeddedStore({ file });
    await later.chunks.upsert(POINTS.map((p, i) => chunk(i, 4)));
    await later.close();
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    copyFileSync(`${file}.bak`, file);
    await reopen();
  });

  it('does not snapshot a mirror another connection has written behind its back', async () => {
    await written();
    rmSync(snap()); // both load rows, so both would write a snapshot at close
    const a = openEmbeddedStore({ file });
    const b = openEmbeddedStore({ file });
    await a.chunks.upsert(POINTS.slice(5, 13).map((p, i) => chunk(5 + i, 5))); // in place: the row count stays
    const expected = await observe(a);
    await a.close();
    await b.close(); // b never saw a's write
    const store = openEmbeddedStore({ file });
    expect(await observe(store)).toEqual(expected);
    await store.close();
  });

  it('still snapshots after the background checkpointer copied the log (a checkpoint is not another writer)', async () => {
    const store = openEmbeddedStore({ file, checkpoints: { minBytes: 1, intervalMs: 60_000 } });
    await store.chunks.upsert(POINTS);
    await store.checkpointer!.checkpointNow();
    await store.chunks.upsert(POINTS.slice(10, 30).map((p, i) => chunk(10 + i, 1)));
    await store.checkpointer!.checkpointNow();
    expect(store.checkpointer!.stats).toMatchObject({ runs: 2, failures: 0 });
    const expected = await observe(store);
    await store.close();
    expect(existsSync(snap())).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = openEmbeddedStore({ file });
    expect(await observe(reopened)).toEqual(expected);
    await reopened.close();
    expect(await fromRows()).toEqual(expected);
  });
});
