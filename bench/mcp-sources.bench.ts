/**
 * bench:mcp-sources — search latency with 0, 1 and 3 external MCP sources.
 *
 *   npm run bench:mcp-sources -- --json [--chunks 20000] [--queries 40] [--delays 100,200,300]
 *
 * Setup: the real app in-process (SQLite + embedded store, hash embedder), one repository with
 * `--chunks` code-like chunks written straight into CHUNK_INDEX, and three GitHub-like MCP
 * servers over Streamable HTTP on 127.0.0.1 (the test stubs: `search_code` + `get_file_contents`,
 * built with the SDK's server classes), each answering after a fixed server-side delay.
 * The same queries run through `SearchService.search` (result cache off, pool logging off) with
 * no source enabled, with the fastest one, then with all three. Sources run in parallel with the
 * index, so the expected latency with sources is about the index search or the slowest source,
 * whichever is longer, plus merging (embedding the external texts for de-duplication) — not the
 * sum of the delays. The first search of each setup (connecting) is not timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SearchRequestSchema } from '@sextant/contracts';
import { HashEmbedder } from '@sextant/embeddings';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import { createApp } from '../apps/api/src/bootstrap';
import { loadConfig } from '../apps/api/src/config/config.schema';
import { McpSourcesService } from '../apps/api/src/modules/external-sources/mcp-sources.service';
import { SearchService } from '../apps/api/src/modules/fusion/search.service';
import { IndexingService } from '../apps/api/src/modules/indexing/services/indexing.service';
import { WorkspacesService } from '../apps/api/src/modules/workspaces/workspaces.service';
import { spawn, type ChildProcess } from 'node:child_process';
import { pct, rng, writeCorpusChunks, zipf } from './lib/code-corpus';

const argv = process.argv.slice(2).filter((a) => a !== '--');
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const JSON_OUT = argv.includes('--json');
const N_CHUNKS = Number(opt('chunks', '20000'));
const N_QUERIES = Number(opt('queries', '40'));
const DELAYS = opt('delays', '100,200,300').split(',').map(Number);
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const stats = (ms: number[]) => ({ p50: +pct(ms, 50).toFixed(1), p95: +pct(ms, 95).toFixed(1), mean: +(ms.reduce((s, x) => s + x, 0) / ms.length).toFixed(1), n: ms.length });

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-mcpsrc-'));
  const repoDir = mkdtempSync(join(tmpdir(), 'sextant-bench-mcpsrc-repo-'));
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: repoDir, LOG_LEVEL: 'warn', EMBEDDINGS_PROVIDER: 'hash', EMBEDDINGS_DIM: '384', SEXTANT_RATE_LIMIT: '0', DATABASE_URL: '', SEXTANT_CLONE_ALLOWED_HOSTS: '127.0.0.1', PATH: process.env.PATH });
  const app = await createApp(config);
  await app.init();
  let host: ChildProcess | undefined;
  try {
    const ws = (await app.get(WorkspacesService).ensureDefault()).id;
    const repo = await app.get(IndexingService).register(ws, { path: repoDir, name: 'bench' });
    const embedder = new HashEmbedder({ dimensions: 384 });
    await writeCorpusChunks(app.get<ChunkIndex>(CHUNK_INDEX), (texts) => embedder.embedDocuments(texts), { chunks: N_CHUNKS, chunksPerFile: 40, workspaceId: ws, repoId: repo.id });
    log(`chunks: ${N_CHUNKS}`);

    // Each stub holds 20 documents over the same vocabulary, so every query finds some.
    const specs = DELAYS.map((delayMs, s) => {
      const r = rng(7 * (s + 1));
      return { name: `ext${s}`, delayMs, files: Array.from({ length: 20 }, (_, i) => ({ repo: `ext${s}/docs`, path: `doc-${i}.md`, content: Array.from({ length: 60 }, () => zipf(r)).join(' ') })) };
    });
    host = spawn(process.execPath, [join(__dirname, 'lib/mcp-stub-host.cjs'), JSON.stringify(specs)], { stdio: ['pipe', 'pipe', 'inherit'] });
    const urls: string[] = await new Promise((resolve, reject) => {
      host!.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()).urls));
      host!.once('exit', (code) => reject(new Error(`stub host exited ${code}`)));
    });
    const sources = app.get(McpSourcesService);
    const created = [];
    for (const [s, url] of urls.entries()) created.push(await sources.create(ws, { name: `ext${s}`, transport: { type: 'http', url, headers: {} }, enabled: false, priority: 2, result_limit: 5, timeout_ms: 15_000 }));

    const queries = Array.from({ length: N_QUERIES }, (_, q) => {
      const r = rng(1_000 + q);
      return `${zipf(r)} ${zipf(r)} ${zipf(r)}`;
    });
    const search = app.get(SearchService);
    const run = async (label: string) => {
      await search.search(ws, SearchRequestSchema.parse({ query: 'warm up connections' }), { cache: false, log: false });
      const ms: number[] = [];
      let external = 0;
      const limits = new Set<string>();
      for (const q of queries) {
        const t = performance.now();
        const res = await search.search(ws, SearchRequestSchema.parse({ query: q, top_k: 10 }), { cache: false, log: false });
        ms.push(performance.now() - t);
        external += res.external?.length ?? 0;
        res.limits.filter((l) => l.startsWith('mcp.')).forEach((l) => limits.add(l));
      }
      log(`${label}: p50 ${pct(ms, 50).toFixed(1)} ms, external results per search ${(external / queries.length).toFixed(1)}`);
      return { latency_ms: stats(ms), external_per_search: +(external / queries.length).toFixed(2), source_failures: [...limits] };
    };

    const none = await run('0 sources');
    await sources.update(ws, created[0].id, { enabled: true });
    const one = await run(`1 source (${DELAYS[0]} ms)`);
    for (const c of created.slice(1)) await sources.update(ws, c.id, { enabled: true });
    const three = await run(`3 sources (${DELAYS.join(', ')} ms)`);

    const result = {
      bench: 'mcp-sources',
      chunks: N_CHUNKS,
      queries: N_QUERIES,
      source_delays_ms: DELAYS,
      sources_0: none,
      sources_1: one,
      sources_3: three,
      // Parallel: three sources cost about the slowest one, not the sum of their delays.
      added_p50_ms: { one: +(one.latency_ms.p50 - none.latency_ms.p50).toFixed(1), three: +(three.latency_ms.p50 - none.latency_ms.p50).toFixed(1), sum_of_delays: DELAYS.reduce((a, b) => a + b, 0), slowest_delay: Math.max(...DELAYS) },
    };
    if (JSON_OUT) process.stdout.write(`${JSON.stringify(result)}\n`);
    else process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await app.close();
    host?.stdin?.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(repoDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
