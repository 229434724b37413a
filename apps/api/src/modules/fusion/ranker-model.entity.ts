import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One fitted learned-ranker model of a workspace; the highest version is current. */
@Entity('ranker_models')
export class RankerModelEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ type: 'integer' }) version!: number;
  /** Whether validation accepted it: only an accepted model ranks searches. */
  @Column({ type: Boolean, default: false }) active!: boolean;
  /** The LinearRankerModel as JSON. */
  @Column({ type: 'text' }) model!: string;
  /** Training report (examples, validation metrics against fusion) as JSON. */
  @Column({ type: 'text' }) report!: string;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
}
