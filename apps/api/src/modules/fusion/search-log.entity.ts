import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One search as it ran (the pool's header): feedback resolves ratings through it. */
@Entity('search_logs')
export class SearchLogEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ type: 'varchar', length: 64 }) principal!: string;
  @Column({ type: 'text' }) query!: string;
  @Column({ name: 'query_class', type: 'varchar', length: 16 }) queryClass!: string;
  @Column({ type: 'varchar', length: 16 }) strategy!: string;
  @Column({ type: 'varchar', length: 8 }) granularity!: string;
  @Column({ type: 'simple-json' }) weights!: Record<string, number>;
  @Column({ name: 'weights_version', type: 'integer' }) weightsVersion!: number;
  @Column({ name: 'result_count', type: 'integer' }) resultCount!: number;
  @Column({ name: 'latency_ms', type: 'integer' }) latencyMs!: number;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
}

/** Seed 004's pool row: which source ranked which item where, for one search. */
@Entity('search_pool')
export class SearchPoolEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'search_id', type: 'varchar', length: 36 }) searchId!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ type: 'varchar', length: 32 }) source!: string;
  @Column({ type: 'integer' }) rank!: number;
  @Column({ name: 'item_id', type: 'text' }) itemId!: string;
  @Column({ type: 'double precision' }) score!: number;
}
