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


/**
 * Symbols of a file indexed before the code graph existed (a `symbols` row, no `graph_symbols`
 * rows for its path) move to `graph_symbols`; a file the graph already holds keeps only its own.
 */
async function symbolsMoveToGraph(ds: DataSource): Promise<void> {
  await ds.runMigrations({ transaction: 'each' });
  // Back to just before the move (and every later migration).
  const move = ds.migrations.findIndex((m) => m.name === 'SymbolsFromGraph1765000000000');
  for (let i = move; i < ds.migrations.length; i++) await ds.undoLastMigration({ transaction: 'each' });
  const p = ds.options.type === 'postgres' ? (i: number) => `$${i}` : () => '?';
  const ws = '00000000-0000-4000-8000-000000000001';
  const repo = '00000000-0000-4000-8000-000000000002';
  await ds.query(`INSERT INTO workspaces (id, slug, name) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, [ws, 'mig', 'mig']);
  await ds.query(`INSERT INTO repositories (id, workspace_id, name, root_path) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, [repo, ws, 'r', '/r']);
  const symbol = (id: string, file: string, name: string) =>
    ds.query(`INSERT INTO symbols (id, workspace_id, repository_id, path, name, name_lower, qualified, kind, start_line, end_line) VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(p).join(', ')})`, [id, ws, repo, file, name, name.toLowerCase(), `${file}:${name}`, 'function', 3, 9]);
  await symbol('00000000-0000-4000-8000-0000000000a1', 'old.py', 'parseLegacy');
  await symbol('00000000-0000-4000-8000-0000000000a2', 'new.py', 'parseNew');
  await ds.query(
    `INSERT INTO graph_symbols (id, workspace_id, repository_id, path, symbol_key, qualified, name, name_lower, kind, start_line, end_line, start_byte, end_byte) VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map(p).join(', ')})`,
    ['00000000-0000-4000-8000-0000000000b1', ws, repo, 'new.py', 'parseNew', 'new.py:parseNew', 'parseNew', 'parsenew', 'function', 3, 9, 10, 90],
  );
  await ds.runMigrations({ transaction: 'each' });
  const rows: Array<{ path: string; name_lower: string; symbol_key: string; start_line: number }> = await ds.query(`SELECT path, name_lower, symbol_key, start_line FROM graph_symbols ORDER BY path`);
  expect(rows).toEqual([
    { path: 'new.py', name_lower: 'parsenew', symbol_key: 'parseNew', start_line: 3 },
    { path: 'old.py', name_lower: 'parselegacy', symbol_key: 'legacy:00000000-0000-4000-8000-0000000000a1', start_line: 3 },
  ]);
  const tables: unknown[] = await ds.query(ds.options.type === 'postgres' ? `SELECT 1 FROM information_schema.tables WHERE table_name = 'symbols'` : `SELECT 1 FROM sqlite_master WHERE name = 'symbols'`);
  expect(tables).toEqual([]);
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
      expect(Object.keys(first)).toEqual(expect.arrayContaining(['files', 'index_jobs', 'repositories', 'workspaces', 'tasks', 'graph_symbols', 'search_logs', 'search_pool', 'fusion_weights']));
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

  it('SQLite: symbols of files the code graph does not hold yet move to graph_symbols', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-mig-sym-'));
    const ds = new DataSource({ ...dataSourceOptions(loadConfig({ SEXTANT_DATA_DIR: dir })), migrationsRun: false });
    await ds.initialize();
    try {
      await symbolsMoveToGraph(ds);
    } finally {
      await ds.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
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

  pg('Postgres: symbols of files the code graph does not hold yet move to graph_symbols', async () => {
    const db = await createFreshPostgresDatabase(postgresBaseUrl!);
    const ds = new DataSource({ ...dataSourceOptions(loadConfig({ DATABASE_URL: db.url })), migrationsRun: false });
    await ds.initialize();
    try {
      await symbolsMoveToGraph(ds);
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });
});
