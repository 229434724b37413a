import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { TaskEntity } from './task.entity';

export type TaskWrite = Omit<TaskEntity, 'id' | 'workspaceId' | 'createdAt' | 'updatedAt'>;

/** Data access for `tasks`; every method is scoped by workspace. */
@Injectable()
export class TasksRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly rows: Repository<TaskEntity>,
    private readonly tx: TransactionRunner,
  ) {}

  /** Inserts or updates by (workspace, source, external id); returns rows and which were new. */
  async upsertMany(workspaceId: string, tasks: TaskWrite[]): Promise<{ rows: TaskEntity[]; created: number }> {
    const out: TaskEntity[] = [];
    let created = 0;
    await this.tx.run(async (tx) => {
      const repo = tx.getRepository(TaskEntity);
      for (let i = 0; i < tasks.length; i += 300) {
        const slice = tasks.slice(i, i + 300);
        const existing = await repo.find({ where: slice.map((t) => ({ workspaceId, source: t.source, externalId: t.externalId })) });
        const byKey = new Map(existing.map((r) => [`${r.source}\u0000${r.externalId}`, r]));
        const toSave = slice.map((t) => {
          const row = byKey.get(`${t.source}\u0000${t.externalId}`);
          if (!row) created++;
          return Object.assign(row ?? repo.create({ id: randomUUID(), workspaceId }), t);
        });
        out.push(...(await repo.save(toSave, { chunk: 100 })));
      }
    });
    return { rows: out, created };
  }

  findByIds(workspaceId: string, ids: string[]): Promise<TaskEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.rows.find({ where: { workspaceId, id: In(ids) } });
  }

  /** By row id or by external id (users know their own ids). */
  async findOne(workspaceId: string, idOrExternal: string): Promise<TaskEntity | null> {
    return (await this.rows.findOne({ where: { workspaceId, id: idOrExternal } })) ?? this.rows.findOne({ where: { workspaceId, externalId: idOrExternal }, order: { createdAt: 'ASC' } });
  }

  list(workspaceId: string, options: { limit: number; offset: number; source?: string }): Promise<[TaskEntity[], number]> {
    return this.rows.findAndCount({
      where: { workspaceId, ...(options.source ? { source: options.source } : {}) },
      order: { taskCreatedAt: 'DESC', createdAt: 'DESC' },
      take: options.limit,
      skip: options.offset,
    });
  }

  count(workspaceId: string): Promise<number> {
    return this.rows.count({ where: { workspaceId } });
  }
}
