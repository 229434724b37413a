import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/**
 * Ratings (one per principal, search and item; re-rating replaces it) and the learning
 * ledger (one row per rating action: what it asked the weights to learn, what the
 * per-principal cap let through, and the weights version it produced).
 */
export class Feedback1764000000000 implements MigrationInterface {
  name = 'Feedback1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);
    const double = (name: string) => ({ name, type: 'double precision', isNullable: false, default: 0 });
    const cascadeTo = (table: string, column: string, name: string) => ({ name, columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

    await queryRunner.createTable(
      new Table({
        name: 'feedback_ratings',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.ref('search_id'),
          c.text('item_id'),
          c.varchar('principal', 64),
          c.varchar('query_class', 16),
          double('rating'),
          { name: 'stars', type: 'integer', isNullable: true },
          double('applied'),
          c.timestamp('created_at'),
          c.timestamp('updated_at'),
        ],
        uniques: [{ name: 'uq_feedback_ratings_principal_item', columnNames: ['workspace_id', 'principal', 'search_id', 'item_id'] }],
        foreignKeys: [cascadeTo('search_logs', 'search_id', 'fk_feedback_ratings_search'), cascadeTo('workspaces', 'workspace_id', 'fk_feedback_ratings_workspace')],
        indices: [
          { name: 'ix_feedback_ratings_search', columnNames: ['search_id'] },
          { name: 'ix_feedback_ratings_workspace_updated', columnNames: ['workspace_id', 'updated_at'] },
        ],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'feedback_updates',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.ref('search_id'),
          c.text('item_id'),
          c.varchar('principal', 64),
          c.varchar('query_class', 16),
          double('rating'),
          double('requested'),
          double('applied'),
          c.varchar('outcome', 16),
          c.int('weights_version'),
          c.timestamp('created_at'),
        ],
        foreignKeys: [cascadeTo('workspaces', 'workspace_id', 'fk_feedback_updates_workspace')],
        indices: [{ name: 'ix_feedback_updates_principal_created', columnNames: ['workspace_id', 'principal', 'created_at'] }],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('feedback_updates', true, true, true);
    await queryRunner.dropTable('feedback_ratings', true, true, true);
  }
}
