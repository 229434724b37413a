import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A published evaluation report (`sextant eval run --publish`). */
@Entity('eval_reports')
export class EvalReportEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ type: 'varchar', length: 300 }) title!: string;
  /** JSON: everything of EvalReportSummary except id, title, published_by and created_at. */
  @Column({ type: 'text' }) summary!: string;
  @Column({ name: 'chart_svg', type: 'text' }) chartSvg!: string;
  @Column({ name: 'published_by', type: 'varchar', length: 64 }) publishedBy!: string;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
}
