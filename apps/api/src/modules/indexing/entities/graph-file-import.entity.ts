import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An import statement and the repository file it loads (`toPath` null: an external module). */
@Entity('graph_file_imports')
export class GraphFileImportEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'repository_id', type: 'varchar', length: 36 }) repositoryId!: string;
  @Column({ name: 'from_path', type: 'text' }) fromPath!: string;
  @Column({ name: 'to_path', type: 'text', nullable: true }) toPath!: string | null;
  @Column({ type: 'text' }) source!: string;
  @Column({ type: 'integer' }) line!: number;
}
