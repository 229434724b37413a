/**
 * bench:store — the embedded ChunkIndex at 100k chunks × 384 dims.
 *
 *   npm run bench:store -- --json [--n 100000] [--dims 384] [--queries 200]
 *
 * Phases: (1) generate + upsert (vectors are regenerated from a seed instead of kept, so RSS
 * reflects the store, not the generator); (2) reopen the store from disk (restart), measure
 * dense / filtered / keyword latency and RSS; (3) recall@10 of int8 search against exact float
 * search, and the raw usearch `exactSearch` time on the very same int8 matrix (the hardware
 * limit) so the adapter's overhead ratio is visible.
 *
 * Data is synthetic but shaped like the real thing: vectors are clustered (400 topics, cosine to
 * the topic centre ≈ 0.75), text is code-like (camelCase / snake_case identifiers from a Zipfian
 * vocabulary, keywords, calls). Other agents share the 2 cores, so latencies may be depressed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { exactSearch, MetricKind } from 'usearch';
import type { ChunkPayload, ChunkPoint, IndexFilter } from '@sextant/retrieval';
import { openEmbeddedStore } from '../apps/api/src/storage/embedded';

const argv = process.argv.slice(2).filter((a) => a !== '--');
const flag = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const JSON_OUT = argv.includes('--json');
const N = flag('n', 100_000);
const DIMS = flag('dims', 384);
const QUERIES = flag('queries', 200);
const BATCH = 1000;
const CLUSTERS = 400;
const REPOS = 10;
const LANGS = ['typescript', 'python', 'go', 'java', 'rust'];
const TYPES = ['function', 'method', 'class', 'file'];
const log = (...a: unknown[]) => console.log(...a); // eslint-disable-line no-console

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function gauss(r: () => number) {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

const centres: Float32Array[] = [];
{
  const r = rng(1);
  for (let c = 0; c < CLUSTERS; c++) {
    const v = new Float32Array(DIMS);
    let n = 0;
    for (let i = 0; i < DIMS; i++) { v[i] = gauss(r); n += v[i] * v[i]; }
    n = Math.sqrt(n);
    for (let i = 0; i < DIMS; i++) v[i] /= n;
    centres.push(v);
  }
}
/** Vector `i` (deterministic): its topic centre plus noise of norm ≈ 0.9. */
function vectorOf(i: number, salt = 0): Float32Array {
  const r = rng(1_000_003 * (i + 1) + salt);
  const c = centres[Math.floor(r() * CLUSTERS)];
  const v = new Float32Array(DIMS);
  const sigma = 0.9 / Math.sqrt(DIMS);
  for (let d = 0; d < DIMS; d++) v[d] = c[d] + gauss(r) * sigma;
  return v;
}

const WORDS = ('get set user id name list item index value key map file path read write open close parse render http request response ' +
  'client server query build table row column config option error handler event emit listen socket token auth session cache store ' +
  'load save update delete create insert select filter sort merge split join format encode decode buffer stream chunk node tree ' +
  'graph edge vertex search rank score weight vector embed model train batch size count total sum avg min max range start end ' +
  'begin finish init reset clear flush sync async await promise resolve reject timeout retry backoff queue job worker task ' +
  'schedule cron log debug info warn trace span metric gauge counter histogram label tag version commit branch merge diff patch ' +
  'repo workspace project module package import export default public private static final abstract interface struct enum ' +
  'impl trait type generic param arg result option some none ok err unwrap expect assert test spec mock stub fixture setup ' +
  'teardown validate schema field record entity migration transaction connection pool driver dialect sqlite postgres redis ' +
  'qdrant index shard replica alias collection point payload sparse dense quantize scalar cosine distance neighbor').split(' ');
const KEYWORDS = ['function', 'const', 'return', 'if', 'else', 'for', 'while', 'let', 'new', 'this', 'def', 'self', 'func', 'fn', 'pub', 'class'];

function identifier(r: () => number): string {
  const parts = 1 + Math.floor(r() * 3);
  const ws: string[] = [];
  for (let p = 0; p < parts; p++) ws.push(WORDS[Math.floor(WORDS.length * r() * r())]); // Zipf-ish
  if (r() < 0.3) return ws.join('_');
  return ws.map((w, j) => (j === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

function textOf(i: number): string {
  const r = rng(7_919 * (i + 1));
  const lines: string[] = [`${KEYWORDS[Math.floor(r() * KEYWORDS.length)]} ${identifier(r)}(${identifier(r)}, ${identifier(r)}) {`];
  const n = 3 + Math.floor(r() * 8);
  for (let l = 0; l < n; l++) {
    const kw = KEYWORDS[Math.floor(r() * KEYWORDS.length)];
    lines.push(`  ${kw} ${identifier(r)} = ${identifier(r)}.${identifier(r)}(${identifier(r)}, ${Math.floor(r() * 100)}); // ${WORDS[Math.floor(r() * WORDS.length)]} ${WORDS[Math.floor(r() * WORDS.length)]}`);
  }
  lines.push('}');
  return lines.join('\n');
}

function pointOf(i: number): ChunkPoint {
  const text = textOf(i);
  const repo = i % REPOS;
  const payload: ChunkPayload = {
    workspaceId: 'ws-bench', repoId: `repo-${repo}`, path: `src/mod${i % 997}/file${i % 4001}.ts`, lang: LANGS[Math.floor(i / REPOS) % LANGS.length],
    chunkType: TYPES[i % TYPES.length], name: null, symbol: null, symbols: [], parentId: null, signature: null,
    startLine: 1, endLine: 12, startByte: 0, endByte: text.length, contentHash: String(i), content: text,
  };
  const hex = i.toString(16).padStart(12, '0');
  return { id: `00000000-0000-5000-8000-${hex}`, vector: vectorOf(i), text, payload };
}

function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(3);
}
async function timeIt(n: number, fn: (i: number) => Promise<unknown> | unknown) {
  for (let i = 0; i < Math.min(5, n); i++) await fn(i); // warm-up
  const ts: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    ts.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return { p50: pct(ts, 0.5), p95: pct(ts, 0.95) };
}
const mb = (b: number) => +(b / 1048576).toFixed(1);

/** Phase 1: upsert N points in batches into a fresh store, then close it. */
async function upsertAll(file: string) {
  const store = openEmbeddedStore({ file });
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let storeNs = 0n;
  let storeCpuUs = 0;
  for (let b = 0; b < N; b += BATCH) {
    const batch: ChunkPoint[] = [];
    for (let i = b; i < Math.min(N, b + BATCH); i++) batch.push(pointOf(i));
    const ts = process.hrtime.bigint();
    const cs = process.cpuUsage();
    await store.chunks.upsert(batch);
    const c = process.cpuUsage(cs);
    storeCpuUs += c.user + c.system;
    storeNs += process.hrtime.bigint() - ts;
  }
  const upsertCpu = process.cpuUsage(cpu0);
  await store.close();
  // `upsertSec` / `upsertCpuSec` include generating the points (as the first version of this bench
  // did); `store*` count only the upsert calls. On a contended machine CPU time is the steadier figure.
  return {
    storeSec: Number(storeNs) / 1e9,
    storeCpuSec: storeCpuUs / 1e6,
    upsertSec: Number(process.hrtime.bigint() - t0) / 1e9,
    upsertCpuSec: (upsertCpu.user + upsertCpu.system) / 1e6,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-store-'));
  const file = join(dir, 'vectors.sqlite');
  const rssStart = process.memoryUsage().rss;
  const loadStart = loadavg().map((x) => +x.toFixed(2));

  // Phase 1: upsert (its own function, so no suspended frame of main() keeps this instance alive).
  const { storeSec, storeCpuSec, upsertSec, upsertCpuSec } = await upsertAll(file);
  log(`upserted ${N} in ${upsertSec.toFixed(1)} s`);

  // Phase 2: restart, then latency.
  const tl = process.hrtime.bigint();
  const store = openEmbeddedStore({ file });
  const loadMs = Number(process.hrtime.bigint() - tl) / 1e6;
  const chunks = store.chunks;
  const ws: IndexFilter = { workspaceId: 'ws-bench' };
  const queries = Array.from({ length: QUERIES }, (_, q) => vectorOf(N + 10 * q, 17));
  const dense = await timeIt(QUERIES, (i) => chunks.searchDense(queries[i], ws, 10));
  const denseNoRescore = await timeIt(QUERIES, (i) => chunks.searchDense(queries[i], ws, 10, { rescore: false }));
  const filtRepoLang = await timeIt(QUERIES, (i) => chunks.searchDense(queries[i], { ...ws, repoIds: [`repo-${i % REPOS}`], langs: [LANGS[i % LANGS.length]] }, 10));
  const filtRepo = await timeIt(QUERIES, (i) => chunks.searchDense(queries[i], { ...ws, repoIds: [`repo-${i % REPOS}`] }, 10));
  const filtLangs = await timeIt(QUERIES, (i) => chunks.searchDense(queries[i], { ...ws, langs: LANGS.slice(0, 3) }, 10));
  log('dense', dense, 'filtered repo+lang', filtRepoLang);

  const keyword: Record<string, { p50: number; p95: number; avgHits: number }> = {};
  for (const terms of [1, 3, 8]) {
    for (const mode of ['and', 'or', 'phrase'] as const) {
      const qs = Array.from({ length: QUERIES }, (_, q) => {
        const words = textOf(Math.floor(rng(q + terms * 1000)() * N)).split(/[^A-Za-z0-9_]+/).filter((w) => w.length > 1);
        const start = Math.floor(rng(q * 31 + terms)() * Math.max(1, words.length - terms));
        return words.slice(start, start + terms).join(' ');
      });
      let hits = 0;
      const t = await timeIt(QUERIES, async (i) => { hits += (await chunks.searchKeyword(qs[i], ws, 10, { mode })).length; });
      keyword[`${terms}term_${mode}`] = { ...t, avgHits: +(hits / (QUERIES + Math.min(5, QUERIES))).toFixed(1) };
    }
  }
  log('keyword', keyword);
  const rss = process.memoryUsage().rss;
  // The first (closed) store instance may still be garbage at this point; measure again after a
  // full GC so the figure reflects the reopened store, as after a real restart.
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const rssAfterGc = process.memoryUsage().rss;

  // Phase 2b: the indexing pipeline's re-index step: delete one batch's old chunks by
  // { repo, 64 paths }, then upsert their replacements (same ids, so the store stays the same).
  const DELETE_ROUNDS = Math.min(40, Math.floor(N / 640));
  const deleteTimes: number[] = [];
  const reupsertTimes: number[] = [];
  let deletedTotal = 0;
  for (let round = 0; round < DELETE_ROUNDS; round++) {
    const repo = round % REPOS;
    const members = Array.from({ length: 64 }, (_, j) => repo + REPOS * (round * 64 + j)).filter((i) => i < N);
    const batch = members.map(pointOf);
    const filter: IndexFilter = { ...ws, repoIds: [`repo-${repo}`], paths: [...new Set(batch.map((p) => p.payload.path))] };
    let t = process.hrtime.bigint();
    deletedTotal += (await chunks.delete(filter)) ?? 0;
    deleteTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await chunks.upsert(batch);
    reupsertTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const deleteByPaths = { p50: pct(deleteTimes, 0.5), p95: pct(deleteTimes, 0.95), rounds: DELETE_ROUNDS, avgDeleted: +(deletedTotal / Math.max(1, DELETE_ROUNDS)).toFixed(1) };
  const reupsert64 = { p50: pct(reupsertTimes, 0.5), p95: pct(reupsertTimes, 0.95) };
  log('delete by 64 paths', deleteByPaths, 're-upsert 64', reupsert64);

  // Phase 3: recall of int8 against exact float, and the raw kernel on the same matrix.
  const m = chunks.int8Matrix();
  const rawExact = await timeIt(QUERIES, (i) => {
    const q = new Int8Array(DIMS);
    for (let d = 0; d < DIMS; d++) q[d] = Math.max(-127, Math.min(127, Math.round(queries[i][d] * 127 * 4)));
    return exactSearch(m.data, q, DIMS, 10, MetricKind.IP, 1);
  });
  const floats = new Float32Array(N * DIMS);
  for (let i = 0; i < N; i++) {
    const v = vectorOf(i);
    let n = 0;
    for (let d = 0; d < DIMS; d++) n += v[d] * v[d];
    n = Math.sqrt(n);
    for (let d = 0; d < DIMS; d++) floats[i * DIMS + d] = v[d] / n;
  }
  const idOf = (i: number) => `00000000-0000-5000-8000-${i.toString(16).padStart(12, '0')}`;
  const RECALL_Q = Math.min(QUERIES, 100);
  let recallInt8 = 0;
  let recallRescored = 0;
  for (let q = 0; q < RECALL_Q; q++) {
    const truth = exactSearch(floats, queries[q], DIMS, 10, MetricKind.Cos, 1) as { keys: BigUint64Array };
    const want = new Set(Array.from(truth.keys, (k) => idOf(Number(k))));
    const a = await chunks.searchDense(queries[q], ws, 10, { rescore: false });
    const b = await chunks.searchDense(queries[q], ws, 10, { rescore: true });
    recallInt8 += a.filter((h) => want.has(h.id)).length / 10;
    recallRescored += b.filter((h) => want.has(h.id)).length / 10;
  }
  await store.close();
  // RSS of a fresh process that only opens the store and searches it (a restarted server): the
  // in-process figures above also carry the allocator's leftovers from the upsert phase.
  const child = JSON.parse(execFileSync(process.execPath, [...process.execArgv, __filename, '--child-rss', file], { encoding: 'utf8' }).trim().split('\n').pop()!);
  rmSync(dir, { recursive: true, force: true });

  const result = {
    bench: 'store',
    backend: 'embedded',
    n: N,
    dims: DIMS,
    queries: QUERIES,
    note: '2 shared cores; other agents were running, so latencies may be depressed',
    loadAverage: { start: loadStart, end: loadavg().map((x) => +x.toFixed(2)) },
    upsert: { seconds: +upsertSec.toFixed(2), pointsPerSec: Math.round(N / upsertSec), batch: BATCH, cpuSeconds: +upsertCpuSec.toFixed(2),
      storeSeconds: +storeSec.toFixed(2), storePointsPerSec: Math.round(N / storeSec), storeCpuSeconds: +storeCpuSec.toFixed(2), storePointsPerCpuSec: Math.round(N / storeCpuSec) },
    loadOnRestartMs: +loadMs.toFixed(0),
    denseMs: { rescore: dense, noRescore: denseNoRescore },
    denseFilteredMs: { repoAndLang_2pct: filtRepoLang, repo_10pct: filtRepo, threeLangs_60pct: filtLangs },
    keywordMs: keyword,
    deleteByPathsMs: deleteByPaths,
    reupsert64Ms: reupsert64,
    rawExactSearchInt8Ms: rawExact,
    overheadRatio: { dense: +(dense.p50 / rawExact.p50).toFixed(2), denseNoRescore: +(denseNoRescore.p50 / rawExact.p50).toFixed(2) },
    recallAt10: { int8: +(recallInt8 / RECALL_Q).toFixed(4), int8Rescored: +(recallRescored / RECALL_Q).toFixed(4) },
    rssMb: { afterSearches: mb(rss), afterGc: mb(rssAfterGc), atStart: mb(rssStart), freshProcess: child.rssMb, freshProcessAfterGc: child.rssAfterGcMb, freshProcessLoadMs: child.loadMs },
    targets: { denseP50: 8, filteredP50: 12, keywordP95: 25, recall: 0.97, rssMb: 600, upsertPointsPerSec: 20000, deleteByPathsP50: 5 },
  };
  if (!JSON_OUT) log(JSON.stringify(result, null, 2));
  console.log(JSON.stringify(result)); // eslint-disable-line no-console
}

/** `--child-rss <file>`: open the store, run a few searches of each kind, print RSS. */
async function childRss(file: string) {
  const t = process.hrtime.bigint();
  const store = openEmbeddedStore({ file });
  const loadMs = Number(process.hrtime.bigint() - t) / 1e6;
  const ws: IndexFilter = { workspaceId: 'ws-bench' };
  for (let q = 0; q < 20; q++) {
    await store.chunks.searchDense(vectorOf(N + 10 * q, 17), ws, 10);
    for (const mode of ['and', 'or', 'phrase'] as const) await store.chunks.searchKeyword(textOf(q).split('\n')[1], ws, 10, { mode });
  }
  const rssMb = mb(process.memoryUsage().rss);
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  await new Promise((r) => setTimeout(r, 100));
  const rssAfterGcMb = mb(process.memoryUsage().rss);
  await store.close();
  console.log(JSON.stringify({ rssMb, rssAfterGcMb, loadMs: Math.round(loadMs) })); // eslint-disable-line no-console
}

const childAt = argv.indexOf('--child-rss');
if (childAt >= 0) {
  childRss(argv[childAt + 1]).catch((e) => {
    console.error(e); // eslint-disable-line no-console
    process.exit(1);
  });
} else main().catch((e) => {
  console.error(e); // eslint-disable-line no-console
  process.exit(1);
});
