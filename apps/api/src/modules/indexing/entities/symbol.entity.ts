import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A definition found at index time; `file.symbol` matches query identifiers against `name_lower`. */
@Entity('symbols')
export class SymbolEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ name: 'repository_id', type: 'varchar', length: 36 }) repositoryId!: string;
  @Column({ type: 'text' }) path!: string;
  @Column({ type: 'varchar', length: 300 }) name!: string;
  @Column({ name: 'name_lower', type: 'varchar', length: 300 }) nameLower!: string;
  @Column({ type: 'text' }) qualified!: string;
  @Column({ type: 'varchar', length: 16 }) kind!: string;
  @Column({ name: 'start_line', type: 'integer' }) startLine!: number;
  @Column({ name: 'end_line', type: 'integer' }) endLine!: number;
}
