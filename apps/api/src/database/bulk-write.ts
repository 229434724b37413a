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
