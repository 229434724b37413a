import * as fs from 'node:fs';
import * as path from 'node:path';
import { migrations } from '@sextant/migrations';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config.schema';

export const SQLITE_FILE_NAME = 'sextant.sqlite';

/**
 * SQLite (WAL, busy timeout) in the data dir unless DATABASE_URL points at Postgres.
 * Migrations run on initialise; `synchronize` is never used.
 */
export function dataSourceOptions(config: AppConfig, entities: DataSourceOptions['entities'] = []): DataSourceOptions {
  const common = { entities, migrations, migrationsRun: true, migrationsTransactionMode: 'each' as const, synchronize: false, logging: false };
  if (config.storage.databaseUrl) {
    return { ...common, type: 'postgres', url: config.storage.databaseUrl, extra: { max: 10 } };
  }
  fs.mkdirSync(config.storage.dataDir, { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: path.join(config.storage.dataDir, SQLITE_FILE_NAME),
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      // 64 MB page cache (default 2 MB): the symbols and files indexes of a 10k-file repository outgrow
      // 2 MB, after which every batch insert re-reads index pages and commits slow down with table size.
      db.pragma('cache_size = -65536');
      // Checkpoint every ~32 MB of WAL instead of 4 MB: an index job dirties the same symbol-index pages
      // batch after batch, and each checkpoint copies (and fsyncs) them back; fewer checkpoints, fewer copies.
      db.pragma('wal_autocheckpoint = 8192');
    },
  };
}

/** Human description of where data lives, for logs and `sextant status`. */
export function describeDatabase(config: AppConfig): string {
  if (config.storage.databaseUrl) {
    const u = new URL(config.storage.databaseUrl);
    return `postgres ${u.hostname}:${u.port || 5432}${u.pathname}`;
  }
  return `sqlite ${path.join(config.storage.dataDir, SQLITE_FILE_NAME)}`;
}
