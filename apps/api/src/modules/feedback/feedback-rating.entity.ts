import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A principal's current rating of one item of one search (re-rating replaces it). */
@Entity('feedback_ratings')
export class FeedbackRatingEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'search_id', type: 'varchar', length: 36 }) searchId!: string;
  @Column({ name: 'item_id', type: 'text' }) itemId!: string;
  @Column({ type: 'varchar', length: 64 }) principal!: string;
  @Column({ name: 'query_class', type: 'varchar', length: 16 }) queryClass!: string;
  /** Signed value in [-1, 1] (stars are stored mapped). */
  @Column({ type: 'double precision' }) rating!: number;
  @Column({ type: 'integer', nullable: true }) stars!: number | null;
  /** How much of this rating the weights have learned so far (differs from `rating` while capped or pinned). */
  @Column({ type: 'double precision' }) applied!: number;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
