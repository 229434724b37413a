import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/**
 * Task history, the symbol table (for `file.symbol`), the search log with its pool of
 * per-source ranks (seed 004's pool writer; feedback credits sources from it), and
 * versioned fusion weights per workspace and query class.
 */
export class TasksSearchPool1763850000000 implements MigrationInterface {
  name = 'TasksSearchPool1763850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);
    const cascadeTo = (table: string, column: string, name: string) => ({ name, columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

    await queryRunner.createTable(
      new Table({
        name: 'tasks',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.ref('repository_id', true),
          c.varchar('external_id', 200),
          c.varchar('source', 32, false, 'manual'),
          c.text('title'),
          c.text('body'),
          c.json('files', '[]'),
          c.varchar('status', 32, true),
          c.text('outcome', true),
          c.timestamp('task_created_at', true),
          c.timestamp('created_at'),
          c.timestamp('updated_at'),
        ],
        uniques: [{ name: 'uq_tasks_workspace_source_external', columnNames: ['workspace_id', 'source', 'external_id'] }],
        foreignKeys: [cascadeTo('workspaces', 'workspace_id', 'fk_tasks_workspace')],
        indices: [{ name: 'ix_tasks_workspace_created', columnNames: ['workspace_id', 'task_created_at'] }],
      }),
      true,
    );

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
        foreignKeys: [cascadeTo('repositories', 'repository_id', 'fk_symbols_repository')],
        indices: [
          { name: 'ix_symbols_workspace_name', columnNames: ['workspace_id', 'name_lower'] },
          { name: 'ix_symbols_repository_path', columnNames: ['repository_id', 'path'] },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'search_logs',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.varchar('principal', 64),
          c.text('query'),
          c.varchar('query_class', 16),
          c.varchar('strategy', 16),
          c.varchar('granularity', 8),
          c.json('weights', '{}'),
          c.int('weights_version'),
          c.int('result_count'),
          c.int('latency_ms'),
          c.timestamp('created_at'),
        ],
        foreignKeys: [cascadeTo('workspaces', 'workspace_id', 'fk_search_logs_workspace')],
        indices: [{ name: 'ix_search_logs_workspace_created', columnNames: ['workspace_id', 'created_at'] }],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'search_pool',
        columns: [c.id(), c.ref('search_id'), c.ref('workspace_id'), c.varchar('source', 32), c.int('rank'), c.text('item_id'), { name: 'score', type: 'double precision', isNullable: false }],
        foreignKeys: [cascadeTo('search_logs', 'search_id', 'fk_search_pool_search')],
        indices: [{ name: 'ix_search_pool_search', columnNames: ['search_id'] }],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'fusion_weights',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.varchar('query_class', 16),
          c.int('version'),
          c.json('weights', '{}'),
          c.varchar('origin', 16, false, 'default'),
          c.bool('pinned', false),
          c.varchar('principal', 64, true),
          c.timestamp('created_at'),
        ],
        uniques: [{ name: 'uq_fusion_weights_version', columnNames: ['workspace_id', 'query_class', 'version'] }],
        foreignKeys: [cascadeTo('workspaces', 'workspace_id', 'fk_fusion_weights_workspace')],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('fusion_weights', true, true, true);
    await queryRunner.dropTable('search_pool', true, true, true);
    await queryRunner.dropTable('search_logs', true, true, true);
    await queryRunner.dropTable('symbols', true, true, true);
    await queryRunner.dropTable('tasks', true, true, true);
  }
}
