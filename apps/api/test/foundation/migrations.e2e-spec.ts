import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config.schema';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { createFreshPostgresDatabase, postgresBaseUrl } from '../helpers/test-database';

type Schema = Record<string, Record<string, { nullable: boolean }>>;

/** Tables -> columns -> nullability, read from the live database (not from entities). */
async function readSchema(ds: DataSource): Promise<Schema> {
  const schema: Schema = {};
  if (ds.options.type === 'postgres') {
    const rows: Array<{ table_name: string; column_name: string; is_nullable: string }> = await ds.query(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'migrations'`,
    );
    for (const r of rows) (schema[r.table_name] ??= {})[r.column_name] = { nullable: r.is_nullable === 'YES' };
  } else {
    const tables: Array<{ name: string }> = await ds.query(`SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations'`);
    for (const t of tables) {
      const cols: Array<{ name: string; notnull: number; pk: number }> = await ds.query(`PRAGMA table_info("${t.name}")`);
      schema[t.name] = Object.fromEntries(cols.map((c) => [c.name, { nullable: c.notnull === 0 && c.pk === 0 }]));
    }
  }
  return schema;
}

async function upDownUp(ds: DataSource): Promise<{ first: Schema; afterDown: Schema; second: Schema }> {
  await ds.runMigrations({ transaction: 'each' });
  const first = await readSchema(ds);
  for (let i = 0; i < ds.migrations.length; i++) await ds.undoLastMigration({ transaction: 'each' });
  const afterDown = await readSchema(ds);
  await ds.runMigrations({ transaction: 'each' });
  const second = await readSchema(ds);
  return { first, afterDown, second };
}

describe('migrations', () => {
  let sqliteSchema: Schema;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-mig-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('SQLite: up, down, up leaves the same tables and columns', async () => {
    const ds = new DataSource({ ...dataSourceOptions(loadConfig({ SEXTANT_DATA_DIR: dataDir })), migrationsRun: false });
    await ds.initialize();
    try {
      const { first, afterDown, second } = await upDownUp(ds);
      expect(Object.keys(first)).toEqual(expect.arrayContaining(['files', 'index_jobs', 'repositories', 'workspaces', 'tasks', 'symbols', 'search_logs', 'search_pool', 'fusion_weights']));
      expect(afterDown).toEqual({});
      expect(second).toEqual(first);
      for (const [table, cols] of Object.entries(first)) {
        if (table !== 'workspaces') expect(cols.workspace_id).toEqual({ nullable: false });
      }
      sqliteSchema = first;
      const journal = await ds.query('PRAGMA journal_mode');
      expect(journal[0].journal_mode).toBe('wal');
    } finally {
      await ds.destroy();
    }
  });

  const pg = postgresBaseUrl ? it : it.skip;
  if (!postgresBaseUrl) console.warn('[skip] Postgres migration test: DATABASE_URL is not set (CI sets it in its second pass)');

  pg('Postgres: up, down, up leaves the same schema as SQLite', async () => {
    const db = await createFreshPostgresDatabase(postgresBaseUrl!);
    const ds = new DataSource({ ...dataSourceOptions(loadConfig({ DATABASE_URL: db.url })), migrationsRun: false });
    await ds.initialize();
    try {
      const { first, afterDown, second } = await upDownUp(ds);
      expect(afterDown).toEqual({});
      expect(second).toEqual(first);
      expect(first).toEqual(sqliteSchema);
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });
});
