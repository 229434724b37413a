/**
 * bench:search — end-to-end `SearchService.search` on the embedded store with the hash embedder.
 *
 *   npm run bench:search -- --json [--chunks 100000] [--tasks 10000] [--queries 200] [--concurrency 8] [--data-dir DIR]
 *                              [--only strategies,sources,ranker,qps] [--strategies rrf,weighted]
 *
 * `--data-dir DIR` keeps the data: a second run with the same corpus size reuses it (no load),
 * which is how to iterate on query-time changes; `--only` / `--strategies` run part of the bench.
 *
 * Setup: a fresh data dir and the real Nest context (the same modules `sextant serve` runs).
 * One repository is registered; 100k code-like chunks (2,500 files × 40 functions/methods/
 * classes, camelCase/snake_case identifiers from a Zipfian vocabulary, calls, comments) are
 * embedded with the 384-dim hash embedder and written straight into CHUNK_INDEX (tree-sitter
 * would take minutes and is measured by bench:index); 10k tasks (titles, bodies, 1-4 touched
 * files) go through `TaskHistoryService.importTasks`, so the task rows and TASK_INDEX agree.
 *
 * Measured: for each fusion strategy over all five sources and for each source alone, the
 * latency of `search()` (query embedding, every source, aggregation, fusion, priors) for
 * `--queries` queries — half identifier queries (`parseHttpResponse`), half natural-language
 * ones — sequentially, after one untimed pass over all of them; the learned ranker's added latency
 * (default request with and without a trained model, in alternating blocks of 10 queries each, so a
 * change of the machine's load during the run weighs on both alike); then queries/s of the default strategy at
 * concurrency 8 (`cpu_ms`: process CPU time per search, which other jobs on the machine disturb less
 * than wall time). The result cache is off (`cache: false`) so every call does the work; pool
 * logging stays at its default: each search's pool write runs after it returns, so a sequential
 * query first waits (untimed) for the previous one's write; `cpu_ms` and the throughput include
 * the writes. Other jobs share the 2 cores, so figures may be depressed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SearchRequestSchema, SEARCH_SOURCES, type FusionStrategyName, type SearchRequest, type SearchSource } from '@sextant/contracts';
import { HashEmbedder } from '@sextant/embeddings';
import { DataSource } from 'typeorm';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import { createCliContext } from '../apps/api/src/cli/cli-app';
import { loadConfig } from '../apps/api/src/config/config.schema';
import { LearnedRankerService } from '../apps/api/src/modules/fusion/learned-ranker.service';
import { RankerModelEntity } from '../apps/api/src/modules/fusion/ranker-model.entity';
import { RankerTrainingService } from '../apps/api/src/modules/fusion/ranker-training.service';
import { SearchService } from '../apps/api/src/modules/fusion/search.service';
import { SearchLogService } from '../apps/api/src/modules/fusion/search-log.service';
import { FilesRepository } from '../apps/api/src/modules/indexing/repositories/files.repository';
import { CodeGraphRepository } from '../apps/api/src/modules/indexing/repositories/code-graph.repository';
import { IndexingService } from '../apps/api/src/modules/indexing/services/indexing.service';
import { TaskHistoryService } from '../apps/api/src/modules/task-history/task-history.service';
import { WorkspacesService } from '../apps/api/src/modules/workspaces/workspaces.service';
import { cap, fileSpec, identifier, pct, rng, writeCorpusChunks, zipf, type FileSpec } from './lib/code-corpus';

const argv = process.argv.slice(2).filter((a) => a !== '--');
const flag = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const strFlag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const JSON_OUT = argv.includes('--json');
const N_CHUNKS = flag('chunks', 100_000);
const N_TASKS = flag('tasks', 10_000);
const N_QUERIES = flag('queries', 200);
const CONCURRENCY = flag('concurrency', 8);
const CHUNKS_PER_FILE = 40;
const DIMS = 384;
const STRATEGIES = (strFlag('strategies')?.split(',') ?? ['rrf', 'weighted', 'cascade', 'vote', 'concat']) as FusionStrategyName[];
const ONLY = new Set(strFlag('only')?.split(',') ?? ['strategies', 'sources', 'ranker', 'qps']);
/** Written into a kept data dir once it is fully loaded. */
const MARKER = 'bench-search.json';
const TARGETS = { p50_ms: 25, p95_ms: 60 };
/** What the learned ranker may add to the default search's p50 (features for ~50-90 candidates and a dot product each). */
const RANKER_ADDED_P50_MS = 3;
/** Queries per block when the ranker's cost is measured in alternating off / on blocks. */
const PAIR_BLOCK = 10;
const log = (...a: unknown[]) => process.stdout.write(`${a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ')}\n`);

async function main() {
  const tempDir = strFlag('data-dir') ? null : mkdtempSync(join(tmpdir(), 'sextant-bench-search-'));
  const dataDir = strFlag('data-dir') ?? tempDir!;
  const repoDir = mkdtempSync(join(tmpdir(), 'sextant-bench-repo-'));
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: repoDir, LOG_LEVEL: 'warn', EMBEDDINGS_PROVIDER: 'hash', EMBEDDINGS_DIM: String(DIMS) });
  const ctx = await createCliContext(config);
  const rssStart = process.memoryUsage().rss;
  const loadStart = loadavg()[0];
  try {
    const ws = (await ctx.get(WorkspacesService).ensureDefault()).id;
    const corpusKey = { chunks: N_CHUNKS, tasks: N_TASKS, dims: DIMS };
    const markerFile = join(dataDir, MARKER);
    const reuse = !tempDir && existsSync(markerFile) && readFileSync(markerFile, 'utf8') === JSON.stringify(corpusKey);
    const nFiles = Math.ceil(N_CHUNKS / CHUNKS_PER_FILE);
    const files: FileSpec[] = [];
    let chunkLoadS = 0;
    let t0 = performance.now();
    let taskLoadS = 0;
    let written = N_CHUNKS;
    let importedTasks = N_TASKS;
    if (reuse) {
      for (let f = 0; f < nFiles; f++) files.push(fileSpec(f, CHUNKS_PER_FILE));
      log(`reusing ${dataDir} (${N_CHUNKS} chunks, ${N_TASKS} tasks)`);
    } else {
      const repo = await ctx.get(IndexingService).register(ws, { path: repoDir, name: 'bench' });
      const chunks = ctx.get<ChunkIndex>(CHUNK_INDEX);
      const embedder = new HashEmbedder({ dimensions: DIMS });

      // --- load chunks ---------------------------------------------------------------------
      t0 = performance.now();
      const corpus = await writeCorpusChunks(chunks, (texts) => embedder.embedDocuments(texts), { chunks: N_CHUNKS, chunksPerFile: CHUNKS_PER_FILE, workspaceId: ws, repoId: repo.id });
      files.push(...corpus.files);
      written = corpus.written;
      const embedMs = corpus.embedMs;
      // The relational side the indexer keeps next to the chunks: indexed files (task files are
      // mapped to code through them) and symbol definitions (the file.symbol source).
      const filesRepo = ctx.get(FilesRepository);
      const graphRepo = ctx.get(CodeGraphRepository);
      for (let i = 0; i < files.length; i += 250) {
        const group = files.slice(i, i + 250);
        await filesRepo.markPending(ws, repo.id, group.map((f) => ({ path: f.path, contentHash: f.path, size: null, lang: 'typescript' })));
        await filesRepo.markIndexed(ws, repo.id, group.map((f) => ({ path: f.path, chunkCount: f.symbols.length, chunkTypes: { class: 1, function: f.symbols.length - 1 } })));
        // Definitions live in the code graph's `graph_symbols` (what file.symbol reads); no edges here.
        await graphRepo.replaceFiles(
          ws,
          repo.id,
          group.map((f) => ({
            path: f.path,
            facts: {
              path: f.path,
              lang: 'typescript' as const,
              definitions: f.symbols.map((name, c) => ({ name, symbol: c === 0 ? `${f.path}:${name}` : `${f.path}:${f.symbols[0]}.${name}`, kind: c === 0 ? ('class' as const) : ('method' as const), parent: c === 0 ? null : `${f.path}:${f.symbols[0]}`, startLine: 1 + c * 12, endLine: 12 + c * 12, startByte: 0, endByte: 0 })),
              references: [],
              imports: [],
            },
          })),
        );
      }
      chunkLoadS = (performance.now() - t0) / 1000;
      log(`chunks: ${written} (+ ${files.length} file rows and their symbols) in ${chunkLoadS.toFixed(1)} s (embedding ${(embedMs / 1000).toFixed(1)} s)`);

      // --- load tasks --------------------------------------------------------------------------
      t0 = performance.now();
      const tasks = ctx.get(TaskHistoryService);
      const taskInputs = Array.from({ length: N_TASKS }, (_, t) => {
        const r = rng(31_337 * (t + 1));
        const touched = Array.from({ length: 1 + Math.floor(r() * 4) }, () => files[Math.floor(files.length * r() * r())]);
        const sym = touched[0].symbols[Math.floor(r() * CHUNKS_PER_FILE)];
        return {
          id: `T-${t}`,
          title: `${['Fix', 'Add', 'Refactor', 'Speed up', 'Handle'][t % 5]} ${zipf(r)} ${zipf(r)} in ${sym}`,
          body: `When the ${zipf(r)} ${zipf(r)} ${zipf(r)} the ${identifier(r)} ${zipf(r)}s. ${cap(zipf(r))} ${zipf(r)} ${zipf(r)} and ${zipf(r)} ${identifier(r)}.`,
          files: [...new Set(touched.map((x) => x.path))],
          created_at: new Date(Date.UTC(2020, 0, 1) + t * 3_600_000).toISOString(),
        };
      });
      importedTasks = 0;
      for (let i = 0; i < taskInputs.length; i += 2000) {
        const res = await tasks.importTasks(ws, taskInputs.slice(i, i + 2000), { source: 'bench', repositoryId: repo.id });
        importedTasks += res.imported + res.updated;
      }
      taskLoadS = (performance.now() - t0) / 1000;
      log(`tasks: ${importedTasks} in ${taskLoadS.toFixed(1)} s`);
      if (!tempDir) writeFileSync(markerFile, JSON.stringify(corpusKey));
    }

    // --- queries ---------------------------------------------------------------------------------
    const queries = Array.from({ length: N_QUERIES }, (_, q) => {
      const r = rng(99_991 * (q + 1));
      const file = files[Math.floor(files.length * r())];
      if (q % 2 === 0) return file.symbols[Math.floor(r() * CHUNKS_PER_FILE)];
      return `how does the ${zipf(r)} ${zipf(r)} ${zipf(r)} when ${zipf(r)} ${zipf(r)}`;
    });
    const search = ctx.get(SearchService);
    const searchLog = ctx.get(SearchLogService);
    const ask = (query: string, extra: Partial<SearchRequest>, ranker: 'auto' | 'off' = 'auto') =>
      search.search(ws, SearchRequestSchema.parse({ query, top_k: 10, granularity: 'file', ...extra }), { cache: false, ranker });
    /** Latencies, per-phase timings and process CPU time of a series of searches. */
    const series = () => ({ ms: [] as number[], phases: {} as Record<string, number[]>, cpuUs: 0, empty: 0 });
    const run = async (into: ReturnType<typeof series>, qs: readonly string[], extra: Partial<SearchRequest>, ranker: 'auto' | 'off') => {
      // CPU time of the whole process per search (pool writes included): less sensitive to other jobs than wall time.
      const cpu0 = process.cpuUsage();
      for (const q of qs) {
        // The previous search's pool write runs after its results are returned; wait for it untimed, so each
        // latency is one search's own (the writes stay in cpu_ms and in the concurrent throughput below).
        await searchLog.flush();
        const t = performance.now();
        const res = await ask(q, extra, ranker);
        into.ms.push(performance.now() - t);
        if (res.results.length === 0) into.empty++;
        for (const [phase, v] of Object.entries(res.timings_ms)) (into.phases[phase] ??= []).push(v);
      }
      const cpu = process.cpuUsage(cpu0);
      into.cpuUs += cpu.user + cpu.system;
    };
    const summary = ({ ms, phases, cpuUs, empty }: ReturnType<typeof series>) => ({
      p50: pct(ms, 50),
      p95: pct(ms, 95),
      mean: +(ms.reduce((s, x) => s + x, 0) / ms.length).toFixed(2),
      cpu_ms: +(cpuUs / 1000 / ms.length).toFixed(2),
      empty,
      // Where the time goes (the service's own timings_ms, p50 per phase): sources overlap, so they do not add up.
      phases_p50: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, pct(v, 50)])),
    });
    const measure = async (extra: Partial<SearchRequest>, ranker: 'auto' | 'off' = 'auto') => {
      for (let i = 0; i < 10; i++) await ask(queries[i % queries.length], extra, ranker);
      const s = series();
      await run(s, queries, extra, ranker);
      return summary(s);
    };
    /**
     * Two ways of searching compared on the same queries in alternating blocks (A B, B A, A B, ...), so a
     * change in the machine's load during the run weighs on both alike; a block is long enough that the
     * garbage a way leaves is mostly collected within its own block.
     */
    const measurePair = async (a: () => [Partial<SearchRequest>, 'auto' | 'off'], b: () => [Partial<SearchRequest>, 'auto' | 'off'], block = PAIR_BLOCK) => {
      for (let i = 0; i < 10; i++) {
        await ask(queries[i % queries.length], ...a());
        await ask(queries[i % queries.length], ...b());
      }
      const [sa, sb] = [series(), series()];
      for (let from = 0, n = 0; from < queries.length; from += block, n++) {
        const qs = queries.slice(from, from + block);
        const order = n % 2 === 0 ? ([[sa, a], [sb, b]] as const) : ([[sb, b], [sa, a]] as const);
        for (const [into, way] of order) await run(into, qs, ...way());
      }
      return [summary(sa), summary(sb)];
    };

    // One untimed pass over every query first: the first strategy measured would otherwise also pay for cold
    // OS page caches and JIT (it came out 1.5x slower than the same code measured second).
    for (const q of queries) await ask(q, {});
    // A server turns its event loop between requests, so background work the first searches start (the
    // column-major copy of the int8 vectors, one 16k-slot step per turn) is done within seconds; this loop of
    // awaited searches never yields to it, and the first timed strategy used to run half on the row scan.
    for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));

    const perStrategy: Record<string, Awaited<ReturnType<typeof measure>>> = {};
    for (const strategy of ONLY.has('strategies') ? STRATEGIES : []) {
      perStrategy[strategy] = await measure({ strategy });
      log(`strategy ${strategy}`, perStrategy[strategy]);
    }
    const perSource: Record<string, Awaited<ReturnType<typeof measure>>> = {};
    for (const source of ONLY.has('sources') ? (SEARCH_SOURCES as readonly SearchSource[]) : []) {
      perSource[source] = await measure({ sources: [source] });
      log(`source ${source}`, perSource[source]);
    }

    // The learned ranker's cost: the default request with a trained model against the same request with
    // it switched off. Synthetic tasks may not beat fusion on validation (then no model would be active),
    // so the newest fitted model is made active for the measurement; `forced_active` says when.
    let rankerResult: Record<string, unknown> | null = null;
    if (ONLY.has('ranker')) {
      t0 = performance.now();
      const status = await ctx.get(RankerTrainingService).train(ws);
      const trainS = +((performance.now() - t0) / 1000).toFixed(1);
      let forced = false;
      if (status.state !== 'active') {
        const row = await ctx.get(DataSource).getRepository(RankerModelEntity).findOne({ where: { workspaceId: ws }, order: { version: 'DESC' } });
        if (row) {
          await ctx.get(LearnedRankerService).save(ws, JSON.parse(row.model), JSON.parse(row.report), true);
          forced = true;
        }
      }
      const [off, on] = await measurePair(() => [{}, 'off'], () => [{}, 'auto']);
      rankerResult = { train_s: trainS, state: status.state, forced_active: forced, block: PAIR_BLOCK, off, on, added_p50_ms: +(on.p50 - off.p50).toFixed(2), added_cpu_ms: +(on.cpu_ms - off.cpu_ms).toFixed(2) };
      log('ranker', rankerResult);
    }

    // Throughput of the default strategy (requests without `strategy`) with CONCURRENCY searches in flight.
    const totalQ = ONLY.has('qps') ? Math.max(N_QUERIES, 400) : 0;
    let next = 0;
    t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < totalQ) {
          const i = next++;
          await ask(queries[i % queries.length], {});
        }
      }),
    );
    const qps = +(totalQ / ((performance.now() - t0) / 1000)).toFixed(1);
    log(`throughput: ${qps} queries/s at concurrency ${CONCURRENCY}`);

    // The product's default strategy (what a request without `strategy` gets) is the one the targets are for.
    const defaultStrategy = SearchRequestSchema.parse({ query: 'x' }).strategy;
    const def = perStrategy[defaultStrategy];
    const result = {
      bench: 'search',
      chunks: written,
      files: files.length,
      tasks: importedTasks,
      dims: DIMS,
      embedder: 'hash',
      store: 'embedded',
      queries: N_QUERIES,
      load_s: { chunks: +chunkLoadS.toFixed(1), tasks: +taskLoadS.toFixed(1) },
      latency_ms: { strategy: perStrategy, source: perSource },
      ranker: rankerResult,
      qps: { concurrency: CONCURRENCY, default_strategy: defaultStrategy, value: qps },
      loadavg_1m: { start: +loadStart.toFixed(2), end: +loadavg()[0].toFixed(2) },
      rss_mb: { start: Math.round(rssStart / 1048576), end: Math.round(process.memoryUsage().rss / 1048576) },
      targets: {
        ...TARGETS,
        met: def ? def.p50 <= TARGETS.p50_ms && def.p95 <= TARGETS.p95_ms : null,
        ranker_added_p50_ms: RANKER_ADDED_P50_MS,
        ranker_met: rankerResult ? (rankerResult.added_p50_ms as number) <= RANKER_ADDED_P50_MS : null,
      },
    };
    await ctx.close();
    if (JSON_OUT) process.stdout.write(`${JSON.stringify(result)}\n`);
    else log(JSON.stringify(result, null, 2));
  } catch (e) {
    await ctx.close().catch(() => undefined);
    throw e;
  } finally {
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    rmSync(repoDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`bench:search failed: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
