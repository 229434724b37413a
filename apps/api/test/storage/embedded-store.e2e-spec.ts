/**
 * Embedded-store behaviour beyond the shared ChunkIndex contract: opening files written by the
 * FTS5-based version, the exact-path delete fast path, slot reuse, and the float-vector file
 * used for rescoring.
 */
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenize, type ChunkPayload, type ChunkPoint, type KeywordMode, type TaskPoint } from '@sextant/retrieval';
import { openEmbeddedStore } from '../../src/storage/embedded';
import { testUuid } from './chunk-index.contract';

const DIMS = 8;
const WS = 'ws-embedded';

function vec(seed: number): number[] {
  return Array.from({ length: DIMS }, (_, i) => Math.sin(seed * 7.3 + i * 1.7));
}

function chunk(key: string, path: string, text: string, repoId = 'repo'): ChunkPoint {
  const payload: ChunkPayload = {
    workspaceId: WS, repoId, path, lang: 'typescript', chunkType: 'function', name: null, symbol: null, symbols: [],
    parentId: null, signature: null, startLine: 1, endLine: 1, startByte: 0, endByte: text.length, contentHash: key, content: text,
  };
  return { id: testUuid(`embedded:${key}`), vector: vec(key.length + text.length), text, payload };
}

const CHUNKS = [
  chunk('parse', 'src/http/parse.ts', 'export function parseHttpResponse(raw: string): HttpResponse { return decode(raw) }'),
  chunk('client', 'src/http/client.ts', 'async send(req) { // parse the http request line, then build a response object\n return this.transport.write(req) }'),
  chunk('readme', 'README.md', 'Run the http server with make serve; responses are cached for one minute.'),
  chunk('query', 'app/db/query_builder.py', 'class QueryBuilder:\n    def build_query(self, table):\n        return f"SELECT * FROM {table}"'),
];
const TASK: TaskPoint = {
  id: testUuid('embedded:task'), vector: vec(99), text: 'Flaky login test times out on CI',
  payload: { workspaceId: WS, taskId: 'T-1', title: 'Flaky login test', files: ['src/login.ts'], status: 'closed', source: 'github', createdAt: null },
};

const QUERIES: [string, KeywordMode][] = [
  ['parse http response', 'and'],
  ['http response', 'or'],
  ['http response', 'phrase'],
  ['QueryBuilder build_query', 'and'],
  ['responses cached', 'or'],
];

describe('embedded store', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sextant-embedded-store-'));
    file = join(dir, 'vectors.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function keywordResults(store: ReturnType<typeof openEmbeddedStore>) {
    const out: { id: string; score: number }[][] = [];
    for (const [q, mode] of QUERIES) out.push((await store.chunks.searchKeyword(q, { workspaceId: WS }, 10, { mode })).map((h) => ({ id: h.id, score: h.score })));
    out.push((await store.tasks.searchKeyword('flaky login', { workspaceId: WS }, 10)).map((h) => ({ id: h.id, score: h.score })));
    return out;
  }

  it('opens a file written by the FTS5-based store and answers keyword queries exactly as before', async () => {
    let store = openEmbeddedStore({ file });
    await store.chunks.upsert(CHUNKS);
    await store.tasks.upsert([TASK]);
    const before = await keywordResults(store);
    expect(before[0].length).toBe(2); // sanity: the queries do match something
    await store.close();

    // Rewrite the file into the FTS5-era layout: no token columns, no term table, tokens only
    // inside a contentless FTS5 table keyed by slot (exactly what that version wrote).
    const db = new Database(file);
    const texts = new Map<string, string>([...CHUNKS, TASK].map((p) => [p.id, p.text]));
    for (const t of ['chunks', 'tasks']) {
      db.exec(`CREATE VIRTUAL TABLE ${t}_fts USING fts5(tokens, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 tokenchars '_$.'")`);
      const ins = db.prepare(`INSERT INTO ${t}_fts (rowid, tokens) VALUES (?, ?)`);
      for (const row of db.prepare(`SELECT slot, id FROM ${t}_points`).all() as { slot: number; id: string }[]) ins.run(row.slot, tokenize(texts.get(row.id)!).join(' '));
      db.exec(`ALTER TABLE ${t}_points DROP COLUMN tokens`);
      db.exec(`ALTER TABLE ${t}_points DROP COLUMN kw`);
      db.exec(`DROP TABLE ${t}_terms`);
    }
    db.close();

    store = openEmbeddedStore({ file });
    const after = await keywordResults(store);
    expect(after.map((r) => r.map((h) => h.id))).toEqual(before.map((r) => r.map((h) => h.id)));
    after.forEach((r, i) => r.forEach((h, j) => expect(h.score).toBeCloseTo(before[i][j].score, 9)));
    // New writes after the upgrade keep working, and a second open is a no-op upgrade.
    const extra = chunk('extra', 'src/zoo.ts', 'function zanzibarQuokka() { return 1 }');
    await store.chunks.upsert([extra]);
    await store.close();
    store = openEmbeddedStore({ file });
    expect((await store.chunks.searchKeyword('zanzibarQuokka', { workspaceId: WS }, 5)).map((h) => h.id)).toEqual([extra.id]);
    expect((await keywordResults(store)).map((r) => r.map((h) => h.id))).toEqual(before.map((r) => r.map((h) => h.id)));
    // Deleting restored chunks keeps every other posting intact.
    expect(await store.chunks.delete({ workspaceId: WS, paths: ['README.md', 'src/http/client.ts'] })).toBe(2);
    expect((await store.chunks.searchKeyword('http response', { workspaceId: WS }, 10, { mode: 'or' })).map((h) => h.id)).toEqual([CHUNKS[0].id]);
    expect((await store.chunks.searchKeyword('QueryBuilder', { workspaceId: WS }, 10)).map((h) => h.id)).toEqual([CHUNKS[3].id]);
    await store.close();

    const check = new Database(file, { readonly: true });
    expect(check.prepare(`SELECT name FROM sqlite_master WHERE name LIKE '%_fts%'`).all()).toEqual([]);
    expect(check.prepare(`SELECT count(*) AS n FROM chunks_points WHERE kw IS NULL OR tokens IS NOT NULL`).get()).toEqual({ n: 0 });
    check.close();
  });

  it('deletes by exact paths only what is still at those paths, after chunks moved between files', async () => {
    const store = openEmbeddedStore({ file });
    const [a, b] = CHUNKS;
    await store.chunks.upsert([a, b]);
    const moved = { ...a, payload: { ...a.payload, path: b.payload.path } };
    await store.chunks.upsert([moved]);
    const f = { workspaceId: WS };
    expect(await store.chunks.delete({ ...f, paths: [a.payload.path] })).toBe(0);
    expect(await store.chunks.count({ ...f, paths: [b.payload.path] })).toBe(2);
    expect(await store.chunks.delete({ ...f, repoIds: ['another-repo'], paths: [b.payload.path] })).toBe(0);
    expect(await store.chunks.delete({ workspaceId: 'another-ws', paths: [b.payload.path] })).toBe(0);
    expect(await store.chunks.delete({ ...f, repoIds: ['repo'], paths: [b.payload.path, 'never/stored.ts'] })).toBe(2);
    expect(await store.chunks.count(f)).toBe(0);
    expect(await store.chunks.searchKeyword('http', f, 10, { mode: 'or' })).toEqual([]);
    await store.close();
  });

  it('never lets a reused slot match the words of the chunk it replaced, before or after a restart', async () => {
    let store = openEmbeddedStore({ file });
    const gone = chunk('gone', 'src/gone.ts', 'function zanzibarQuokka() { return 1 }');
    await store.chunks.upsert([CHUNKS[0], gone]);
    await store.chunks.delete({ workspaceId: WS, ids: [gone.id] });
    const next = chunk('next', 'src/next.ts', 'function pelicanBrief() { return 2 }');
    await store.chunks.upsert([next]);
    for (let round = 0; round < 2; round++) {
      expect(await store.chunks.searchKeyword('zanzibarQuokka', { workspaceId: WS }, 5, { mode: 'or' })).toEqual([]);
      expect((await store.chunks.searchKeyword('pelican brief', { workspaceId: WS }, 5, { mode: 'phrase' })).map((h) => h.id)).toEqual([next.id]);
      await store.close();
      store = openEmbeddedStore({ file });
    }
    await store.close();
  });

  describe('search hits read their stored payload only when a field is used', () => {
    it('behave like the stored payload: fields, keys in stored order, JSON, spread and equality', async () => {
      const store = openEmbeddedStore({ file });
      await store.chunks.upsert(CHUNKS);
      await store.tasks.upsert([TASK]);
      const [hit] = await store.chunks.searchKeyword('parseHttpResponse', { workspaceId: WS }, 1);
      const stored = CHUNKS[0].payload;
      expect([hit.payload.repoId, hit.payload.path, hit.payload.lang]).toEqual([stored.repoId, stored.path, stored.lang]);
      expect(hit.payload.content).toBe(stored.content);
      expect(JSON.stringify(hit.payload)).toBe(JSON.stringify(stored));
      expect({ ...hit.payload }).toEqual(stored);
      expect(hit.payload).toEqual(stored);
      const [task] = await store.tasks.searchKeyword('flaky login', { workspaceId: WS }, 1, { mode: 'or' });
      expect(task.payload).toEqual(TASK.payload);
      await store.close();
    });

    it('answer with the payload as it was at search time when the chunk is re-indexed or deleted before it is read', async () => {
      const store = openEmbeddedStore({ file });
      await store.chunks.upsert(CHUNKS);
      const f = { workspaceId: WS };
      const before = await store.chunks.searchKeyword('http', f, 10, { mode: 'or' });
      const parse = before.find((h) => h.id === CHUNKS[0].id)!;
      const client = before.find((h) => h.id === CHUNKS[1].id)!;
      await store.chunks.upsert([{ ...CHUNKS[0], payload: { ...CHUNKS[0].payload, content: 'rewritten' } }]);
      await store.chunks.delete({ ...f, ids: [CHUNKS[1].id] });
      // The deleted chunk's slot is reused by a new one.
      await store.chunks.upsert([chunk('other', 'src/other.ts', 'function elsewhere() {}')]);
      expect(parse.payload.content).toBe(CHUNKS[0].payload.content);
      expect(client.payload).toEqual(CHUNKS[1].payload);
      const [now] = await store.chunks.searchKeyword('parseHttpResponse', f, 1);
      expect(now.payload.content).toBe('rewritten');
      await store.close();
    });

    it('carry the right ids after a restart from the snapshot, with free slots among the live ones', async () => {
      let store = openEmbeddedStore({ file });
      await store.chunks.upsert(CHUNKS);
      await store.chunks.delete({ workspaceId: WS, ids: [CHUNKS[1].id] });
      await store.close();
      store = openEmbeddedStore({ file });
      const hits = await store.chunks.searchKeyword('http', { workspaceId: WS }, 10, { mode: 'or' });
      expect(hits.map((h) => h.id).sort()).toEqual([CHUNKS[0].id, CHUNKS[2].id].sort());
      for (const h of hits) expect(h.payload).toEqual(CHUNKS.find((c) => c.id === h.id)!.payload);
      await store.close();
    });
  });

  describe('float-vector file (rescoring)', () => {
    // 200 points, k = 60: with oversampling 4 every point is rescored, so the answer is the exact float ranking.
    const points = Array.from({ length: 200 }, (_, i) => ({ ...chunk(`v${i}`, `src/v${i % 17}.ts`, `value ${i}`), vector: vec(i * 1.37 + 0.5) }));
    const exact = (q: number[]) => {
      const n = (v: readonly number[]) => Math.hypot(...v);
      return points
        .map((p) => ({ id: p.id, score: (p.vector as number[]).reduce((s, x, i) => s + x * q[i], 0) / n(p.vector as number[]) / n(q) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 60);
    };
    // The last two have at most half their dimensions non-zero (hash-embedder queries look like that): the rescoring sums only those.
    const queries = [vec(3), vec(11), vec(42), vec(5).map((x, i) => (i % 3 === 0 ? x : 0)), vec(8).map((x, i) => (i === 6 ? x : 0))];
    async function expectExact(store: ReturnType<typeof openEmbeddedStore>) {
      for (const q of queries) {
        const hits = await store.chunks.searchDense(q, { workspaceId: WS }, 60);
        expect(hits.map((h) => h.id)).toEqual(exact(q).map((h) => h.id));
        hits.forEach((h, i) => expect(h.score).toBeCloseTo(exact(q)[i].score, 5));
      }
    }
    const vectorFile = () => `${file}-chunks.f32`;
    const scribble = () => {
      const fd = openSync(vectorFile(), 'r+');
      writeSync(fd, Buffer.alloc(points.length * DIMS * 4, 0x41), 0, points.length * DIMS * 4, 64);
      closeSync(fd);
    };

    it('rescores from the file and survives a clean restart', async () => {
      const store = openEmbeddedStore({ file });
      await store.chunks.upsert(points);
      await expectExact(store);
      expect(existsSync(vectorFile())).toBe(true);
      await store.close();
      const again = openEmbeddedStore({ file });
      await expectExact(again);
      await again.close();
    });

    it('rebuilds the file from SQLite after a crash, when it is missing, and when SQLite was restored from a copy', async () => {
      const first = openEmbeddedStore({ file });
      await first.chunks.upsert(points);
      await first.close();
      // Written to after a clean open, then never closed (a crash): garbage in the file must not survive the next open.
      const crashed = openEmbeddedStore({ file });
      await crashed.chunks.upsert(points.slice(0, 3));
      scribble();
      const second = openEmbeddedStore({ file });
      await expectExact(second);
      await second.close();
      await crashed.close(); // (releases the connection; the file is rebuilt below anyway)

      rmSync(vectorFile());
      const third = openEmbeddedStore({ file });
      await expectExact(third);
      await third.close();

      // A copy of the database from an earlier clean close, put back after the file moved on.
      copyFileSync(file, `${file}.bak`);
      const fourth = openEmbeddedStore({ file });
      await fourth.chunks.upsert(points.map((p) => ({ ...p, vector: (p.vector as number[]).map((x) => -x) })));
      await fourth.close();
      rmSync(`${file}-wal`, { force: true });
      rmSync(`${file}-shm`, { force: true });
      copyFileSync(`${file}.bak`, file);
      const fifth = openEmbeddedStore({ file });
      await expectExact(fifth);
      await fifth.close();
    });
  });
});
