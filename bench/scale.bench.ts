/**
 * bench:scale — a monorepo-sized corpus on one small machine: full index, no-op re-index, task
 * import, then a FRESH server process on the same data dir (restart-to-ready, RSS, search latency
 * over HTTP), on the embedded store with the hash embedder.
 *
 *   npm run bench:scale -- --json [--files 100000] [--repos 1] [--tasks 100000] [--queries 100] [--data-dir DIR]
 *
 * `--repos R` splits the same number of files over R repositories in one workspace (the
 * "many repositories" case: compare `--repos 200 --files 100000` with `--repos 1`).
 * `--data-dir DIR` keeps the data: a second run with the same flags skips generation, indexing and
 * import and only measures the fresh server (how to iterate on query-time or memory changes).
 *
 * The corpus is `bench/lib/corpus.ts` (TypeScript/Python/Go/Markdown mix, ~10 chunks per file)
 * parsed by tree-sitter through the same IndexingService `sextant index` uses. Tasks (titles,
 * bodies, 1-4 touched files) go through `TaskHistoryService.importTasks`. The server is started
 * with `sextant serve --no-auto-index`; "ready" is the first 200 from /health after spawn; RSS
 * is read from /proc after the timed queries (VmRSS, and VmHWM for the peak). Queries are the
 * default request (`weighted`, file granularity, all sources) sent sequentially after one untimed
 * pass, half identifiers from the corpus vocabulary, half natural-language word combinations.
 * Other jobs share the 2 cores, so the load average is reported at start and end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createCliContext } from '../apps/api/src/cli/cli-app';
import { loadConfig } from '../apps/api/src/config/config.schema';
import { IndexingService } from '../apps/api/src/modules/indexing/services/indexing.service';
import { TaskHistoryService } from '../apps/api/src/modules/task-history/task-history.service';
import { WorkspacesService } from '../apps/api/src/modules/workspaces/workspaces.service';
import { parseBenchArgs, percentile, report, round } from './lib/bench-args';
import { generateCorpus } from './lib/corpus';

const args = parseBenchArgs();
const FILES = Number(args.files ?? 100_000);
const REPOS = Math.max(1, Number(args.repos ?? 1));
const TASKS = Number(args.tasks ?? 100_000);
const QUERIES = Number(args.queries ?? 100);
const TARGETS = { full_index_s: 180, search_p50_ms: 30, search_p95_ms: 80, server_rss_mb: 2500, restart_to_ready_s: 10, reindex_nothing_changed_s: 5 };
const WORDS = ['user', 'session', 'token', 'cache', 'request', 'response', 'parse', 'render', 'config', 'queue', 'worker', 'index', 'search', 'query', 'result', 'store', 'file', 'path', 'stream', 'buffer', 'auth', 'route', 'handler', 'payload', 'event', 'socket', 'retry', 'limit', 'batch', 'vector'];
const progress = (...a: unknown[]) => {
  if (!args.json) console.log(...a);
  else process.stderr.write(`${a.join(' ')}\n`);
};

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : NaN;
}

/** Generates, indexes and imports into `dataDir` (skipped when a previous run with the same shape left its marker). */
async function build(dataDir: string, corpusRoot: string) {
  const shape = JSON.stringify({ FILES, REPOS, TASKS });
  const marker = path.join(dataDir, 'bench-scale.json');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === shape) {
    progress(`reusing ${dataDir}`);
    return null;
  }
  const perRepo = Math.ceil(FILES / REPOS);
  const repoDirs: string[] = [];
  const t0 = performance.now();
  for (let r = 0; r < REPOS; r++) {
    const dir = path.join(corpusRoot, REPOS === 1 ? 'monorepo' : `repo-${String(r).padStart(3, '0')}`);
    if (!fs.existsSync(dir)) generateCorpus(dir, Math.min(perRepo, FILES - r * perRepo), 42 + r);
    repoDirs.push(fs.realpathSync(dir));
  }
  progress(`generated ${FILES} files in ${REPOS} repositories in ${round((performance.now() - t0) / 1000)} s`);
  // Files written within 2 s of a job's start are "racily clean" and re-read by the next job.
  await new Promise((resolve) => setTimeout(resolve, 2100));

  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: corpusRoot, LOG_LEVEL: 'warn', EMBEDDINGS_PROVIDER: 'hash' });
  const ctx = await createCliContext(config);
  try {
    const indexing = ctx.get(IndexingService);
    const ws = (await ctx.get(WorkspacesService).ensureDefault()).id;
    const repos = [];
    for (const dir of repoDirs) repos.push(await indexing.register(ws, { path: dir }));

    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    let files = 0;
    let chunks = 0;
    // Jobs run one at a time inside the service (its queue); start them all and wait for each.
    const jobs = [];
    for (const repo of repos) jobs.push(await indexing.startJob(ws, repo.id, 'full'));
    for (const job of jobs) {
      const done = await indexing.waitForJob(ws, job.id);
      if (done.status !== 'succeeded') throw new Error(`index job ${job.id} ended ${done.status}: ${JSON.stringify(done.error ?? null)}`);
      files += done.counts.indexed;
      chunks += done.counts.chunks;
      if (jobs.length > 1 && jobs.indexOf(job) % 20 === 19) progress(`  ${jobs.indexOf(job) + 1}/${jobs.length} repositories indexed`);
    }
    const fullIndexS = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(cpu0);
    progress(`full index: ${files} files, ${chunks} chunks in ${round(fullIndexS)} s`);

    const t2 = performance.now();
    const noop = [];
    for (const repo of repos) noop.push(await indexing.startJob(ws, repo.id, 'incremental'));
    let unchanged = 0;
    for (const job of noop) unchanged += (await indexing.waitForJob(ws, job.id)).counts.unchanged ?? 0;
    const noopS = (performance.now() - t2) / 1000;
    progress(`no-op re-index: ${round(noopS, 2)} s (${unchanged} unchanged)`);

    const t3 = performance.now();
    const tasks = ctx.get(TaskHistoryService);
    const rel = (r: number) => {
      const f = Math.floor(r * perRepo);
      return `pkg${f % 97}/mod${f % 13}`;
    };
    let imported = 0;
    for (let start = 0; start < TASKS; start += 2000) {
      const batch = [];
      for (let t = start; t < Math.min(TASKS, start + 2000); t++) {
        const r = rng(7919 * (t + 1));
        const w = () => WORDS[Math.floor(r() * WORDS.length)];
        batch.push({
          id: `S-${t}`,
          title: `${['Fix', 'Add', 'Refactor', 'Speed up', 'Handle'][t % 5]} ${w()} ${w()} in ${w()}${w()[0].toUpperCase()}${w().slice(1)}`,
          body: `When the ${w()} ${w()} times out the ${w()} ${w()} is lost. ${w()} ${w()} ${w()}.`,
          // Directories, not exact file names: the corpus names files by index; a touched path that is
          // not indexed is kept as history (the import does not require it to exist).
          files: Array.from({ length: 1 + Math.floor(r() * 4) }, () => `${rel(r())}/file${Math.floor(r() * 1000)}.ts`),
          created_at: new Date(Date.UTC(2018, 0, 1) + t * 600_000).toISOString(),
        });
      }
      const repo = repos[Math.floor(start / 2000) % repos.length];
      const res = await tasks.importTasks(ws, batch, { source: 'bench', repositoryId: repo.id });
      imported += res.imported + res.updated;
    }
    const taskImportS = (performance.now() - t3) / 1000;
    progress(`tasks: ${imported} in ${round(taskImportS)} s`);
    fs.writeFileSync(marker, shape);
    return { files, chunks, fullIndexS, fullIndexCpuS: (cpu.user + cpu.system) / 1e6, noopS, imported, taskImportS, peakBuildRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
  } finally {
    await ctx.close();
  }
}

async function measureServer(dataDir: string, corpusRoot: string) {
  const port = await freePort();
  const bin = path.join(__dirname, '..', 'apps', 'api', 'bin', 'sextant.js');
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, [bin, 'serve', '--no-auto-index', '--port', String(port)], {
    env: { ...process.env, SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: corpusRoot, EMBEDDINGS_PROVIDER: 'hash', LOG_LEVEL: 'warn', SEXTANT_RATE_LIMIT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const base = `http://127.0.0.1:${port}`;
  try {
    let readyS = NaN;
    for (let i = 0; i < 1200; i++) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr.slice(-2000)}`);
      const ok = await fetch(`${base}/health`).then((r) => r.ok, () => false);
      if (ok) {
        readyS = (performance.now() - t0) / 1000;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!Number.isFinite(readyS)) throw new Error('server not ready after 60 s');
    const rssReadyMb = procStatusMb(child.pid!, 'VmRSS');
    progress(`fresh server ready in ${round(readyS, 2)} s, RSS ${rssReadyMb} MB`);

    // Two disjoint query sets: one warms the server up (JIT, page cache), the other is timed, so no
    // result cache can answer a timed query (the API trims queries, so a trailing space would not do).
    const makeQueries = (seed: number) =>
      Array.from({ length: QUERIES }, (_, q) => {
        const r = rng(seed * (q + 1));
        const w = () => WORDS[Math.floor(r() * WORDS.length)];
        const n = Math.floor(r() * 1000);
        if (q % 2 === 0) return `${w()}${w()[0].toUpperCase()}${w().slice(1)}${n % 8}`;
        return `how does the ${w()} ${w()} handle ${w()} ${w()} ${n}`;
      });
    const ask = async (query: string) => {
      const res = await fetch(`${base}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, top_k: 10 }) });
      if (!res.ok) throw new Error(`search ${JSON.stringify(query)} → ${res.status}: ${await res.text()}`);
      return (await res.json()) as { results: unknown[]; timings_ms: Record<string, number> };
    };
    for (const q of makeQueries(104_729)) await ask(q);
    const ms: number[] = [];
    const phases: Record<string, number[]> = {};
    let empty = 0;
    for (const q of makeQueries(130_363)) {
      const t = performance.now();
      const res = await ask(q);
      ms.push(performance.now() - t);
      if (!res.results.length) empty++;
      for (const [phase, v] of Object.entries(res.timings_ms)) (phases[phase] ??= []).push(v);
    }
    return {
      readyS,
      rssReadyMb,
      rssAfterQueriesMb: procStatusMb(child.pid!, 'VmRSS'),
      peakRssMb: procStatusMb(child.pid!, 'VmHWM'),
      p50: percentile(ms, 50),
      p95: percentile(ms, 95),
      // The service's own timings (p50 per phase); sources run concurrently, so they do not add up.
      phasesP50: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, round(percentile(v, 50), 1)])),
      empty,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
}

async function main() {
  const load0 = os.loadavg()[0];
  const keep = typeof args['data-dir'] === 'string' ? path.resolve(args['data-dir']) : null;
  const work = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-bench-scale-'));
  const dataDir = path.join(work, 'data');
  const corpusRoot = path.join(work, 'corpus');
  fs.mkdirSync(corpusRoot, { recursive: true });
  try {
    const built = await build(dataDir, fs.realpathSync(corpusRoot));
    const server = await measureServer(dataDir, fs.realpathSync(corpusRoot));
    const result = {
      bench: 'scale',
      files: FILES,
      repositories: REPOS,
      tasks: TASKS,
      store: 'embedded',
      embedder: 'hash',
      build: built && {
        files_indexed: built.files,
        chunks: built.chunks,
        full_index_s: round(built.fullIndexS, 1),
        full_index_cpu_s: round(built.fullIndexCpuS, 1),
        reindex_nothing_changed_s: round(built.noopS, 2),
        tasks_imported: built.imported,
        task_import_s: round(built.taskImportS, 1),
        build_process_peak_rss_mb: built.peakBuildRssMb,
      },
      server: {
        restart_to_ready_s: round(server.readyS, 2),
        rss_ready_mb: server.rssReadyMb,
        rss_after_queries_mb: server.rssAfterQueriesMb,
        peak_rss_mb: server.peakRssMb,
        search_p50_ms: round(server.p50, 1),
        search_p95_ms: round(server.p95, 1),
        queries: QUERIES,
        empty_results: server.empty,
        search_phases_p50_ms: server.phasesP50,
      },
      load_average_1m: { start: round(load0, 2), end: round(os.loadavg()[0], 2) },
      cores: os.availableParallelism(),
      targets: {
        ...TARGETS,
        met: {
          full_index: built ? built.fullIndexS <= TARGETS.full_index_s : null,
          reindex_nothing_changed: built ? built.noopS <= TARGETS.reindex_nothing_changed_s : null,
          search_p50: server.p50 <= TARGETS.search_p50_ms,
          search_p95: server.p95 <= TARGETS.search_p95_ms,
          server_rss: server.peakRssMb <= TARGETS.server_rss_mb,
          restart_to_ready: server.readyS <= TARGETS.restart_to_ready_s,
        },
      },
    };
    report(args, result, [
      built ? `Indexed ${built.files} files / ${built.chunks} chunks in ${round(built.fullIndexS)} s; no-op re-index ${round(built.noopS, 2)} s; ${built.imported} tasks in ${round(built.taskImportS)} s` : 'Reused the kept data dir',
      `Fresh server: ready in ${round(server.readyS, 2)} s, RSS ${server.rssAfterQueriesMb} MB (peak ${server.peakRssMb}); search p50 ${round(server.p50)} ms, p95 ${round(server.p95)} ms`,
    ]);
  } finally {
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
