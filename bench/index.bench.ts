/**
 * End-to-end indexing: discover -> parse (worker pool) -> chunk -> embed (hash, cached) ->
 * embedded store, through the same services `sextant index` uses.
 *
 *   npm run bench:index -- --json [--files 10000] [--path DIR] [--updates 30]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import { createCliContext } from '../apps/api/src/cli/cli-app';
import { loadConfig } from '../apps/api/src/config/config.schema';
import { IndexingService } from '../apps/api/src/modules/indexing/services/indexing.service';
import { WorkspacesService } from '../apps/api/src/modules/workspaces/workspaces.service';
import { parseBenchArgs, peakRssMb, percentile, report, round } from './lib/bench-args';
import { generateCorpus } from './lib/corpus';

async function main() {
  const args = parseBenchArgs();
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-bench-index-')));
  const files = Number(args.files ?? 10000);
  let corpus = typeof args.path === 'string' ? path.resolve(args.path) : path.join(work, 'corpus');
  if (typeof args.path !== 'string') {
    generateCorpus(corpus, files);
    // Files written within 2 s of a job's start are "racily clean" and always re-read by the next
    // job (index-job.runner.ts); a repository is not normally indexed the instant it is written.
    await new Promise((resolve) => setTimeout(resolve, 2100));
  }
  corpus = fs.realpathSync(corpus);

  const config = loadConfig({ SEXTANT_DATA_DIR: path.join(work, 'data'), SEXTANT_ALLOWED_ROOTS: path.dirname(corpus), LOG_LEVEL: 'warn' });
  const ctx = await createCliContext(config);
  const indexing = ctx.get(IndexingService);
  const chunks = ctx.get<ChunkIndex>(CHUNK_INDEX);
  const ws = (await ctx.get(WorkspacesService).ensureDefault()).id;
  const repo = await indexing.register(ws, { path: corpus });

  const t0 = performance.now();
  const cpu0 = process.cpuUsage(); // the whole process: main thread and the parse workers
  const mainCpu0 = mainThreadCpuS();
  const full = await indexing.waitForJob(ws, (await indexing.startJob(ws, repo.id, 'full')).id);
  const fullS = (performance.now() - t0) / 1000;
  const fullCpu = process.cpuUsage(cpu0);
  const fullMainCpu = mainThreadCpuS() - mainCpu0;
  const rssAfterFull = peakRssMb();

  const t1 = performance.now();
  const noop = await indexing.waitForJob(ws, (await indexing.startJob(ws, repo.id, 'incremental')).id);
  const noopS = (performance.now() - t1) / 1000;

  // Single-file update latency: write -> targeted job (what the watcher starts after its debounce) -> searchable.
  const updates = Number(args.updates ?? 30);
  const target = full.counts.indexed ? (await import('@sextant/indexer')).discoverFiles(corpus).then((d) => d.files.find((f) => f.lang === 'typescript')!) : null;
  const file = await target;
  const latencies: number[] = [];
  if (file) {
    const original = fs.readFileSync(file.absPath, 'utf8');
    for (let i = 0; i < updates; i++) {
      const marker = `benchMarkerIdent${i}x${Date.now().toString(36)}`;
      const start = performance.now();
      fs.writeFileSync(file.absPath, `${original}\nexport const ${marker} = ${i};\n`);
      const job = await indexing.startJob(ws, repo.id, 'incremental', [file.path]);
      await indexing.waitForJob(ws, job.id);
      const hits = await chunks.searchKeyword(marker, { workspaceId: ws, repoIds: [repo.id] }, 1);
      if (hits[0]?.payload.path !== file.path) throw new Error(`update ${i} not searchable`);
      latencies.push(performance.now() - start);
    }
    fs.writeFileSync(file.absPath, original);
  }
  await ctx.close();
  fs.rmSync(work, { recursive: true, force: true });

  const c = full.counts;
  const result = {
    bench: 'index',
    corpus: typeof args.path === 'string' ? corpus : `generated:${files}`,
    files_discovered: c.discovered,
    files_indexed: c.indexed,
    chunks: c.chunks,
    full_index_s: round(fullS, 2),
    files_per_s: round(c.indexed / fullS, 0),
    chunks_per_s: round(c.chunks / fullS, 0),
    // CPU seconds of the full index over wall seconds: ~2 means both cores were ours; on a shared
    // machine, cpu_s / 2 is what the wall time would be with both cores free.
    full_index_cpu_s: round((fullCpu.user + fullCpu.system) / 1e6, 2),
    // The main thread alone (it writes every batch; parse and embed run on workers): what bounds the job on two cores.
    full_index_main_cpu_s: round(fullMainCpu, 2),
    full_index_phase_s: Object.fromEntries(Object.entries(c.phaseMs ?? {}).map(([phase, ms]) => [phase, round(ms / 1000, 2)])),
    reindex_nothing_changed_s: round(noopS, 3),
    reindex_unchanged_files: noop.counts.unchanged,
    single_file_update_ms_p50: round(percentile(latencies, 50), 1),
    single_file_update_ms_p95: round(percentile(latencies, 95), 1),
    peak_rss_mb: Math.max(rssAfterFull, peakRssMb()),
    cores: os.availableParallelism(),
    load_average: os.loadavg().map((x) => round(x, 2)),
    targets: { full_index_10k_s: 30, reindex_nothing_changed_s: 2, single_file_update_ms_p95: 100 },
  };
  report(args, result, [
    `Indexed ${c.indexed} files (${c.chunks} chunks) in ${result.full_index_s}s: ${result.files_per_s} files/s, ${result.chunks_per_s} chunks/s`,
    `Re-index with nothing changed: ${result.reindex_nothing_changed_s}s; single-file update p50 ${result.single_file_update_ms_p50} ms, p95 ${result.single_file_update_ms_p95} ms`,
  ]);
}

/** CPU seconds of the main thread (Linux: its /proc task stat; NaN elsewhere). */
function mainThreadCpuS(): number {
  try {
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
