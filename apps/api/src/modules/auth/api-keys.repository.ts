import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import type { Role } from './auth-context';
import { ApiKeyEntity } from './api-key.entity';
import { SINGLE_STATEMENT } from '../../database/transaction-runner';

/** Every read and write of `api_keys`. Workspace-scoped except the prefix lookup that authentication starts from. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly rows: Repository<ApiKeyEntity>) {}

  /** The one candidate row for a presented key (prefixes are unique). */
  findByPrefix(prefix: string): Promise<ApiKeyEntity | null> {
    return this.rows.findOne({ where: { prefix } });
  }

  prefixExists(prefix: string): Promise<boolean> {
    return this.rows.exists({ where: { prefix } });
  }

  insert(row: { workspaceId: string; name: string; role: Role; prefix: string; hash: string }): Promise<ApiKeyEntity> {
    return this.rows.save(this.rows.create({ id: randomUUID(), ...row, lastUsedAt: null, revokedAt: null }), SINGLE_STATEMENT);
  }

  listByWorkspace(workspaceId: string): Promise<ApiKeyEntity[]> {
    return this.rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Operator view for the CLI (`sextant keys list` without --workspace). */
  listAll(): Promise<ApiKeyEntity[]> {
    return this.rows.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findById(workspaceId: string, id: string): Promise<ApiKeyEntity | null> {
    return this.rows.findOne({ where: { workspaceId, id } });
  }

  /** Sets revoked_at once; revoking twice keeps the first time. */
  /** Operator lookup for the CLI, which acts across workspaces. */
  findAnyById(id: string): Promise<ApiKeyEntity | null> {
    return this.rows.findOne({ where: { id } });
  }

  async revoke(workspaceId: string, id: string, at: Date): Promise<void> {
    await this.rows.update({ workspaceId, id, revokedAt: IsNull() }, { revokedAt: at });
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.rows.update({ id }, { lastUsedAt: at });
  }

  /** The ids among `ids` that still name a key that is not revoked. */
  async activeAmong(ids: readonly string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.rows.find({ select: { id: true }, where: { id: In([...ids]), revokedAt: IsNull() } });
    return rows.map((r) => r.id);
  }

  countActive(): Promise<number> {
    return this.rows.count({ where: { revokedAt: IsNull() } });
  }
}
