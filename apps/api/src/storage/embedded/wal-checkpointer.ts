import { statSync } from 'node:fs';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface WalCheckpointerOptions {
  /** How often the log's size and time are looked at (a `stat`, nothing else). */
  intervalMs?: number;
  /**
   * A log smaller than this is left alone until it grows (default 16 MB). The database's connections
   * should set `journal_size_limit = 0`, so that the log is truncated when a writer starts it over
   * and its size tells how much has been written since the last complete checkpoint.
   */
  minBytes?: number;
  onError?: (err: Error) => void;
}

export interface CheckpointStats {
  /** Checkpoints the worker ran. */
  runs: number;
  /** How many of the log's frames were in the database file after the last checkpoint. */
  lastCheckpointed: number;
  /** Checkpoints that failed (the commit path's auto-checkpoint still bounds the log). */
  failures: number;
}

/**
 * Runs on the worker thread, with its own connection to the database. `PASSIVE` copies what
 * it can without waiting for the main connection's readers or writer.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db = null;
parentPort.on('message', (message) => {
  if (message === 'close') {
    if (db) db.close();
    parentPort.close();
    return;
  }
  try {
    if (!db) {
      db = new Database(workerData.file, { fileMustExist: true });
      db.pragma('busy_timeout = 0');
    }
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ frames: result.checkpointed, busy: result.busy || (result.checkpointed < result.log ? 1 : 0) });
  } catch (err) {
    // Another process checkpointing the same file: nothing wrong, try again at the next look.
    if (err && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED')) parentPort.postMessage({ frames: 0, busy: 1 });
    else parentPort.postMessage({ error: (err && err.message) || String(err) });
  }
});
`;

/**
 * Copies a WAL database's log back into the database file on a worker thread.
 *
 * SQLite checkpoints inside the commit that makes the log long enough, on the committing
 * thread: every ~1,000 pages one commit of the chunk store also wrote (and fsynced) 16 MB back
 * into the database, ~50 ms in the middle of a single-file update (and ~0.5 s of the main
 * thread's CPU over a 10k-file full index). Here a worker with its own connection runs a `PASSIVE`
 * checkpoint whenever the log has grown past `minBytes` and changed since its last run; the main
 * connection keeps a (much higher) auto-checkpoint as the bound should the worker fall behind or
 * fail. The worker starts on the first checkpoint, so small stores (tests, CLI one-offs) never
 * start a thread. A checkpoint changes no data (`PRAGMA data_version` of other connections stays).
 */
export class WalCheckpointer {
  private readonly timer: NodeJS.Timeout;
  private worker: Worker | null = null;
  private running = false;
  private closed = false;
  /** The log's modification time when the last checkpoint started. */
  private checkpointedMtimeMs = 0;
  private readonly counts: CheckpointStats = { runs: 0, lastCheckpointed: 0, failures: 0 };
  private readonly waiters: Array<() => void> = [];

  constructor(
    private readonly file: string,
    private readonly options: WalCheckpointerOptions = {},
  ) {
    this.timer = setInterval(() => this.maybeCheckpoint(), options.intervalMs ?? 250);
    this.timer.unref();
  }

  get stats(): Readonly<CheckpointStats> {
    return { ...this.counts };
  }

  /** Starts a checkpoint now if the log has grown and changed since the last one; resolves when it (or the one running) is done. */
  async checkpointNow(): Promise<void> {
    this.maybeCheckpoint();
    if (this.running) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private maybeCheckpoint(): void {
    if (this.running || this.closed) return;
    let log: { size: number; mtimeMs: number };
    try {
      log = statSync(`${this.file}-wal`);
    } catch {
      return; // no log (yet, or the last connection removed it)
    }
    if (log.size < (this.options.minBytes ?? 16 * 1024 * 1024) || log.mtimeMs === this.checkpointedMtimeMs) return;
    this.checkpointedMtimeMs = log.mtimeMs;
    this.running = true;
    this.ensureWorker().postMessage('checkpoint');
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, module: require.resolve('better-sqlite3') } });
    worker.unref();
    worker.on('message', (message: { frames?: number; busy?: number; error?: string }) => {
      this.running = false;
      this.counts.runs++;
      // Not everything could be copied (a reader still needs old frames, or another process was
      // checkpointing): look again at the next tick even if nothing new is written.
      if (message.busy) this.checkpointedMtimeMs = 0;
      if (message.error) {
        this.counts.failures++;
        this.options.onError?.(new Error(`WAL checkpoint of ${this.file} failed: ${message.error}`));
      } else this.counts.lastCheckpointed = message.frames ?? 0;
      for (const wake of this.waiters.splice(0)) wake();
    });
    worker.on('error', (err: unknown) => {
      this.counts.failures++;
      this.options.onError?.(new Error(`WAL checkpoint worker of ${this.file} stopped: ${err instanceof Error ? err.message : JSON.stringify(err)}`));
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      this.running = false;
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.worker = worker;
    return worker;
  }

  /** Stops the timer and closes the worker's connection (before the main one closes, so that one can remove the log). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const worker = this.worker;
    if (!worker) return;
    const exited = once(worker, 'exit');
    worker.postMessage('close');
    await exited;
  }
}
