/**
 * Realtime: time from `search:start` to the first `search:partial` and to `search:done`
 * with 50 concurrent socket clients, and the server's extra RSS with 500 idle sockets.
 * The server runs as its own process (`sextant serve`) so client sockets don't count.
 *
 *   npm run bench:realtime -- --json [--clients 50] [--searches 10] [--idle 500] [--files 400]
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { parseBenchArgs, percentile, report, round } from './lib/bench-args';
import { generateCorpus } from './lib/corpus';

const QUERIES = ['user session token', 'parse request payload', 'retry queue worker', 'render config', 'vector search index', 'cache handler route', 'stream buffer batch', 'auth event socket'];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function connect(url: string): Promise<Socket> {
  const s = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

async function main() {
  const args = parseBenchArgs();
  const clients = Number(args.clients ?? 50);
  const searches = Number(args.searches ?? 10);
  const idle = Number(args.idle ?? 500);
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-bench-rt-')));
  const corpus = path.join(work, 'corpus');
  generateCorpus(corpus, Number(args.files ?? 400));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.resolve(__dirname, '../apps/api/bin/sextant.js'), 'serve'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), SEXTANT_DATA_DIR: path.join(work, 'data'), SEXTANT_REPO: corpus, SEXTANT_ALLOWED_ROOTS: work, LOG_LEVEL: 'warn', SEXTANT_RATE_LIMIT: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    // Wait for the first-start index of the corpus to finish.
    const deadline = Date.now() + 300_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error('server did not finish indexing');
      try {
        const jobs = (await (await fetch(`${url}/v1/jobs`)).json()) as { jobs: Array<{ status: string }> };
        if (jobs.jobs.length && jobs.jobs.every((j) => j.status === 'succeeded')) break;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 500));
    }

    // 50 clients, each running `searches` searches back to back.
    const sockets = await Promise.all(Array.from({ length: clients }, () => connect(url)));
    const firstPartial: number[] = [];
    const done: number[] = [];
    const afterFastest: number[] = [];
    await Promise.all(
      sockets.map(async (s, ci) => {
        for (let i = 0; i < searches; i++) {
          const requestId = `c${ci}-${i}`;
          const query = QUERIES[(ci + i) % QUERIES.length];
          await new Promise<void>((resolve, reject) => {
            const started = performance.now();
            let first = 0;
            let firstServer = 0;
            const onPartial = (p: { request_id: string; elapsed_ms: number }) => {
              if (p.request_id === requestId && !first) {
                first = performance.now() - started;
                firstServer = p.elapsed_ms;
              }
            };
            const onDone = (d: { request_id: string; timings_ms: Record<string, number> }) => {
              if (d.request_id !== requestId) return;
              s.off('search:partial', onPartial);
              s.off('search:done', onDone);
              const total = performance.now() - started;
              firstPartial.push(first);
              done.push(total);
              const sourceTimes = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword'].map((k) => d.timings_ms[k]).filter((v) => typeof v === 'number');
              // Server-side: when the first partial left, minus when the fastest source finished.
              if (sourceTimes.length) afterFastest.push(Math.max(0, firstServer - Math.min(...sourceTimes)));
              resolve();
            };
            s.on('search:partial', onPartial);
            s.on('search:done', onDone);
            s.once('search:error', (e) => reject(new Error(JSON.stringify(e))));
            s.emit('search:start', { request_id: requestId, query, options: { top_k: 10 } });
          });
        }
      }),
    );
    for (const s of sockets) s.disconnect();
    await new Promise((r) => setTimeout(r, 1000));

    // Idle sockets: RSS before and after.
    if (typeof global.gc === 'function') global.gc();
    const before = rssMb(server.pid!);
    const idleSockets: Socket[] = [];
    for (let i = 0; i < idle; i += 50) idleSockets.push(...(await Promise.all(Array.from({ length: Math.min(50, idle - i) }, () => connect(url)))));
    await new Promise((r) => setTimeout(r, 2000));
    const after = rssMb(server.pid!);
    for (const s of idleSockets) s.disconnect();

    const result = {
      bench: 'realtime',
      clients,
      searches_per_client: searches,
      corpus_files: Number(args.files ?? 400),
      first_partial_ms: { p50: round(percentile(firstPartial, 50)), p95: round(percentile(firstPartial, 95)) },
      done_ms: { p50: round(percentile(done, 50)), p95: round(percentile(done, 95)) },
      first_partial_after_fastest_source_ms: { p50: round(percentile(afterFastest, 50)), p95: round(percentile(afterFastest, 95)) },
      idle_sockets: idle,
      server_rss_mb: { before_idle: round(before), with_idle: round(after), extra: round(after - before) },
      load_average_1m: round(os.loadavg()[0], 2),
      targets: { first_partial_after_fastest_p50_ms: 15, idle_500_extra_rss_mb: 150 },
    };
    report(args, result, [
      `${clients} clients x ${searches} searches: first partial p50 ${result.first_partial_ms.p50} ms (p95 ${result.first_partial_ms.p95}), done p50 ${result.done_ms.p50} ms (p95 ${result.done_ms.p95})`,
      `first partial after the fastest source: p50 ${result.first_partial_after_fastest_source_ms.p50} ms; ${idle} idle sockets: +${result.server_rss_mb.extra} MB RSS`,
    ]);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
