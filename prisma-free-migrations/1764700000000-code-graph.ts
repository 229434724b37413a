import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/**
 * The code graph: definitions with stable ids, resolved call/reference/import edges between
 * them, the repository files each import loads, and each file's unresolved facts (so a change
 * re-resolves its neighbourhood without re-parsing the rest; `dirty` files still need it). Indexed for ~1M edges: edges are
 * read by target symbol (callers, references), by source symbol (callees), and by file in both
 * directions (incremental replacement, graph expansion).
 */
export class CodeGraph1764700000000 implements MigrationInterface {
  name = 'CodeGraph1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);
    const cascadeTo = (name: string) => ({ name, columnNames: ['repository_id'], referencedTableName: 'repositories', referencedColumnNames: ['id'], onDelete: 'CASCADE' });
    await queryRunner.createTable(
      new Table({
        name: 'graph_files',
        columns: [c.id(), c.ref('workspace_id'), c.ref('repository_id'), c.text('path'), c.varchar('lang', 16), c.text('facts'), c.bool('dirty', true)],
        foreignKeys: [cascadeTo('fk_graph_files_repository')],
        indices: [
          { name: 'ux_graph_files_repository_path', columnNames: ['repository_id', 'path'], isUnique: true },
          { name: 'ix_graph_files_repository_dirty', columnNames: ['repository_id', 'dirty'] },
        ],
      }),
      true,
    );
    await queryRunner.createTable(
      new Table({
        name: 'graph_symbols',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.ref('repository_id'),
          c.text('path'),
          c.text('symbol_key'),
          c.text('qualified'),
          c.varchar('name', 300),
          c.varchar('name_lower', 300),
          c.varchar('kind', 16),
          c.int('start_line'),
          c.int('end_line'),
          c.int('start_byte'),
          c.int('end_byte'),
        ],
        foreignKeys: [cascadeTo('fk_graph_symbols_repository')],
        indices: [
          { name: 'ix_graph_symbols_workspace_name', columnNames: ['workspace_id', 'name_lower'] },
          { name: 'ix_graph_symbols_repository_path', columnNames: ['repository_id', 'path'] },
        ],
      }),
      true,
    );
    await queryRunner.createTable(
      new Table({
        name: 'graph_edges',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.ref('repository_id'),
          c.text('from_path'),
          c.ref('from_symbol_id', true),
          c.text('to_path'),
          c.ref('to_symbol_id'),
          c.varchar('kind', 16),
          { name: 'confidence', type: 'real', isNullable: false, default: 1 },
          c.int('line'),
          c.int('col'),
        ],
        foreignKeys: [cascadeTo('fk_graph_edges_repository')],
        indices: [
          { name: 'ix_graph_edges_to_symbol', columnNames: ['to_symbol_id', 'kind'] },
          { name: 'ix_graph_edges_from_symbol', columnNames: ['from_symbol_id'] },
          { name: 'ix_graph_edges_from_path', columnNames: ['repository_id', 'from_path'] },
          { name: 'ix_graph_edges_to_path', columnNames: ['repository_id', 'to_path'] },
        ],
      }),
      true,
    );
    await queryRunner.createTable(
      new Table({
        name: 'graph_file_imports',
        columns: [c.id(), c.ref('workspace_id'), c.ref('repository_id'), c.text('from_path'), { name: 'to_path', type: 'text', isNullable: true }, c.text('source'), c.int('line')],
        foreignKeys: [cascadeTo('fk_graph_file_imports_repository')],
        indices: [
          { name: 'ix_graph_file_imports_from', columnNames: ['repository_id', 'from_path'] },
          { name: 'ix_graph_file_imports_to', columnNames: ['repository_id', 'to_path'] },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['graph_file_imports', 'graph_edges', 'graph_symbols', 'graph_files']) await queryRunner.dropTable(table, true, true, true);
  }
}
