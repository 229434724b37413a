import type { IndexJobCounts, IndexJobKind, IndexJobStatus, IndexPhase } from '@sextant/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export interface IndexJobOptions {
  /** Targeted job (watch mode): only these repo-relative paths are re-checked. */
  paths?: string[];
}

export interface IndexJobCheckpoint {
  /** Paths whose chunks and file rows are fully written in this job. */
  completed?: number;
  /** Head commit the job is indexing (git repos). */
  commit?: string | null;
}

@Entity('index_jobs')
export class IndexJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'repository_id', type: 'varchar', length: 36 }) repositoryId!: string;
  @Column({ type: 'varchar', length: 16 }) kind!: IndexJobKind;
  @Column({ type: 'varchar', length: 16 }) status!: IndexJobStatus;
  @Column({ type: 'varchar', length: 16 }) phase!: IndexPhase;
  @Column({ type: 'simple-json' }) counts!: IndexJobCounts;
  @Column({ type: 'simple-json' }) errors!: Array<{ path: string; message: string }>;
  @Column({ type: 'simple-json' }) checkpoint!: IndexJobCheckpoint;
  @Column({ type: 'simple-json' }) options!: IndexJobOptions;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ name: 'started_at', type: Date, nullable: true }) startedAt!: Date | null;
  @Column({ name: 'finished_at', type: Date, nullable: true }) finishedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at' }) updatedAt!: Date;
}

export const emptyCounts = (): IndexJobCounts => ({
  discovered: 0,
  toIndex: 0,
  unchanged: 0,
  removed: 0,
  processed: 0,
  indexed: 0,
  failed: 0,
  parseFallbacks: 0,
  chunks: 0,
  embedded: 0,
  cacheHits: 0,
  skippedByReason: {},
  chunksByType: {},
});
