import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/** External MCP servers queried as search sources, per workspace (transport settings as JSON). */
export class McpSources1764800000000 implements MigrationInterface {
  name = 'McpSources1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'mcp_sources',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.varchar('name', 40),
          c.varchar('transport_type', 8),
          c.text('transport'),
          c.bool('enabled', true),
          { name: 'priority', type: 'real', isNullable: false, default: 2 },
          c.int('result_limit', 5),
          c.int('timeout_ms', 15000),
          c.timestamp('created_at'),
          c.timestamp('updated_at'),
        ],
        foreignKeys: [{ name: 'fk_mcp_sources_workspace', columnNames: ['workspace_id'], referencedTableName: 'workspaces', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [{ name: 'ux_mcp_sources_workspace_name', columnNames: ['workspace_id', 'name'], isUnique: true }],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('mcp_sources');
  }
}
