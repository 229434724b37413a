import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Per-repository indexing settings, stored in `settings`. */
export interface RepositorySettings {
  /**
   * Honour `.gitignore` files (default true). False for a folder that is already exactly a
   * repository's tracked tree, such as an evaluation corpus, where no file is "untracked".
   */
  gitignore?: boolean;
}

/** The repository's settings, reading only the keys Sextant knows (the column is free-form JSON). */
export function repositorySettings(repo: Pick<RepositoryEntity, 'settings'>): RepositorySettings {
  const raw = repo.settings ?? {};
  return typeof raw.gitignore === 'boolean' ? { gitignore: raw.gitignore } : {};
}

@Entity('repositories')
export class RepositoryEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ type: 'varchar', length: 200 }) name!: string;
  @Column({ name: 'root_path', type: 'text' }) rootPath!: string;
  @Column({ name: 'git_url', type: 'text', nullable: true }) gitUrl!: string | null;
  @Column({ type: Boolean, default: false }) watch!: boolean;
  @Column({ type: 'simple-json', default: '{}' }) settings!: Record<string, unknown>;
  @Column({ name: 'last_indexed_commit', type: 'varchar', length: 64, nullable: true }) lastIndexedCommit!: string | null;
  @Column({ name: 'last_indexed_at', type: Date, nullable: true }) lastIndexedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at' }) updatedAt!: Date;
}
