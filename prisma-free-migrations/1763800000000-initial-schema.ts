import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnsFor } from './column-types';

/** workspaces, repositories, files, index_jobs. Every team-owned row carries workspace_id. */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnsFor(queryRunner);

    await queryRunner.createTable(
      new Table({
        name: 'workspaces',
        columns: [c.id(), c.varchar('slug', 64), c.varchar('name', 200), c.timestamp('created_at'), c.timestamp('updated_at')],
        uniques: [{ name: 'uq_workspaces_slug', columnNames: ['slug'] }],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'repositories',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.varchar('name', 200),
          c.text('root_path'),
          c.text('git_url', true),
          c.bool('watch', false),
          c.json('settings', '{}'),
          c.varchar('last_indexed_commit', 64, true),
          c.timestamp('last_indexed_at', true),
          c.timestamp('created_at'),
          c.timestamp('updated_at'),
        ],
        uniques: [{ name: 'uq_repositories_workspace_name', columnNames: ['workspace_id', 'name'] }],
        foreignKeys: [{ name: 'fk_repositories_workspace', columnNames: ['workspace_id'], referencedTableName: 'workspaces', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'files',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.ref('repository_id'),
          c.text('path'),
          c.varchar('content_hash', 64, true),
          c.bigint('size'),
          c.varchar('lang', 32, true),
          c.varchar('state', 16, false, 'pending'),
          c.int('chunk_count'),
          c.json('chunk_types', '{}'),
          c.text('error', true),
          c.timestamp('indexed_at', true),
          c.timestamp('updated_at'),
        ],
        uniques: [{ name: 'uq_files_repository_path', columnNames: ['repository_id', 'path'] }],
        foreignKeys: [{ name: 'fk_files_repository', columnNames: ['repository_id'], referencedTableName: 'repositories', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [{ name: 'ix_files_workspace_repository', columnNames: ['workspace_id', 'repository_id'] }],
      }),
      true,
    );

    await queryRunner.createTable(
      new Table({
        name: 'index_jobs',
        columns: [
          c.id(),
          c.ref('workspace_id'),
          c.ref('repository_id'),
          c.varchar('kind', 16, false, 'incremental'),
          c.varchar('status', 16, false, 'queued'),
          c.varchar('phase', 16, false, 'discover'),
          c.json('counts', '{}'),
          c.json('errors', '[]'),
          c.json('checkpoint', '{}'),
          c.json('options', '{}'),
          c.int('attempts'),
          c.text('error', true),
          c.timestamp('started_at', true),
          c.timestamp('finished_at', true),
          c.timestamp('created_at'),
          c.timestamp('updated_at'),
        ],
        foreignKeys: [{ name: 'fk_index_jobs_repository', columnNames: ['repository_id'], referencedTableName: 'repositories', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [
          { name: 'ix_index_jobs_workspace_status', columnNames: ['workspace_id', 'status'] },
          { name: 'ix_index_jobs_repository', columnNames: ['repository_id', 'created_at'] },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('index_jobs', true, true, true);
    await queryRunner.dropTable('files', true, true, true);
    await queryRunner.dropTable('repositories', true, true, true);
    await queryRunner.dropTable('workspaces', true, true, true);
  }
}
