import { Injectable, Logger } from '@nestjs/common';
import { DomainError, DomainErrorCode, notFound } from '../../common/domain-error';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { API_KEY_PREFIX, generateApiKey } from './api-key-format';
import type { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { KeyRevocations } from './key-revocations';
import type { Role } from './auth-context';
import { RoleSchema, type ApiKey, type CreatedApiKey } from './dtos/api-key.dto';

export const mapApiKey = (row: ApiKeyEntity): ApiKey => ({
  id: row.id,
  workspace_id: row.workspaceId,
  name: row.name,
  role: row.role,
  prefix: `${API_KEY_PREFIX}${row.prefix}`,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

/** Creating, listing and revoking keys; shared by `/v1/keys` and `sextant keys`. */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly workspaces: WorkspacesService,
    private readonly revocations: KeyRevocations,
  ) {}

  /** Creates a key in `workspaceId`; the returned `key` is the only copy of the secret. */
  async create(workspaceId: string, input: { name: string; role: Role }): Promise<CreatedApiKey> {
    const role = RoleSchema.safeParse(input.role);
    if (!role.success) throw new DomainError(DomainErrorCode.InvalidInput, `Role must be one of admin, member, reader (got "${input.role}")`);
    const name = input.name.trim();
    if (!name || name.length > 200) throw new DomainError(DomainErrorCode.InvalidInput, 'Key name must be 1-200 characters');
    await this.workspaces.getById(workspaceId);
    for (let attempt = 0; attempt < 5; attempt++) {
      const generated = generateApiKey();
      // 32-bit prefixes collide rarely, but the unique index would reject the insert.
      if (await this.keys.prefixExists(generated.prefix)) continue;
      const row = await this.keys.insert({ workspaceId, name, role: role.data, prefix: generated.prefix, hash: generated.hash });
      this.logger.log(`Created ${row.role} key ${row.id} (${mapApiKey(row).prefix}) in workspace ${workspaceId}`);
      return { ...mapApiKey(row), key: generated.key };
    }
    throw new DomainError(DomainErrorCode.Unavailable, 'Could not find a free key prefix; try again');
  }

  async list(workspaceId: string): Promise<ApiKey[]> {
    return (await this.keys.listByWorkspace(workspaceId)).map(mapApiKey);
  }

  /** Every key of every workspace: an operator view for the CLI only. */
  async listAll(): Promise<ApiKey[]> {
    return (await this.keys.listAll()).map(mapApiKey);
  }

  async get(workspaceId: string, id: string): Promise<ApiKey> {
    const row = await this.keys.findById(workspaceId, id);
    if (!row) throw notFound('API key', id);
    return mapApiKey(row);
  }

  /** Revokes at once: the next request with this key is refused and its open sockets and streams are closed. Revoking twice is harmless. */
  async revoke(workspaceId: string, id: string): Promise<ApiKey> {
    await this.get(workspaceId, id);
    await this.keys.revoke(workspaceId, id, new Date());
    this.revocations.revoked(id);
    this.logger.log(`Revoked key ${id} in workspace ${workspaceId}`);
    return this.get(workspaceId, id);
  }

  /** Finds a key by id or by its `sxt_<prefix>` for the CLI, whatever its workspace. */
  async findForOperator(idOrPrefix: string): Promise<ApiKey> {
    const wanted = idOrPrefix.trim();
    const prefix = wanted.startsWith(API_KEY_PREFIX) ? wanted.slice(API_KEY_PREFIX.length).split('_')[0] : wanted;
    const row = /^[0-9a-f]{8}$/.test(prefix) ? await this.keys.findByPrefix(prefix) : await this.keys.findAnyById(wanted);
    if (!row) throw notFound('API key', idOrPrefix);
    return mapApiKey(row);
  }

  countActive(): Promise<number> {
    return this.keys.countActive();
  }
}
