/**
 * bench:mcp — what the MCP layer adds on top of the search it wraps.
 *
 *   npm run bench:mcp -- --json [--chunks 100000] [--tasks 10000] [--queries 200] [--concurrency 8] [--warmup 800]
 *
 * Setup: the real HTTP app (`createApp`, as `sextant serve` runs it) on 127.0.0.1:<ephemeral>,
 * a fresh data dir (SQLite + embedded store, 384-dim hash embedder), one repository with
 * 100k code-like chunks written straight into CHUNK_INDEX (the same generator as
 * bench:search) and 10k tasks imported through TaskHistoryService. The agent is the SDK's
 * `Client` + `StreamableHTTPClientTransport` with a reader API key, on its own thread
 * (bench/lib/mcp-agent.worker.js), as an agent is its own process; it times each call itself.
 *
 * Measured, for the same queries (half identifiers, half natural language):
 * - `search`: the MCP tool over HTTP (per call: POST, auth, a fresh server + transport,
 *   input/output validation, mapping, client-side parsing) vs `SearchService.search` called
 *   in-process with the same request and options (chunk granularity, pool logging on);
 * - `fetch` of the top 5 ids of each query: the MCP tool over HTTP vs the tool's own `run`
 *   in-process (ChunkIndex.get + budget);
 * each at concurrency 1 and `--concurrency`; at concurrency 1 also SearchTool.run in-process,
 * which splits the search overhead into the tool's mapping and the protocol/HTTP part, and
 * the server's own time per /mcp request (`server`: request parsed -> response finished),
 * which is the overhead without the client's. The search result cache is invalidated before
 * every call on both paths, so every call does the full search. Calls alternate between
 * the two paths query by query so neither gets warmer caches; at concurrency 1 each call
 * first waits (untimed) for the previous search's background pool write. The HTTP rate limit
 * is off. Client and server share the machine's 2 cores.
 *
 * Timing starts after `--warmup` rounds (each: one MCP search, one MCP fetch, one in-process
 * search and fetch), because a server that agents use runs warm. With 20 rounds the JIT was
 * still optimising the HTTP/MCP path during the timed calls: the search overhead read
 * 6.3-6.6 ms (3 runs), against 3.9-5.9 ms (median 4.4, 8 runs) after 800 rounds. On a
 * 2,000-chunk corpus it was 4.5 ms after 400 rounds and 3.7 ms after 2,000 (one run each).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { McpFetchInputSchema, McpSearchOutputSchema, SearchRequestSchema } from '@sextant/contracts';
import { HashEmbedder } from '@sextant/embeddings';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import { createApp } from '../apps/api/src/bootstrap';
import { loadConfig } from '../apps/api/src/config/config.schema';
import { ApiKeysService } from '../apps/api/src/modules/auth/api-keys.service';
import type { AuthContext } from '../apps/api/src/modules/auth/auth-context';
import { SearchService } from '../apps/api/src/modules/fusion/search.service';
import { SearchLogService } from '../apps/api/src/modules/fusion/search-log.service';
import { IndexingService } from '../apps/api/src/modules/indexing/services/indexing.service';
import { FetchTool } from '../apps/api/src/modules/mcp/tools/fetch.tool';
import { SearchTool } from '../apps/api/src/modules/mcp/tools/search.tool';
import { TaskHistoryService } from '../apps/api/src/modules/task-history/task-history.service';
import { WorkspacesService } from '../apps/api/src/modules/workspaces/workspaces.service';
import { identifier, pct, rng, writeCorpusChunks, zipf } from './lib/code-corpus';

const argv = process.argv.slice(2).filter((a) => a !== '--');
const flag = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const JSON_OUT = argv.includes('--json');
const N_CHUNKS = flag('chunks', 100_000);
const N_TASKS = flag('tasks', 10_000);
const N_QUERIES = flag('queries', 200);
const CONCURRENCY = flag('concurrency', 8);
const WARMUP = flag('warmup', 800);
const CHUNKS_PER_FILE = 40;
const DIMS = 384;
const TOP_K = 12;
const FETCH_IDS = 5;
const TARGET = { overhead_p50_ms: 5 };
const log = (...a: unknown[]) => process.stdout.write(`${a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ')}\n`);

const stats = (ms: number[]) => ({ p50: pct(ms, 50), p95: pct(ms, 95), mean: +(ms.reduce((s, x) => s + x, 0) / ms.length).toFixed(2), n: ms.length });

interface Timed<T> {
  ms: number;
  value: T;
  /** Concurrency 1 only: the server's own time for the /mcp request. */
  serverMs: number;
}
let settle: () => Promise<void> = async () => undefined;
let lastServerMs = NaN;
/** Sequential calls first wait for the previous call's background pool write (untimed), so no call is charged with another's work. */
async function timed<T>(fn: () => Promise<T>, sequential = true): Promise<Timed<T>> {
  if (sequential) await settle();
  lastServerMs = NaN;
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value, serverMs: lastServerMs };
}

interface AgentReply {
  id: number;
  ms: number;
  isError: boolean;
  structuredContent?: unknown;
  text?: string;
  error?: string;
}

/** The SDK clients on their own thread (bench/lib/mcp-agent.worker.js); `call` resolves with the client-side time. */
async function startAgent(url: string, key: string, clients: number) {
  const worker = new Worker(join(__dirname, 'lib/mcp-agent.worker.js'), { workerData: { url, key, clients } });
  const waiting = new Map<number, (reply: AgentReply) => void>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (msg: AgentReply & { ready?: boolean; fatal?: string }) => {
      if (msg.ready) return resolve();
      if (msg.fatal) return reject(new Error(`MCP agent thread failed: ${msg.fatal}`));
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    });
  });
  return {
    async call(client: number, name: string, args: Record<string, unknown>, sequential = true): Promise<Timed<AgentReply>> {
      if (sequential) await settle();
      lastServerMs = NaN;
      const id = nextId++;
      const reply = await new Promise<AgentReply>((resolve) => {
        waiting.set(id, resolve);
        worker.postMessage({ id, client, name, args });
      });
      if (reply.error || reply.isError) throw new Error(`${name} failed: ${reply.error ?? reply.text}`);
      return { ms: reply.ms, value: reply, serverMs: lastServerMs };
    },
    async close() {
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

/** Runs `work(i, worker)` for i in [0, n) on `concurrency` workers; returns the wall time. */
async function pool(n: number, concurrency: number, work: (i: number, worker: number) => Promise<void>): Promise<{ wallS: number }> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async (_, w) => {
    while (next < n) await work(next++, w);
  }));
  return { wallS: (performance.now() - t0) / 1000 };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-mcp-'));
  const repoDir = mkdtempSync(join(tmpdir(), 'sextant-bench-mcp-repo-'));
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: repoDir, LOG_LEVEL: 'warn', EMBEDDINGS_PROVIDER: 'hash', EMBEDDINGS_DIM: String(DIMS), SEXTANT_RATE_LIMIT: '0', DATABASE_URL: '' });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  // Client and server share one event loop here: after a long in-process phase, a socket the server just closed for idling
  // (5 s by default) can be reused by the client before its FIN is processed (ECONNRESET). Phases never idle for a minute.
  app.getHttpServer().keepAliveTimeout = 60_000;
  // Server-side time of the last /mcp request (request parsed -> response finished): what Sextant adds, without the client.
  app.getHttpServer().prependListener('request', (req: { url?: string }, res: { on(e: string, f: () => void): void }) => {
    if (req.url !== '/mcp') return;
    const t = performance.now();
    res.on('finish', () => (lastServerMs = performance.now() - t));
  });
  const address = app.getHttpServer().address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let agent: Awaited<ReturnType<typeof startAgent>> | undefined;
  try {
    const ws = (await app.get(WorkspacesService).ensureDefault()).id;
    const repo = await app.get(IndexingService).register(ws, { path: repoDir, name: 'bench' });
    const chunks = app.get<ChunkIndex>(CHUNK_INDEX);
    const embedder = new HashEmbedder({ dimensions: DIMS });

    // --- corpus -------------------------------------------------------------------------------
    let t0 = performance.now();
    const { files, written } = await writeCorpusChunks(chunks, (texts) => embedder.embedDocuments(texts), { chunks: N_CHUNKS, chunksPerFile: CHUNKS_PER_FILE, workspaceId: ws, repoId: repo.id });
    const chunkLoadS = (performance.now() - t0) / 1000;
    log(`chunks: ${written} in ${chunkLoadS.toFixed(1)} s`);
    t0 = performance.now();
    const taskInputs = Array.from({ length: N_TASKS }, (_, t) => {
      const r = rng(31_337 * (t + 1));
      const touched = Array.from({ length: 1 + Math.floor(r() * 4) }, () => files[Math.floor(files.length * r() * r())]);
      return {
        id: `T-${t}`,
        title: `${['Fix', 'Add', 'Refactor', 'Speed up', 'Handle'][t % 5]} ${zipf(r)} ${zipf(r)} in ${touched[0].symbols[Math.floor(r() * CHUNKS_PER_FILE)]}`,
        body: `When the ${zipf(r)} ${zipf(r)} ${zipf(r)} the ${identifier(r)} ${zipf(r)}s.`,
        files: [...new Set(touched.map((x) => x.path))],
      };
    });
    for (let i = 0; i < taskInputs.length; i += 2000) await app.get(TaskHistoryService).importTasks(ws, taskInputs.slice(i, i + 2000), { source: 'bench', repositoryId: repo.id });
    log(`tasks: ${N_TASKS} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const queries = [
      ...new Set(
        Array.from({ length: N_QUERIES * 2 }, (_, q) => {
          const r = rng(99_991 * (q + 1));
          const file = files[Math.floor(files.length * r())];
          return q % 2 === 0 ? file.symbols[Math.floor(r() * CHUNKS_PER_FILE)] : `how does the ${zipf(r)} ${zipf(r)} ${zipf(r)} when ${zipf(r)} ${zipf(r)}`;
        }),
      ),
    ].slice(0, N_QUERIES);

    // --- the two paths ------------------------------------------------------------------------
    const key = await app.get(ApiKeysService).create(ws, { name: 'bench', role: 'reader' });
    const auth: AuthContext = { workspaceId: ws, role: 'reader', principal: `key:${key.id}` };
    const search = app.get(SearchService);
    const fetchTool = app.get(FetchTool);
    const fresh = () => search.onIndexChanged({ workspaceId: ws });
    settle = () => app.get(SearchLogService).flush();
    const inProcessSearch = (q: string) => {
      fresh();
      return search.search(ws, SearchRequestSchema.parse({ query: q, top_k: TOP_K, rerank: true, granularity: 'chunk' }), { principal: auth.principal });
    };
    const searchTool = app.get(SearchTool);
    const inProcessTool = (q: string) => {
      fresh();
      return searchTool.run({ query: q, top_k: TOP_K, rerank: true }, { auth, transport: 'http', callId: randomUUID() });
    };
    const inProcessFetch = (ids: string[]) => fetchTool.run(McpFetchInputSchema.parse({ objectIds: ids }), { auth, transport: 'http', callId: randomUUID() });
    agent = await startAgent(`${baseUrl}/mcp`, key.key, Math.max(1, CONCURRENCY));
    const mcpSearch = (client: number, q: string, sequential = true) => {
      fresh();
      return agent!.call(client, 'search', { query: q, top_k: TOP_K, rerank: true }, sequential);
    };
    const mcpFetch = (client: number, ids: string[], sequential = true) => agent!.call(client, 'fetch', { objectIds: ids }, sequential);

    // Ids to fetch per query, and warm-up of both paths.
    const idsOf: string[][] = [];
    for (let i = 0; i < queries.length; i++) idsOf[i] = (await inProcessSearch(queries[i])).results.slice(0, FETCH_IDS).map((r) => r.id);
    for (let i = 0; i < WARMUP; i++) {
      await mcpSearch(0, queries[i % queries.length]);
      await inProcessSearch(queries[i % queries.length]);
      await mcpFetch(0, idsOf[i % queries.length]);
      await inProcessFetch(idsOf[i % queries.length]);
    }
    const emptyFetch = idsOf.filter((ids) => !ids.length).length;

    // Concurrency 1, alternating paths query by query.
    const c1 = {
      search: { inproc: [] as number[], http: [] as number[], paired: [] as number[], tool: [] as number[], server: [] as number[], serverPaired: [] as number[] },
      fetch: { inproc: [] as number[], http: [] as number[], paired: [] as number[], server: [] as number[], serverPaired: [] as number[] },
    };
    let mismatched = 0;
    for (let i = 0; i < queries.length; i++) {
      const q = queries[i];
      const mcpFirst = i % 2 === 1;
      const a = mcpFirst ? await mcpSearch(0, q) : await timed(() => inProcessSearch(q));
      const b = mcpFirst ? await timed(() => inProcessSearch(q)) : await mcpSearch(0, q);
      const [mcp, inproc] = mcpFirst ? [a, b] : [b, a];
      c1.search.server.push(mcp.serverMs);
      c1.search.serverPaired.push(mcp.serverMs - inproc.ms);
      c1.search.http.push(mcp.ms);
      c1.search.inproc.push(inproc.ms);
      c1.search.paired.push(mcp.ms - inproc.ms);
      const viaMcp = McpSearchOutputSchema.parse((mcp.value as AgentReply).structuredContent).results.map((r) => r.id);
      const direct = (inproc.value as Awaited<ReturnType<typeof inProcessSearch>>).results.map((r) => r.id);
      if (viaMcp.join() !== direct.filter((id) => viaMcp.includes(id)).join()) mismatched++;
      c1.search.tool.push((await timed(() => inProcessTool(q))).ms);
      if (!idsOf[i].length) continue;
      const fa = mcpFirst ? await mcpFetch(0, idsOf[i]) : await timed(() => inProcessFetch(idsOf[i]));
      const fb = mcpFirst ? await timed(() => inProcessFetch(idsOf[i])) : await mcpFetch(0, idsOf[i]);
      const [fm, fi] = mcpFirst ? [fa, fb] : [fb, fa];
      c1.fetch.server.push(fm.serverMs);
      c1.fetch.serverPaired.push(fm.serverMs - fi.ms);
      c1.fetch.http.push(fm.ms);
      c1.fetch.inproc.push(fi.ms);
      c1.fetch.paired.push(fm.ms - fi.ms);
    }
    log('concurrency 1', { search: { http: stats(c1.search.http), inproc: stats(c1.search.inproc) }, fetch: { http: stats(c1.fetch.http), inproc: stats(c1.fetch.inproc) } });

    // Concurrency N: each path on its own (interleaving under load would measure the mix).
    const cN = { search: { inproc: [] as number[], http: [] as number[] }, fetch: { inproc: [] as number[], http: [] as number[] }, qps: { search_inproc: 0, search_http: 0 } };
    const runN = async (label: keyof typeof cN.qps, fn: (i: number, w: number) => Promise<Timed<unknown>>, sink: number[]) => {
      const { wallS } = await pool(queries.length, CONCURRENCY, async (i, w) => {
        sink.push((await fn(i, w)).ms);
      });
      cN.qps[label] = +(queries.length / wallS).toFixed(1);
    };
    await runN('search_inproc', (i) => timed(() => inProcessSearch(queries[i]), false), cN.search.inproc);
    await runN('search_http', (i, w) => mcpSearch(w, queries[i], false), cN.search.http);
    await pool(queries.length, CONCURRENCY, async (i) => void (idsOf[i].length && cN.fetch.inproc.push((await timed(() => inProcessFetch(idsOf[i]), false)).ms)));
    await pool(queries.length, CONCURRENCY, async (i, w) => void (idsOf[i].length && cN.fetch.http.push((await mcpFetch(w, idsOf[i], false)).ms)));
    log(`concurrency ${CONCURRENCY}`, { search: { http: stats(cN.search.http), inproc: stats(cN.search.inproc) }, fetch: { http: stats(cN.fetch.http), inproc: stats(cN.fetch.inproc) }, qps: cN.qps });

    // tool_inprocess: SearchTool.run without MCP/HTTP (SearchService + mapping + text), to split the overhead.
    const s1 = { http: stats(c1.search.http), server: stats(c1.search.server), inprocess: stats(c1.search.inproc), tool_inprocess: stats(c1.search.tool) };
    const f1 = { http: stats(c1.fetch.http), server: stats(c1.fetch.server), inprocess: stats(c1.fetch.inproc) };
    const overhead = {
      search_p50_ms: +(s1.http.p50 - s1.inprocess.p50).toFixed(2),
      search_paired_p50_ms: pct(c1.search.paired, 50),
      fetch_p50_ms: +(f1.http.p50 - f1.inprocess.p50).toFixed(2),
      fetch_paired_p50_ms: pct(c1.fetch.paired, 50),
      search_server_paired_p50_ms: pct(c1.search.serverPaired, 50),
      fetch_server_paired_p50_ms: pct(c1.fetch.serverPaired, 50),
      [`search_p50_ms_c${CONCURRENCY}`]: +(pct(cN.search.http, 50) - pct(cN.search.inproc, 50)).toFixed(2),
    };
    const result = {
      bench: 'mcp',
      chunks: written,
      tasks: N_TASKS,
      dims: DIMS,
      store: 'embedded',
      queries: queries.length,
      top_k: TOP_K,
      fetch_ids: FETCH_IDS,
      warmup_rounds: WARMUP,
      load_s: +chunkLoadS.toFixed(1),
      latency_ms: {
        search: { c1: s1, [`c${CONCURRENCY}`]: { http: stats(cN.search.http), inprocess: stats(cN.search.inproc) } },
        fetch: { c1: f1, [`c${CONCURRENCY}`]: { http: stats(cN.fetch.http), inprocess: stats(cN.fetch.inproc) } },
      },
      qps: { concurrency: CONCURRENCY, ...cN.qps },
      overhead_ms: overhead,
      checks: { result_order_mismatches: mismatched, queries_without_results: emptyFetch },
      // `met`: as the agent sees it (SDK client included); `met_server_side`: what the endpoint adds on the server.
      target: { ...TARGET, met: overhead.search_p50_ms <= TARGET.overhead_p50_ms, met_server_side: overhead.search_server_paired_p50_ms <= TARGET.overhead_p50_ms },
    };
    if (JSON_OUT) process.stdout.write(`${JSON.stringify(result)}\n`);
    else log(JSON.stringify(result, null, 2));
  } finally {
    await agent?.close().catch(() => undefined);
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(repoDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`bench:mcp failed: ${(e as Error).stack ?? e}${(e as { cause?: unknown }).cause ? `\ncause: ${String((e as { cause?: Error }).cause?.stack ?? (e as { cause?: unknown }).cause)}` : ""}\n`);
  process.exit(1);
});
