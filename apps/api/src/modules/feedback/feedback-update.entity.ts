import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The learning ledger: one row per rating action (for the per-principal cap, the audit trail and rating counts). */
@Entity('feedback_updates')
export class FeedbackUpdateEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'search_id', type: 'varchar', length: 36 }) searchId!: string;
  @Column({ name: 'item_id', type: 'text' }) itemId!: string;
  @Column({ type: 'varchar', length: 64 }) principal!: string;
  @Column({ name: 'query_class', type: 'varchar', length: 16 }) queryClass!: string;
  @Column({ type: 'double precision' }) rating!: number;
  /** Rating change asked for (new rating - already applied). */
  @Column({ type: 'double precision' }) requested!: number;
  /** Rating change the weights actually learned (0 when capped, pinned or uninformative). */
  @Column({ type: 'double precision' }) applied!: number;
  @Column({ type: 'varchar', length: 16 }) outcome!: string;
  /** The weights version after this action. */
  @Column({ name: 'weights_version', type: 'integer' }) weightsVersion!: number;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
}
