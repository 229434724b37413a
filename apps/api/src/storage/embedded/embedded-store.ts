import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { EmbeddedChunkIndex } from './embedded-chunk-index';
import { EmbeddedTaskIndex } from './embedded-task-index';
import { WalCheckpointer, type WalCheckpointerOptions } from './wal-checkpointer';

export interface EmbeddedStoreOptions {
  /** SQLite file, e.g. `<SEXTANT_DATA_DIR>/vectors.sqlite` (a sibling of the relational database). */
  file: string;
  /** Expected dimensions; a mismatch with stored data throws at open. Omit to take it from the first upsert. */
  chunkDims?: number;
  taskDims?: number;
  /** ms to wait for a lock held by another connection (default 5000). */
  busyTimeoutMs?: number;
  /**
   * Checkpoint the write-ahead log on a worker thread instead of inside commits (see `WalCheckpointer`;
   * its failures are not fatal: commits still checkpoint past 256 MB of log). `false`: SQLite's default.
   */
  checkpoints?: false | WalCheckpointerOptions;
}

/**
 * Opens (or creates) the embedded vector + keyword store: one SQLite file in WAL mode holding the
 * `chunks` and `tasks` collections. Everything written is durable when the promise resolves and
 * is reloaded into memory on the next open.
 *
 * @example
 * const store = openEmbeddedStore({ file: path.join(dataDir, 'vectors.sqlite') });
 * await store.chunks.upsert(points);
 * await store.close();
 */
export function openEmbeddedStore(options: EmbeddedStoreOptions): EmbeddedStore {
  if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
  const db = new Database(options.file);
  // Rows are ~4 KB (payload, float + int8 vector, keyword record): 16 KB pages hold several per
  // page and cut write time by about a third. Only takes effect when the file is new.
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  let checkpointer: WalCheckpointer | null = null;
  if (options.file !== ':memory:' && options.checkpoints !== false) {
    // The commit path only checkpoints if the worker falls far behind: 16,384 pages = 256 MB of log.
    db.pragma('wal_autocheckpoint = 16384');
    // The log is truncated when it starts over, so its size is what the worker has not copied yet.
    db.pragma('journal_size_limit = 0');
    checkpointer = new WalCheckpointer(options.file, options.checkpoints);
  }
  return new EmbeddedStore(db, options, checkpointer);
}

export class EmbeddedStore {
  readonly chunks: EmbeddedChunkIndex;
  readonly tasks: EmbeddedTaskIndex;

  constructor(
    private readonly db: Database.Database,
    options: Omit<EmbeddedStoreOptions, 'file'> = {},
    /** Null for in-memory stores and when background checkpoints are off. */
    readonly checkpointer: WalCheckpointer | null = null,
  ) {
    this.chunks = new EmbeddedChunkIndex(db, { dims: options.chunkDims });
    this.tasks = new EmbeddedTaskIndex(db, { dims: options.taskDims });
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    this.chunks.closeFiles();
    this.tasks.closeFiles();
    // The worker's connection goes first, so closing the last one checkpoints and removes the log.
    await this.checkpointer?.close();
    this.db.close();
  }
}
