import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from './auth-context';

/** A stored API key: never the key itself, only its SHA-256. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ type: 'varchar', length: 200 }) name!: string;
  @Column({ type: 'varchar', length: 16 }) role!: Role;
  @Column({ type: 'varchar', length: 16 }) prefix!: string;
  @Column({ type: 'varchar', length: 64 }) hash!: string;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @Column({ name: 'last_used_at', type: Date, nullable: true }) lastUsedAt!: Date | null;
  @Column({ name: 'revoked_at', type: Date, nullable: true }) revokedAt!: Date | null;
}
