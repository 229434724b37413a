import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A resolved call, reference or import: from a definition (or a file's top level) to a definition. */
@Entity('graph_edges')
export class GraphEdgeEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'repository_id', type: 'varchar', length: 36 }) repositoryId!: string;
  @Column({ name: 'from_path', type: 'text' }) fromPath!: string;
  @Column({ name: 'from_symbol_id', type: 'varchar', length: 36, nullable: true }) fromSymbolId!: string | null;
  @Column({ name: 'to_path', type: 'text' }) toPath!: string;
  @Column({ name: 'to_symbol_id', type: 'varchar', length: 36 }) toSymbolId!: string;
  @Column({ type: 'varchar', length: 16 }) kind!: string;
  @Column({ type: 'real' }) confidence!: number;
  @Column({ type: 'integer' }) line!: number;
  @Column({ name: 'col', type: 'integer' }) column!: number;
}
