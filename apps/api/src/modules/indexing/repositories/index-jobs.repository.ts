import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { IndexJobKind } from '@sextant/contracts';
import { In, Repository } from 'typeorm';
import { emptyCounts, IndexJobEntity, IndexJobOptions } from '../entities/index-job.entity';
import { SINGLE_STATEMENT } from '../../../database/transaction-runner';

/** Data access for `index_jobs`; every method is scoped by workspace. */
@Injectable()
export class IndexJobsRepository {
  constructor(@InjectRepository(IndexJobEntity) private readonly rows: Repository<IndexJobEntity>) {}

  findById(workspaceId: string, id: string): Promise<IndexJobEntity | null> {
    return this.rows.findOne({ where: { workspaceId, id } });
  }

  findActive(workspaceId: string, repositoryId: string): Promise<IndexJobEntity | null> {
    return this.rows.findOne({ where: { workspaceId, repositoryId, status: In(['queued', 'running']) }, order: { createdAt: 'ASC' } });
  }

  latest(workspaceId: string, repositoryId: string): Promise<IndexJobEntity | null> {
    return this.rows.findOne({ where: { workspaceId, repositoryId }, order: { createdAt: 'DESC' } });
  }

  list(workspaceId: string, limit = 50): Promise<IndexJobEntity[]> {
    return this.rows.find({ where: { workspaceId }, order: { createdAt: 'DESC' }, take: limit });
  }

  /** One page, newest first (ties by id, so pages never overlap or skip). */
  page(workspaceId: string, options: { limit: number; offset: number; repositoryId?: string }): Promise<IndexJobEntity[]> {
    const where = { workspaceId, ...(options.repositoryId ? { repositoryId: options.repositoryId } : {}) };
    return this.rows.find({ where, order: { createdAt: 'DESC', id: 'DESC' }, skip: options.offset, take: options.limit });
  }

  /** Jobs a previous process left queued or running (it was killed): they resume on start. */
  listUnfinished(): Promise<IndexJobEntity[]> {
    return this.rows.find({ where: { status: In(['queued', 'running']) }, order: { createdAt: 'ASC' } });
  }

  create(workspaceId: string, repositoryId: string, kind: IndexJobKind, options: IndexJobOptions = {}): Promise<IndexJobEntity> {
    return this.rows.save(
      this.rows.create({ id: randomUUID(), workspaceId, repositoryId, kind, status: 'queued', phase: 'discover', counts: emptyCounts(), errors: [], checkpoint: {}, options, attempts: 0, error: null, startedAt: null, finishedAt: null }),
      SINGLE_STATEMENT,
    );
  }

  async save(job: IndexJobEntity): Promise<void> {
    await this.rows.save(job, SINGLE_STATEMENT);
  }
}
