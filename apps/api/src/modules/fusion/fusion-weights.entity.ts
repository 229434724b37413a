import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One version of a workspace's weights for a query class; the highest version is current. */
@Entity('fusion_weights')
export class FusionWeightsEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'query_class', type: 'varchar', length: 16 }) queryClass!: string;
  @Column({ type: 'integer' }) version!: number;
  @Column({ type: 'simple-json' }) weights!: Record<string, number>;
  @Column({ type: 'varchar', length: 16 }) origin!: string;
  @Column({ type: Boolean, default: false }) pinned!: boolean;
  @Column({ type: 'varchar', length: 64, nullable: true }) principal!: string | null;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
}
