import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/**
 * Evaluation reports published to a workspace by `sextant eval run --publish`: the scores per
 * strategy (JSON) and the bar chart, for the dashboard's Insights page.
 */
export class EvalReports1764200000000 implements MigrationInterface {
  name = 'EvalReports1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'eval_reports',
        columns: [c.id(), c.ref('workspace_id'), c.varchar('title', 300), c.text('summary'), c.text('chart_svg'), c.varchar('published_by', 64), c.timestamp('created_at')],
        foreignKeys: [{ name: 'fk_eval_reports_workspace', columnNames: ['workspace_id'], referencedTableName: 'workspaces', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [{ name: 'ix_eval_reports_workspace_created', columnNames: ['workspace_id', 'created_at'] }],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('eval_reports');
  }
}
