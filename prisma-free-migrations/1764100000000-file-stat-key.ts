import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { columnsFor } from './column-types';

/**
 * `files.stat_key`: the size, mtime and ctime a file had when it was read for indexing. An
 * incremental job skips a file whose stat still matches without reading or hashing it (git's
 * index does the same), which is what keeps a no-change re-index of a large repository fast.
 */
export class FileStatKey1764100000000 implements MigrationInterface {
  name = 'FileStatKey1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('files', new TableColumn(columnsFor(queryRunner).varchar('stat_key', 96, true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('files', 'stat_key');
  }
}
