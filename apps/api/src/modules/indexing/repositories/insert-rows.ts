import type { Database, Statement } from 'better-sqlite3';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Bound parameters per Postgres statement (its limit is 65,535). */
const MAX_PARAMS = 8000;

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
