import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SINGLE_STATEMENT } from '../../database/transaction-runner';
import { McpSourceEntity } from './mcp-source.entity';

/** Every read and write of `mcp_sources`, always inside one workspace. */
@Injectable()
export class McpSourcesRepository {
  constructor(@InjectRepository(McpSourceEntity) private readonly rows: Repository<McpSourceEntity>) {}

  list(workspaceId: string): Promise<McpSourceEntity[]> {
    return this.rows.find({ where: { workspaceId }, order: { priority: 'DESC', name: 'ASC' } });
  }

  listEnabled(workspaceId: string): Promise<McpSourceEntity[]> {
    return this.rows.find({ where: { workspaceId, enabled: true }, order: { priority: 'DESC', name: 'ASC' } });
  }

  find(workspaceId: string, idOrName: string): Promise<McpSourceEntity | null> {
    return this.rows.findOne({ where: /^[0-9a-f-]{36}$/.test(idOrName) ? [{ workspaceId, id: idOrName }, { workspaceId, name: idOrName }] : { workspaceId, name: idOrName } });
  }

  nameTaken(workspaceId: string, name: string): Promise<boolean> {
    return this.rows.exists({ where: { workspaceId, name } });
  }

  insert(row: Omit<McpSourceEntity, 'id' | 'createdAt' | 'updatedAt'>): Promise<McpSourceEntity> {
    const now = new Date();
    return this.rows.save(this.rows.create({ id: randomUUID(), ...row, createdAt: now, updatedAt: now }), SINGLE_STATEMENT);
  }

  save(row: McpSourceEntity): Promise<McpSourceEntity> {
    row.updatedAt = new Date();
    return this.rows.save(row, SINGLE_STATEMENT);
  }

  async remove(row: McpSourceEntity): Promise<void> {
    await this.rows.delete({ id: row.id, workspaceId: row.workspaceId });
  }
}
