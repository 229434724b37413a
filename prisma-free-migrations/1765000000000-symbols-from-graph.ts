import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/**
 * `file.symbol` reads definitions from `graph_symbols`; the `symbols` table held the same rows
 * (the code graph writes every parsed file's definitions) and cost an index job a second insert
 * into two more indexes per definition. Definitions of files indexed before the code graph existed
 * (no `graph_symbols` rows for their path) are carried over with a `legacy:` key and no byte range,
 * so symbol search finds them until the file is indexed again.
 */
export class SymbolsFromGraph1765000000000 implements MigrationInterface {
  name = 'SymbolsFromGraph1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      INSERT INTO graph_symbols (id, workspace_id, repository_id, path, symbol_key, qualified, name, name_lower, kind, start_line, end_line, start_byte, end_byte)
      SELECT s.id, s.workspace_id, s.repository_id, s.path, 'legacy:' || s.id, s.qualified, s.name, s.name_lower, s.kind, s.start_line, s.end_line, 0, 0
      FROM symbols s
      WHERE NOT EXISTS (SELECT 1 FROM graph_symbols g WHERE g.repository_id = s.repository_id AND g.path = s.path)`);
    await queryRunner.dropTable('symbols', true, true, true);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'symbols',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.ref('repository_id'),
          c.text('path'),
          c.varchar('name', 300),
          c.varchar('name_lower', 300),
          c.text('qualified'),
          c.varchar('kind', 16),
          c.int('start_line'),
          c.int('end_line'),
        ],
        foreignKeys: [{ name: 'fk_symbols_repository', columnNames: ['repository_id'], referencedTableName: 'repositories', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [
          { name: 'ix_symbols_workspace_name', columnNames: ['workspace_id', 'name_lower'] },
          { name: 'ix_symbols_repository_path', columnNames: ['repository_id', 'path'] },
        ],
      }),
      true,
    );
    await queryRunner.query(`
      INSERT INTO symbols (id, workspace_id, repository_id, path, name, name_lower, qualified, kind, start_line, end_line)
      SELECT id, workspace_id, repository_id, path, name, name_lower, qualified, kind, start_line, end_line FROM graph_symbols`);
    await queryRunner.query(`DELETE FROM graph_symbols WHERE symbol_key LIKE 'legacy:%'`);
  }
}
