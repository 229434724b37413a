import type { Database, Statement } from 'better-sqlite3';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Bound parameters per statement: below SQLite's 32,766 and Postgres' 65,535 with room to spare. */
const MAX_PARAMS = 8000;

export interface BulkInsertOptions<E> {
  /** Unique columns (property names) of an `ON CONFLICT (…) DO UPDATE`; omit for a plain INSERT. */
  conflict?: (keyof E & string)[];
  /** Properties overwritten on conflict (default: every inserted property except `conflict` and the primary key). */
  update?: (keyof E & string)[];
}

/**
 * Multi-row `INSERT … [ON CONFLICT … DO UPDATE]` built from the entity's metadata, one
 * statement per slice of rows. TypeORM's `save()` issues a SELECT plus an UPDATE per entity
 * and its query builder re-scans the whole SQL per parameter, which made row bookkeeping the
 * largest cost of an index job; this writes a 64-file batch in one or two statements.
 * Values go through the driver's own conversion (dates, simple-json, transformers), so SQLite
 * and Postgres store exactly what `save()` would. Every row must set the same properties.
 */
export async function bulkInsert<E extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<E>, rows: Partial<E>[], options: BulkInsertOptions<E> = {}): Promise<void> {
  if (!rows.length) return;
  const metadata = manager.connection.getMetadata(entity);
  const driver = manager.connection.driver;
  const postgres = manager.connection.options.type === 'postgres';
  const properties = Object.keys(rows[0]);
  const columns = properties.map((p) => {
    const column = metadata.findColumnWithPropertyName(p);
    if (!column) throw new Error(`bulkInsert: ${metadata.tableName} has no property ${p}`);
    return column;
  });
  const quote = (name: string) => `"${name}"`;
  let conflictSql = '';
  if (options.conflict?.length) {
    const conflictNames = options.conflict.map((p) => metadata.findColumnWithPropertyName(p)!.databaseName);
    const updated = (options.update ?? properties.filter((p) => !options.conflict!.includes(p as keyof E & string) && !metadata.findColumnWithPropertyName(p)!.isPrimary)).map(
      (p) => metadata.findColumnWithPropertyName(p)!.databaseName,
    );
    conflictSql = ` ON CONFLICT (${conflictNames.map(quote).join(', ')}) DO ${updated.length ? `UPDATE SET ${updated.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}` : 'NOTHING'}`;
  }
  const head = `INSERT INTO ${quote(metadata.tableName)} (${columns.map((c) => quote(c.databaseName)).join(', ')}) VALUES `;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const slice = rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples = slice.map((row) => {
      const marks = columns.map((column, i) => {
        params.push(driver.preparePersistentValue(row[properties[i]], column));
        return postgres ? `$${params.length}` : '?';
      });
      return `(${marks.join(', ')})`;
    });
    await manager.query(head + tuples.join(', ') + conflictSql, params);
  }
}

/** Column types stored exactly as the JS string or number. */
const PLAIN_TYPES = new Set<unknown>(['varchar', 'text', 'integer', 'real']);

/** Single-row INSERTs compiled once per SQLite handle. */
const statements = new WeakMap<Database, Map<string, Statement>>();

/**
 * Plain INSERT of rows given as values in `properties` order, converted by the driver as
 * TypeORM would store them. Call it inside a transaction. On SQLite every row runs one cached
 * single-row prepared statement on the driver's better-sqlite3 handle (the one the transaction
 * is open on): an index job's symbol rows went through multi-row statements of up to 8,000
 * parameters whose text, compilation and binding (one JS call per value) cost more than the
 * inserts. Postgres gets multi-row parameterised statements.
 */
export async function insertRows<E extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<E>, properties: readonly (keyof E & string)[], rows: readonly unknown[][]): Promise<void> {
  if (!rows.length) return;
  const metadata = manager.connection.getMetadata(entity);
  const driver = manager.connection.driver;
  const columns = properties.map((p) => {
    const column = metadata.findColumnWithPropertyName(p);
    if (!column) throw new Error(`insertRows: ${metadata.tableName} has no property ${p}`);
    return column;
  });
  // Only columns whose stored form differs from the JS value (booleans, dates, JSON, transformers) go through the driver.
  const converted = columns.map((c, i) => (c.transformer || !PLAIN_TYPES.has(c.type) ? i : -1)).filter((i) => i >= 0);
  const convert = (row: unknown[]): unknown[] => {
    if (!converted.length) return row;
    const out = row.slice();
    for (const i of converted) out[i] = driver.preparePersistentValue(row[i], columns[i]);
    return out;
  };
  const head = `INSERT INTO "${metadata.tableName}" (${columns.map((c) => `"${c.databaseName}"`).join(', ')}) VALUES `;
  if (manager.connection.options.type === 'better-sqlite3') {
    const handle = (driver as unknown as { databaseConnection: Database }).databaseConnection;
    let cache = statements.get(handle);
    if (!cache) statements.set(handle, (cache = new Map()));
    const sql = `${head}(${columns.map(() => '?').join(', ')})`;
    let insert = cache.get(sql);
    if (!insert) cache.set(sql, (insert = handle.prepare(sql)));
    for (const row of rows) insert.run(convert(row));
    return;
  }
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const params: unknown[] = [];
    const tuples = rows.slice(start, start + perStatement).map((row) => {
      const values = convert(row);
      return `(${values.map((v) => `$${params.push(v)}`).join(', ')})`;
    });
    await manager.query(head + tuples.join(', '), params);
  }
}
