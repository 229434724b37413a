import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * `files (workspace_id, path)`: searches map task and traceback paths to indexed files by path
 * within a workspace. With only `(workspace_id, repository_id)` that lookup read every file row
 * of the workspace — 75–200 ms per search at 100k files (bench:scale).
 */
export class FilesWorkspacePathIndex1764900000000 implements MigrationInterface {
  name = 'FilesWorkspacePathIndex1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('files', new TableIndex({ name: 'ix_files_workspace_path', columnNames: ['workspace_id', 'path'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('files', 'ix_files_workspace_path');
  }
}
