import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/**
 * API keys. Only the SHA-256 of a key is stored; `prefix` (the 8 hex characters after
 * `sxt_`) is unique so authentication finds the one candidate row by index.
 */
export class ApiKeys1763900000000 implements MigrationInterface {
  name = 'ApiKeys1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.varchar('name', 200),
          c.varchar('role', 16),
          c.varchar('prefix', 16),
          c.varchar('hash', 64),
          c.timestamp('created_at'),
          c.timestamp('last_used_at', true),
          c.timestamp('revoked_at', true),
        ],
        uniques: [{ name: 'uq_api_keys_prefix', columnNames: ['prefix'] }],
        foreignKeys: [{ name: 'fk_api_keys_workspace', columnNames: ['workspace_id'], referencedTableName: 'workspaces', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [{ name: 'ix_api_keys_workspace', columnNames: ['workspace_id', 'created_at'] }],
        checks: [{ name: 'ck_api_keys_role', expression: `role IN ('admin', 'member', 'reader')` }],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_keys', true, true, true);
  }
}
