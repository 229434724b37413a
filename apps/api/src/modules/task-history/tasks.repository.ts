import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Raw, Repository, type FindOptionsWhere } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { timeOrderedId } from '../../database/time-ordered-id';
import { TaskEntity } from './task.entity';

/** One task of {@link TasksRepository.listHistory}; title and body are empty unless asked for. */
export interface HistoryTaskRow {
  id: string;
  files: string[];
  createdAt: Date | null;
  title: string;
  body: string;
}

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
          return Object.assign(row ?? repo.create({ id: timeOrderedId(), workspaceId }), t);
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

  /** Newest first; `path` keeps the tasks whose files include it, `repositoryId` those of that repository or of none. */
  list(workspaceId: string, options: { limit: number; offset: number; source?: string; path?: string; repositoryId?: string }): Promise<[TaskEntity[], number]> {
    const base: FindOptionsWhere<TaskEntity> = { workspaceId, ...(options.source ? { source: options.source } : {}) };
    // `files` is a JSON array in a text column: its element is the JSON string of the path, quotes included.
    if (options.path) base.files = Raw((column) => `${column} LIKE :filePattern ESCAPE '\\'`, { filePattern: `%${JSON.stringify(options.path).replace(/[\\%_]/g, (c) => `\\${c}`)}%` }) as FindOptionsWhere<TaskEntity>['files'];
    const where = options.repositoryId ? [{ ...base, repositoryId: options.repositoryId }, { ...base, repositoryId: IsNull() }] : base;
    return this.rows.findAndCount({
      where,
      // Ties by id: pages (offset cursors) must never overlap or skip.
      order: { taskCreatedAt: 'DESC', createdAt: 'DESC', id: 'DESC' },
      take: options.limit,
      skip: options.offset,
    });
  }

  /**
   * The whole history in time order (undated tasks first, as the oldest; ties by insertion),
   * with titles and bodies only when asked: what the learned ranker's history features and
   * training read.
   */
  async listHistory(workspaceId: string, options: { withText?: boolean } = {}): Promise<HistoryTaskRow[]> {
    const rows = await this.rows.find({
      where: { workspaceId },
      select: ['id', 'files', 'taskCreatedAt', 'createdAt', 'source', 'externalId', ...(options.withText ? (['title', 'body'] as const) : [])],
    });
    const time = (d: Date | null) => (d ? d.getTime() : Number.NEGATIVE_INFINITY);
    // Commits made in the same second and imported in the same batch tie on both dates. The tie goes
    // to the task's own id, so that positions (and the ranker trained on them) do not change from one
    // import of the same history to the next. Undated tasks have only their import order to go by:
    // row ids are time-ordered (UUIDv7, made in input order), so they keep it.
    const byKey = (a: TaskEntity, b: TaskEntity) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : a.id < b.id ? -1 : 1);
    const byRowId = (a: TaskEntity, b: TaskEntity) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    rows.sort((a, b) => time(a.taskCreatedAt) - time(b.taskCreatedAt) || a.createdAt.getTime() - b.createdAt.getTime() || (a.taskCreatedAt ? byKey(a, b) : byRowId(a, b)));
    return rows.map((r) => ({ id: r.id, files: r.files, createdAt: r.taskCreatedAt, title: r.title ?? '', body: r.body ?? '' }));
  }

  count(workspaceId: string): Promise<number> {
    return this.rows.count({ where: { workspaceId } });
  }
}
