import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A definition in the code graph; its id is derived from repository, path and symbol key, so it survives re-indexing unchanged files. */
@Entity('graph_symbols')
export class GraphSymbolEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'repository_id', type: 'varchar', length: 36 }) repositoryId!: string;
  @Column({ type: 'text' }) path!: string;
  @Column({ name: 'symbol_key', type: 'text' }) symbolKey!: string;
  @Column({ type: 'text' }) qualified!: string;
  @Column({ type: 'varchar', length: 300 }) name!: string;
  @Column({ name: 'name_lower', type: 'varchar', length: 300 }) nameLower!: string;
  @Column({ type: 'varchar', length: 16 }) kind!: string;
  @Column({ name: 'start_line', type: 'integer' }) startLine!: number;
  @Column({ name: 'end_line', type: 'integer' }) endLine!: number;
  @Column({ name: 'start_byte', type: 'integer' }) startByte!: number;
  @Column({ name: 'end_byte', type: 'integer' }) endByte!: number;
}
