import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { Logger } from 'nestjs-pino';
import { createApp, shutdownGracefully } from '../../bootstrap';
import { AuthService } from '../../modules/auth/auth.service';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';
import { RankerTrainingService } from '../../modules/fusion/ranker-training.service';
import { startBackgroundIndexing } from '../../modules/indexing/indexing.startup';
import { acquireDataDir, DataDirBusyError, type DataDirLease } from '../../storage/data-dir-writer';

/** Where a client on this machine reaches a server bound to `host` (a wildcard bind is reached on loopback). */
function connectHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Old-generation growth after each full GC, in percent of the live heap (V8 picks 2–4× on its
 * own). A search promotes ~0.6 MB of short-lived hit payloads to the old generation, so with
 * V8's default the heap of a busy server grew to 2–3× its ~90 MB of live objects between
 * collections (bench:scale at 100k chunks: RSS 490–540 MB after 200 searches; with 25 %:
 * ~400 MB). The price is more full collections: server CPU +5–15 % and a worse search p95 on a
 * loaded machine. Node's own `--heap-growing-percent` on the command line wins.
 */
const HEAP_GROWING_PERCENT = 25;

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Start the HTTP API, web dashboard, websocket and MCP endpoints')
    .option('-p, --port <port>', 'port to listen on (env PORT, default 3000)')
    .option('-H, --host <host>', 'address to bind (env HOST, default 127.0.0.1)')
    .option('-d, --data-dir <dir>', 'data directory (env SEXTANT_DATA_DIR, default ./data)')
    .option('--no-auto-index', 'do not index SEXTANT_REPO (or the current directory) when no repository is registered yet')
    .action(async (opts: { port?: string; host?: string; dataDir?: string; autoIndex?: boolean }) => {
      if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
      const config = loadConfigOrExit({ PORT: opts.port, HOST: opts.host, SEXTANT_DATA_DIR: opts.dataDir });
      // The server is the data dir's one writer for as long as it runs; CLI commands go through it.
      let lease: DataDirLease;
      try {
        lease = acquireDataDir(config.storage.dataDir, { role: 'server', command: 'sextant serve' });
      } catch (err) {
        if (err instanceof DataDirBusyError) fail(err.message, ExitCode.Busy);
        throw err;
      }
      const app = await createApp(config);
      app.get(AuthService).setOperatorToken(lease.info.token);
      const logger = app.get(Logger);
      await app.init();
      try {
        await app.get(AuthService).assertReadyToServe();
      } catch (err) {
        await app.close();
        fail((err as Error).message, ExitCode.BadConfig);
      }
      await app.listen(config.http.port, config.http.host);
      const address = app.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : config.http.port;
      logger.log(`Sextant listening on http://${config.http.host}:${port} (docs at /docs)`, 'Sextant');
      lease.update({ url: `http://${connectHost(config.http.host)}:${port}` });
      if (opts.autoIndex !== false) await startBackgroundIndexing(app, config);
      const refits = await app.get(RankerTrainingService).refitStaleCalibrations();
      if (refits) logger.log(`Refitting the learned ranker of ${refits} workspace(s): their scores were calibrated by an older method`, 'Sextant');

      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.log(`${signal} received: finishing in-flight requests`, 'Sextant');
        const clean = await shutdownGracefully(app, config.http.shutdownTimeoutMs);
        lease.release();
        if (!clean) process.stderr.write(`sextant: shutdown timed out after ${config.http.shutdownTimeoutMs} ms\n`);
        process.exit(clean ? 0 : 1);
      };
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
    });
}
