import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/** Learned-ranker models fitted per workspace from its task history (one row per version). */
export class RankerModels1764600000000 implements MigrationInterface {
  name = 'RankerModels1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'ranker_models',
        columns: [c.id(), c.ref('workspace_id'), c.int('version'), c.bool('active'), c.text('model'), c.text('report'), c.timestamp('created_at')],
        foreignKeys: [{ name: 'fk_ranker_models_workspace', columnNames: ['workspace_id'], referencedTableName: 'workspaces', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [{ name: 'ux_ranker_models_workspace_version', columnNames: ['workspace_id', 'version'], isUnique: true }],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('ranker_models');
  }
}
