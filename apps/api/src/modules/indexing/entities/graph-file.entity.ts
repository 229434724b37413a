import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One parsed file's graph facts (definitions, call sites, imports) as JSON; `dirty` until its edges are resolved. */
@Entity('graph_files')
export class GraphFileEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'repository_id', type: 'varchar', length: 36 }) repositoryId!: string;
  @Column({ type: 'text' }) path!: string;
  @Column({ type: 'varchar', length: 16 }) lang!: string;
  @Column({ type: 'text' }) facts!: string;
  @Column({ type: Boolean, default: true }) dirty!: boolean;
}
