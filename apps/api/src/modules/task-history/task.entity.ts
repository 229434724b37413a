import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity('tasks')
export class TaskEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'repository_id', type: 'varchar', length: 36, nullable: true }) repositoryId!: string | null;
  @Column({ name: 'external_id', type: 'varchar', length: 200 }) externalId!: string;
  @Column({ type: 'varchar', length: 32 }) source!: string;
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text' }) body!: string;
  @Column({ type: 'simple-json' }) files!: string[];
  @Column({ type: 'varchar', length: 32, nullable: true }) status!: string | null;
  @Column({ type: 'text', nullable: true }) outcome!: string | null;
  @Column({ name: 'task_created_at', type: Date, nullable: true }) taskCreatedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at' }) updatedAt!: Date;
}
