import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { RepositoryEntity } from '../entities/repository.entity';
import { SINGLE_STATEMENT } from '../../../database/transaction-runner';

/** Data access for `repositories`; every method is scoped by workspace. */
@Injectable()
export class RepositoriesRepository {
  constructor(@InjectRepository(RepositoryEntity) private readonly rows: Repository<RepositoryEntity>) {}

  findById(workspaceId: string, id: string): Promise<RepositoryEntity | null> {
    return this.rows.findOne({ where: { workspaceId, id } });
  }

  findByName(workspaceId: string, name: string): Promise<RepositoryEntity | null> {
    return this.rows.findOne({ where: { workspaceId, name } });
  }

  /** Every registered local root with its workspace: the one cross-workspace read, for the shared-directory rule. */
  listAllRoots(): Promise<Array<Pick<RepositoryEntity, 'workspaceId' | 'rootPath'>>> {
    return this.rows.find({ select: ['workspaceId', 'rootPath'] });
  }

  findByRoot(workspaceId: string, rootPath: string): Promise<RepositoryEntity | null> {
    return this.rows.findOne({ where: { workspaceId, rootPath } });
  }

  list(workspaceId: string): Promise<RepositoryEntity[]> {
    return this.rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Every watched repository across workspaces (the watcher service runs for all of them). */
  listWatched(): Promise<RepositoryEntity[]> {
    return this.rows.find({ where: { watch: true } });
  }

  countAll(): Promise<number> {
    return this.rows.count();
  }

  create(workspaceId: string, data: Pick<RepositoryEntity, 'name' | 'rootPath' | 'gitUrl' | 'watch'> & Partial<Pick<RepositoryEntity, 'settings'>>): Promise<RepositoryEntity> {
    return this.rows.save(this.rows.create({ id: randomUUID(), workspaceId, settings: {}, lastIndexedCommit: null, lastIndexedAt: null, ...data }), SINGLE_STATEMENT);
  }

  async update(workspaceId: string, id: string, patch: Partial<Pick<RepositoryEntity, 'watch' | 'lastIndexedCommit' | 'lastIndexedAt' | 'name'>>): Promise<void> {
    await this.rows.update({ workspaceId, id }, patch);
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    await this.rows.delete({ workspaceId, id });
  }
}
