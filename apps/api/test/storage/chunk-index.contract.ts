/**
 * The one contract every ChunkIndex adapter must pass. Spec files call
 * `registerChunkIndexContract(name, harness)` with their own factory; the expectations are
 * written from what a user notices (the defining chunk ranks first, a deleted chunk is gone,
 * another workspace's code never shows up), with expected sets computed from the fixture's
 * metadata by a plain reference filter, never from the adapter.
 */
import { createHash } from 'node:crypto';
import {
  InvalidFilterError,
  MissingWorkspaceError,
  type ChunkIndex,
  type ChunkPayload,
  type ChunkPoint,
  type IndexFilter,
} from '@sextant/retrieval';
import picomatch from 'picomatch';

export interface ChunkIndexHarness {
  /** Opens the index under test (state persists across `open` calls until `destroy`). */
  open(): Promise<ChunkIndex>;
  /** Closes `index` and opens a fresh instance over the same persisted state (a process restart). */
  restart(index: ChunkIndex): Promise<ChunkIndex>;
  /** Drops everything the harness created. */
  destroy(): Promise<void>;
  /** Extra assertion after each test (e.g. "every request the stand-in saw was valid"). */
  afterEachCheck?(): void;
}

export const CONTRACT_DIMS = 32;

/** Deterministic UUID (v5 layout) from a name, so ids are valid Qdrant point ids. */
export function testUuid(name: string): string {
  const h = createHash('sha1').update(`sextant-contract:${name}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** Seeded PRNG (mulberry32) so vectors are identical on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomVector(seed: number): number[] {
  const r = rng(seed);
  return Array.from({ length: CONTRACT_DIMS }, () => r() * 2 - 1);
}

function nudge(v: number[], seed: number, amount: number): number[] {
  const r = rng(seed);
  return v.map((x) => x + (r() * 2 - 1) * amount);
}

interface Spec {
  key: string;
  ws: 'A' | 'B';
  repo: string;
  path: string;
  lang: string | null;
  chunkType: string;
  symbol: string | null;
  symbols?: string[];
  text: string;
  vector?: number[];
}

const QUERY_TARGET = randomVector(4242);

const SPECS: Spec[] = [
  { key: 'parse', ws: 'A', repo: 'web', path: 'src/http/parse.ts', lang: 'typescript', chunkType: 'function', symbol: 'parseHttpResponse', symbols: ['HttpResponse'],
    text: "export function parseHttpResponse(raw: string): HttpResponse {\n  const [head, body] = raw.split('\\r\\n\\r\\n');\n  return { status: Number(head.split(' ')[1]), body };\n}" },
  { key: 'decoy', ws: 'A', repo: 'web', path: 'src/http/client.ts', lang: 'typescript', chunkType: 'method', symbol: 'send', symbols: ['HttpClient'],
    text: '  async send(req: Request) {\n    // parse the http request line, then build a response object for the caller\n    const response = await this.transport.write(req);\n    return response;\n  }' },
  { key: 'spec', ws: 'A', repo: 'web', path: 'src/http/parse.spec.ts', lang: 'typescript', chunkType: 'function', symbol: null,
    text: "it('reads the status line', () => {\n  expect(decodeStatus('HTTP/1.1 200 OK')).toBe(200);\n});" },
  { key: 'near', ws: 'A', repo: 'web', path: 'src/render/template.tsx', lang: 'tsx', chunkType: 'function', symbol: 'renderTemplate',
    text: 'export const renderTemplate = (tpl: string, vars: Record<string, string>) => tpl.replace(/{{(\\w+)}}/g, (_, k) => vars[k] ?? "");',
    vector: nudge(QUERY_TARGET, 7, 0.08) },
  { key: 'query', ws: 'A', repo: 'api', path: 'app/db/query_builder.py', lang: 'python', chunkType: 'class', symbol: 'QueryBuilder', symbols: ['build_query', 'QueryBuilder'],
    text: 'class QueryBuilder:\n    def build_query(self, table, where=None):\n        sql = f"SELECT * FROM {table}"\n        return sql' },
  { key: 'vendor', ws: 'A', repo: 'api', path: 'vendor/github.com/lib/pq/conn.go', lang: 'go', chunkType: 'function', symbol: 'Open',
    text: 'func Open(dsn string) (*Conn, error) {\n\treturn dial(defaultDialer{}, dsn)\n}' },
  { key: 'readme', ws: 'A', repo: 'api', path: 'README.md', lang: null, chunkType: 'file', symbol: null,
    text: '# API\nRun the http server with `make serve`; responses are cached for one minute.' },
  // Workspace B holds a byte-identical copy of A's defining chunk and a vector equal to the query:
  // if isolation leaks, B's points would outrank A's on every search.
  { key: 'b-parse', ws: 'B', repo: 'web', path: 'src/http/parse.ts', lang: 'typescript', chunkType: 'function', symbol: 'parseHttpResponse', symbols: ['HttpResponse'],
    text: "export function parseHttpResponse(raw: string): HttpResponse {\n  const [head, body] = raw.split('\\r\\n\\r\\n');\n  return { status: Number(head.split(' ')[1]), body };\n}",
    vector: QUERY_TARGET },
  { key: 'b-other', ws: 'B', repo: 'other', path: 'lib/secret_sauce.rs', lang: 'rust', chunkType: 'function', symbol: 'secret_sauce',
    text: 'pub fn secret_sauce() -> u32 { 42 }' },
];

function runIds(run: string) {
  return { A: `ws-a-${run}`, B: `ws-b-${run}` };
}

function buildPoints(run: string): { points: ChunkPoint[]; byKey: Map<string, ChunkPoint> } {
  const ws = runIds(run);
  const points = SPECS.map((s, i): ChunkPoint => {
    const payload: ChunkPayload = {
      workspaceId: ws[s.ws], repoId: `${s.repo}-${run}`, path: s.path, lang: s.lang, chunkType: s.chunkType,
      name: s.symbol, symbol: s.symbol, symbols: s.symbols ?? [], parentId: null, signature: null,
      startLine: 1, endLine: s.text.split('\n').length, startByte: 0, endByte: s.text.length,
      contentHash: createHash('sha256').update(s.text).digest('hex'), content: s.text,
    };
    return { id: testUuid(`${run}:${s.key}`), vector: s.vector ?? randomVector(100 + i), text: s.text, payload };
  });
  return { points, byKey: new Map(SPECS.map((s, i) => [s.key, points[i]])) };
}

/** Plain reference implementation of the filter semantics documented on `IndexFilter`. */
function referenceMatch(p: ChunkPoint, f: IndexFilter): boolean {
  const q = p.payload;
  if (q.workspaceId !== f.workspaceId) return false;
  if (f.repoIds?.length && !f.repoIds.includes(q.repoId)) return false;
  if (f.langs?.length && !(q.lang !== null && f.langs.includes(q.lang))) return false;
  if (f.chunkTypes?.length && !f.chunkTypes.includes(q.chunkType)) return false;
  if (f.include?.length && !picomatch(f.include, { dot: true })(q.path)) return false;
  if (f.exclude?.length && picomatch(f.exclude, { dot: true })(q.path)) return false;
  if (f.symbols?.length && !f.symbols.some((s) => s === q.symbol || q.symbols.includes(s))) return false;
  if (f.paths?.length && !f.paths.includes(q.path)) return false;
  if (f.ids?.length && !f.ids.includes(p.id)) return false;
  return true;
}

const sorted = (xs: string[]) => [...xs].sort();

export function registerChunkIndexContract(adapterName: string, makeHarness: () => ChunkIndexHarness | Promise<ChunkIndexHarness>): void {
  describe(`ChunkIndex contract: ${adapterName}`, () => {
    let harness: ChunkIndexHarness;
    let index: ChunkIndex;
    let seq = 0;
    /** Every test writes its own two workspaces, so tests never see each other's points. */
    async function seed() {
      const run = `${Date.now().toString(36)}${(seq++).toString(36)}`;
      const fixture = buildPoints(run);
      await index.upsert(fixture.points);
      return { run, ws: runIds(run), ...fixture };
    }

    beforeAll(async () => {
      harness = await makeHarness();
      index = await harness.open();
    });
    afterAll(async () => {
      await index?.close();
      await harness?.destroy();
    });
    afterEach(() => harness.afterEachCheck?.());

    it('rejects every call without a workspace before doing any I/O', async () => {
      const noWs = { workspaceId: '' } as IndexFilter;
      const v = randomVector(1);
      await expect(index.searchDense(v, noWs, 5)).rejects.toBeInstanceOf(MissingWorkspaceError);
      await expect(index.searchKeyword('x', noWs, 5)).rejects.toBeInstanceOf(MissingWorkspaceError);
      await expect(index.count({} as IndexFilter)).rejects.toBeInstanceOf(MissingWorkspaceError);
      await expect(index.delete({ workspaceId: '   ' })).rejects.toBeInstanceOf(MissingWorkspaceError);
      await expect(index.get([testUuid('x')], { workspaceId: '' })).rejects.toBeInstanceOf(MissingWorkspaceError);
    });

    it('rejects pathological globs with InvalidFilterError', async () => {
      const { ws } = await seed();
      await expect(index.count({ workspaceId: ws.A, include: ['a{1..100000}'] })).rejects.toBeInstanceOf(InvalidFilterError);
      await expect(index.searchDense(randomVector(1), { workspaceId: ws.A, exclude: ['x'.repeat(400)] }, 5)).rejects.toBeInstanceOf(InvalidFilterError);
    });

    it('ranks the chunk defining an exact identifier first for a keyword query', async () => {
      const { ws, byKey } = await seed();
      for (const mode of ['and', 'or', 'phrase'] as const) {
        const hits = await index.searchKeyword('parseHttpResponse', { workspaceId: ws.A }, 5, { mode });
        expect(hits[0]?.id).toBe(byKey.get('parse')!.id);
        expect(hits[0].score).toBeGreaterThan(0);
        expect(hits[0].payload.path).toBe('src/http/parse.ts');
      }
    });

    it('distinguishes AND, OR and PHRASE', async () => {
      const { ws, byKey } = await seed();
      const f = { workspaceId: ws.A };
      const id = (k: string) => byKey.get(k)!.id;
      const and = (await index.searchKeyword('parse http response', f, 10, { mode: 'and' })).map((h) => h.id);
      expect(sorted(and)).toEqual(sorted([id('parse'), id('decoy')]));
      const or = (await index.searchKeyword('http response', f, 10, { mode: 'or' })).map((h) => h.id);
      expect(or).toEqual(expect.arrayContaining([id('parse'), id('decoy'), id('readme')]));
      expect(or).not.toContain(id('vendor'));
      // "http response" is consecutive only in parseHttpResponse / HttpResponse, never in the decoy's prose.
      const phrase = (await index.searchKeyword('http response', f, 10, { mode: 'phrase' })).map((h) => h.id);
      expect(phrase).toEqual([id('parse')]);
      const scores = (await index.searchKeyword('http response', f, 10, { mode: 'or' })).map((h) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });

    it('treats keyword input as plain text, never as query syntax', async () => {
      const { ws, byKey } = await seed();
      const f = { workspaceId: ws.A };
      for (const q of ['"parseHttpResponse', 'parseHttpResponse OR NOT', 'tokens: parse*', '(http) NEAR(response)', '^http']) {
        await expect(index.searchKeyword(q, f, 5, { mode: 'or' })).resolves.toBeInstanceOf(Array);
      }
      expect((await index.searchKeyword('the of and', f, 5)).length).toBe(0);
      const hits = await index.searchKeyword('QueryBuilder build_query', f, 5);
      expect(hits[0]?.id).toBe(byKey.get('query')!.id);
    });

    it('ranks the near-duplicate first for a dense query, best score first', async () => {
      const { ws, byKey } = await seed();
      for (const rescore of [true, false]) {
        const hits = await index.searchDense(nudge(QUERY_TARGET, 99, 0.02), { workspaceId: ws.A }, 5, { rescore });
        expect(hits[0].id).toBe(byKey.get('near')!.id);
        expect(hits[0].score).toBeGreaterThan(0.9);
        expect(hits.map((h) => h.score)).toEqual(hits.map((h) => h.score).sort((a, b) => b - a));
      }
    });

    const filterCases: [string, (ids: { A: string; B: string }, run: string) => Omit<IndexFilter, 'workspaceId'>][] = [
      ['repoIds', (_w, run) => ({ repoIds: [`api-${run}`] })],
      ['langs', () => ({ langs: ['typescript', 'go'] })],
      ['chunkTypes', () => ({ chunkTypes: ['class', 'method'] })],
      ['include globs', () => ({ include: ['src/**/*.ts'] })],
      ['exclude globs', () => ({ exclude: ['vendor/**', '**/*.spec.ts'] })],
      ['include + exclude', () => ({ include: ['src/**', 'app/**'], exclude: ['**/*.tsx'] })],
      ['symbols (own or listed)', () => ({ symbols: ['build_query', 'parseHttpResponse', 'Open'] })],
      ['paths (exact)', () => ({ paths: ['README.md', 'src/http/client.ts'] })],
      ['everything at once', (_w, run) => ({ repoIds: [`web-${run}`], langs: ['typescript'], chunkTypes: ['function'], include: ['src/**'], exclude: ['**/*.spec.ts'], symbols: ['HttpResponse'] })],
      ['a value nothing has', () => ({ langs: ['cobol'] })],
    ];
    it.each(filterCases)('applies the %s filter to count, dense and keyword search', async (_name, make) => {
      const { ws, run, points } = await seed();
      const filter: IndexFilter = { workspaceId: ws.A, ...make(ws, run) };
      const expected = sorted(points.filter((p) => referenceMatch(p, filter)).map((p) => p.id));
      expect(await index.count(filter)).toBe(expected.length);
      const dense = await index.searchDense(randomVector(5), filter, 50);
      expect(sorted(dense.map((h) => h.id))).toEqual(expected);
      // Every fixture chunk contains at least one of these words, so OR returns exactly the filtered set.
      const everyText = 'function export return class func def send status http api';
      const keyword = await index.searchKeyword(everyText, filter, 50, { mode: 'or' });
      const expectedKeyword = points.filter((p) => referenceMatch(p, filter) && /function|export|return|class|func|def|send|status|http|api/i.test(p.text)).map((p) => p.id);
      expect(sorted(keyword.map((h) => h.id))).toEqual(sorted(expectedKeyword));
    });

    it('filters by ids and returns stored payloads with get()', async () => {
      const { ws, byKey } = await seed();
      const ids = [byKey.get('query')!.id, byKey.get('parse')!.id, testUuid('never-stored')];
      expect(await index.count({ workspaceId: ws.A, ids })).toBe(2);
      const got = await index.get(ids, { workspaceId: ws.A });
      expect(got.map((g) => g.id)).toEqual(ids.slice(0, 2));
      expect(got[0].payload).toEqual(byKey.get('query')!.payload);
    });

    it('makes upserts and deletes visible to the very next query', async () => {
      const { ws, byKey } = await seed();
      const f = { workspaceId: ws.A };
      const fresh: ChunkPoint = {
        ...byKey.get('readme')!, id: testUuid(`${ws.A}:fresh`),
        text: 'function zanzibarQuokka() { return 1 }',
        payload: { ...byKey.get('readme')!.payload, path: 'src/zoo.ts', content: 'function zanzibarQuokka() { return 1 }' },
      };
      // Search with the same filter first, so nothing the adapter keeps per filter can hide the write.
      expect(await index.searchKeyword('zanzibarQuokka', f, 5)).toEqual([]);
      expect((await index.searchDense(fresh.vector, f, 20)).map((h) => h.id)).not.toContain(fresh.id);
      await index.upsert([fresh]);
      expect((await index.searchKeyword('zanzibarQuokka', f, 5))[0]?.id).toBe(fresh.id);
      expect((await index.searchDense(fresh.vector, f, 20)).map((h) => h.id)).toContain(fresh.id);
      expect(await index.count({ ...f, paths: ['src/zoo.ts'] })).toBe(1);
      const deleted = await index.delete({ ...f, paths: ['src/zoo.ts'] });
      if (deleted !== undefined) expect(deleted).toBe(1);
      expect(await index.searchKeyword('zanzibarQuokka', f, 5)).toEqual([]);
      expect((await index.searchDense(fresh.vector, f, 20)).map((h) => h.id)).not.toContain(fresh.id);
      expect(await index.get([fresh.id], f)).toEqual([]);
      expect(await index.count(f)).toBe(SPECS.filter((s) => s.ws === 'A').length);
      // Deleting by glob removes exactly the matching chunks.
      await index.delete({ ...f, include: ['src/http/**'] });
      expect(await index.count(f)).toBe(SPECS.filter((s) => s.ws === 'A' && !s.path.startsWith('src/http/')).length);
    });

    it('treats the same id upserted twice as one point with the latest content', async () => {
      const { ws, byKey } = await seed();
      const f = { workspaceId: ws.A };
      const before = await index.count(f);
      const original = byKey.get('vendor')!;
      const updated: ChunkPoint = { ...original, text: 'func Dial(network string) net.Conn { return quokkaDialer }', payload: { ...original.payload, symbol: 'Dial', content: 'func Dial…' } };
      await index.upsert([updated]);
      await index.upsert([updated]);
      expect(await index.count(f)).toBe(before);
      expect((await index.get([original.id], f))[0].payload.symbol).toBe('Dial');
      expect((await index.searchKeyword('quokkaDialer', f, 5)).map((h) => h.id)).toEqual([original.id]);
      expect(await index.searchKeyword('defaultDialer', f, 5)).toEqual([]);
      expect(await index.count({ ...f, symbols: ['Open'] })).toBe(0);
    });

    it('never shows workspace B points to workspace A, whatever the filter', async () => {
      const { ws, byKey, run } = await seed();
      const bIds = SPECS.filter((s) => s.ws === 'B').map((s) => byKey.get(s.key)!.id);
      const filters: IndexFilter[] = [
        { workspaceId: ws.A },
        { workspaceId: ws.A, ids: bIds },
        { workspaceId: ws.A, repoIds: [`web-${run}`, `other-${run}`] },
        { workspaceId: ws.A, symbols: ['parseHttpResponse', 'secret_sauce'] },
        { workspaceId: ws.A, include: ['**'], langs: ['rust', 'typescript'] },
      ];
      for (const f of filters) {
        const seen = [
          ...(await index.searchDense(QUERY_TARGET, f, 50)),
          ...(await index.searchKeyword('parseHttpResponse secret_sauce', f, 50, { mode: 'or' })),
        ].map((h) => h.id);
        for (const id of bIds) expect(seen).not.toContain(id);
        expect(seen.every((id) => !bIds.includes(id))).toBe(true);
      }
      expect(await index.count({ workspaceId: ws.A, ids: bIds })).toBe(0);
      expect(await index.get(bIds, { workspaceId: ws.A })).toEqual([]);
      await index.delete({ workspaceId: ws.A, ids: bIds });
      expect(await index.count({ workspaceId: ws.B })).toBe(bIds.length);
      // B still finds its own copy first.
      expect((await index.searchDense(QUERY_TARGET, { workspaceId: ws.B }, 1))[0].id).toBe(byKey.get('b-parse')!.id);
    });

    it('loses nothing across a restart', async () => {
      const { ws, byKey } = await seed();
      const f = { workspaceId: ws.A };
      const countBefore = await index.count(f);
      await index.delete({ ...f, ids: [byKey.get('readme')!.id] });
      const denseBefore = (await index.searchDense(QUERY_TARGET, f, 3)).map((h) => h.id);
      index = await harness.restart(index);
      expect(await index.count(f)).toBe(countBefore - 1);
      expect((await index.searchDense(QUERY_TARGET, f, 3)).map((h) => h.id)).toEqual(denseBefore);
      expect((await index.searchKeyword('parseHttpResponse', f, 1))[0].id).toBe(byKey.get('parse')!.id);
      expect(await index.get([byKey.get('readme')!.id], f)).toEqual([]);
      expect((await index.get([byKey.get('query')!.id], f))[0].payload).toEqual(byKey.get('query')!.payload);
      // Writes after a restart keep working (slots / ids are consistent).
      const again: ChunkPoint = { ...byKey.get('readme')!, id: testUuid(`${ws.A}:after-restart`) };
      await index.upsert([again]);
      expect(await index.count(f)).toBe(countBefore);
    });
  });
}
