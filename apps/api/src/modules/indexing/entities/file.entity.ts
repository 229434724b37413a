import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * One row per indexable file. `state` is the write-ahead marker that makes jobs
 * crash-safe: a row is `pending` (with the hash being written) before its chunks are
 * touched and `indexed` only after they are all stored. A `history` row is a file whose content
 * is not indexed (a lockfile, build output, a file too large to read; `HISTORY_ONLY_REASONS`)
 * but which past tasks may have touched: task search can name it, it has no chunks.
 */
export type FileState = 'pending' | 'indexed' | 'failed' | 'history';

@Entity('files')
export class FileEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'repository_id', type: 'varchar', length: 36 }) repositoryId!: string;
  @Column({ type: 'text' }) path!: string;
  @Column({ name: 'content_hash', type: 'varchar', length: 64, nullable: true }) contentHash!: string | null;
  @Column({ type: 'bigint', nullable: true, transformer: { to: (v: number | null) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) } })
  size!: number | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) lang!: string | null;
  @Column({ type: 'varchar', length: 16, default: 'pending' }) state!: FileState;
  @Column({ name: 'chunk_count', type: 'integer', default: 0 }) chunkCount!: number;
  @Column({ name: 'chunk_types', type: 'simple-json', default: '{}' }) chunkTypes!: Record<string, number>;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ name: 'indexed_at', type: Date, nullable: true }) indexedAt!: Date | null;
  /** `size:mtimeMs:ctimeMs` when the indexed content was read; null when it could not be trusted (see statKeyOf). */
  @Column({ name: 'stat_key', type: 'varchar', length: 96, nullable: true }) statKey!: string | null;
  @UpdateDateColumn({ name: 'updated_at' }) updatedAt!: Date;
}
