import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, MoreThanOrEqual, Repository, type EntityManager } from 'typeorm';
import { TransactionRunner } from '../../../database/transaction-runner';
import { bulkInsert } from '../../../database/bulk-write';
import { timeOrderedId } from '../../../database/time-ordered-id';
import { FileEntity } from '../entities/file.entity';

export interface FileWrite {
  path: string;
  contentHash: string | null;
  size: number | null;
  lang: string | null;
  /** See `statKeyOf` in the job runner; null = re-read next time. */
  statKey?: string | null;
}

export type FileIndexState = Pick<FileEntity, 'path' | 'state' | 'contentHash' | 'statKey'>;

/** Data access for `files`; every method is scoped by workspace and repository. */
@Injectable()
export class FilesRepository {
  constructor(
    @InjectRepository(FileEntity) private readonly rows: Repository<FileEntity>,
    private readonly tx: TransactionRunner,
  ) {}

  list(workspaceId: string, repositoryId: string): Promise<FileEntity[]> {
    return this.rows.find({ where: { workspaceId, repositoryId } });
  }

  /** What a job compares against, for every file of a repository: plain rows, no entity hydration (10k rows ~ 30 ms instead of 300). */
  /** Files indexed (or failed) at or after `since`: what an interrupted job had already done when it resumes. */
  writtenSince(workspaceId: string, repositoryId: string, since: Date): Promise<Array<Pick<FileEntity, 'path' | 'state' | 'chunkCount' | 'chunkTypes'>>> {
    return this.rows.find({
      select: { path: true, state: true, chunkCount: true, chunkTypes: true },
      where: { workspaceId, repositoryId, state: In(['indexed', 'failed']), updatedAt: MoreThanOrEqual(since) },
    });
  }

  async listIndexState(workspaceId: string, repositoryId: string): Promise<FileIndexState[]> {
    const rows = await this.rows
      .createQueryBuilder('f')
      .select(['f.path AS path', 'f.state AS state', 'f.content_hash AS "contentHash"', 'f.stat_key AS "statKey"'])
      .where('f.workspace_id = :workspaceId AND f.repository_id = :repositoryId', { workspaceId, repositoryId })
      .getRawMany<FileIndexState>();
    return rows;
  }

  async findByPaths(workspaceId: string, repositoryId: string, paths: string[]): Promise<FileEntity[]> {
    const out: FileEntity[] = [];
    for (let i = 0; i < paths.length; i += 500) out.push(...(await this.rows.find({ where: { workspaceId, repositoryId, path: In(paths.slice(i, i + 500)) } })));
    return out;
  }

  /** Files with these paths in any (or the given) repositories of the workspace that task search can name: indexed ones and history-only ones (`historyOnly`). */
  async findIndexedByPaths(workspaceId: string, paths: string[], repositoryIds?: string[]): Promise<Array<{ repositoryId: string; path: string; lang: string | null; historyOnly?: true }>> {
    const out: Array<{ repositoryId: string; path: string; lang: string | null; historyOnly?: true }> = [];
    const unique = [...new Set(paths)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.rows.find({
        where: { workspaceId, state: In(['indexed', 'history']), path: In(unique.slice(i, i + 500)), ...(repositoryIds?.length ? { repositoryId: In(repositoryIds) } : {}) },
        select: ['repositoryId', 'path', 'lang', 'state'],
      });
      out.push(...rows.map((r) => ({ repositoryId: r.repositoryId, path: r.path, lang: r.lang, ...(r.state === 'history' ? { historyOnly: true as const } : {}) })));
    }
    return out;
  }

  /** Every file of a workspace whose content is indexed; with `historyOnly`, also the history-only ones (every file task search can name). */
  async listIndexed(workspaceId: string, options: { historyOnly?: boolean } = {}): Promise<Array<{ repositoryId: string; path: string }>> {
    return this.rows
      .createQueryBuilder('f')
      .select(['f.repository_id AS "repositoryId"', 'f.path AS path'])
      .where('f.workspace_id = :workspaceId AND f.state IN (:...states)', { workspaceId, states: options.historyOnly ? ['indexed', 'history'] : ['indexed'] })
      .getRawMany<{ repositoryId: string; path: string }>();
  }

  /** Write-ahead: marks files as being (re)written, with their new hash, before their chunks are touched. */
  async markPending(workspaceId: string, repositoryId: string, files: FileWrite[]): Promise<void> {
    if (!files.length) return;
    const now = new Date();
    const rows = files.map((f) => ({ id: timeOrderedId(), workspaceId, repositoryId, path: f.path, contentHash: f.contentHash, size: f.size, lang: f.lang, statKey: f.statKey ?? null, state: 'pending' as const, chunkCount: 0, chunkTypes: {}, error: null, indexedAt: null, updatedAt: now }));
    // A known file keeps its id, counts and last indexed time until markIndexed replaces them.
    await this.upsert(rows, ['contentHash', 'size', 'lang', 'statKey', 'state', 'updatedAt']);
  }

  /**
   * Commits files whose chunks are all stored (markPending wrote their rows first). Pass the
   * file's hash, size and language to record them again, or only the path to keep the pending ones.
   * Runs in `manager`'s transaction, or a new one.
   */
  async markIndexed(workspaceId: string, repositoryId: string, results: Array<Partial<FileWrite> & { path: string; chunkCount: number; chunkTypes: Record<string, number>; error?: string | null }>, manager?: EntityManager): Promise<void> {
    if (!results.length) return;
    const now = new Date();
    const withFacts = results.every((r) => r.contentHash !== undefined);
    const update: (keyof FileEntity & string)[] = ['state', 'chunkCount', 'chunkTypes', 'error', 'indexedAt', 'updatedAt'];
    const write = (tx: EntityManager) =>
      bulkInsert(
        tx,
        FileEntity,
        results.map((r) => ({
          id: timeOrderedId(),
          workspaceId,
          repositoryId,
          path: r.path,
          ...(withFacts ? { contentHash: r.contentHash ?? null, size: r.size ?? null, lang: r.lang ?? null, statKey: r.statKey ?? null } : {}),
          state: 'indexed' as const,
          chunkCount: r.chunkCount,
          chunkTypes: r.chunkTypes,
          error: r.error ?? null,
          indexedAt: now,
          updatedAt: now,
        })),
        { conflict: ['repositoryId', 'path'], update: withFacts ? ['contentHash', 'size', 'lang', 'statKey', ...update] : update },
      );
    await (manager ? write(manager) : this.tx.run(write));
  }

  /** Records files known to the history only (see FileState); an existing row of the path becomes one. */
  async markHistoryOnly(workspaceId: string, repositoryId: string, paths: string[]): Promise<void> {
    if (!paths.length) return;
    const now = new Date();
    const rows = paths.map((path) => ({ id: timeOrderedId(), workspaceId, repositoryId, path, contentHash: null, size: null, lang: null, statKey: null, state: 'history' as const, chunkCount: 0, chunkTypes: {}, error: null, indexedAt: now, updatedAt: now }));
    await this.upsert(rows, ['contentHash', 'size', 'lang', 'statKey', 'state', 'chunkCount', 'chunkTypes', 'error', 'indexedAt', 'updatedAt']);
  }

  /** Inserts rows, or updates the `update` columns of the row a (repository, path) already has. */
  private upsert(rows: Partial<FileEntity>[], update: (keyof FileEntity & string)[]): Promise<void> {
    return this.tx.run((tx) => bulkInsert(tx, FileEntity, rows, { conflict: ['repositoryId', 'path'], update }));
  }

  async markFailed(workspaceId: string, repositoryId: string, failures: Array<{ path: string; message: string }>, manager?: EntityManager): Promise<void> {
    const rows = manager ? manager.getRepository(FileEntity) : this.rows;
    for (const f of failures) await rows.update({ workspaceId, repositoryId, path: f.path }, { state: 'failed', error: f.message.slice(0, 2000), chunkCount: 0, chunkTypes: {} });
  }

  async deletePaths(workspaceId: string, repositoryId: string, paths: string[]): Promise<void> {
    for (let i = 0; i < paths.length; i += 500) await this.rows.delete({ workspaceId, repositoryId, path: In(paths.slice(i, i + 500)) });
  }

  async stats(workspaceId: string, repositoryId: string): Promise<{ total: number; byLanguage: Record<string, number>; byState: Record<string, number>; chunksByType: Record<string, number>; chunksByLanguage: Record<string, number>; chunks: number }> {
    const rows = await this.rows.find({ where: { workspaceId, repositoryId }, select: ['lang', 'state', 'chunkCount', 'chunkTypes'] });
    const out = { total: rows.length, byLanguage: {} as Record<string, number>, byState: {} as Record<string, number>, chunksByType: {} as Record<string, number>, chunksByLanguage: {} as Record<string, number>, chunks: 0 };
    for (const r of rows) {
      const lang = r.lang ?? 'text';
      out.byState[r.state] = (out.byState[r.state] ?? 0) + 1;
      // A history-only file was never read: it has no language to count.
      if (r.state !== 'history') out.byLanguage[lang] = (out.byLanguage[lang] ?? 0) + 1;
      if (r.state !== 'indexed') continue;
      out.chunks += r.chunkCount;
      out.chunksByLanguage[lang] = (out.chunksByLanguage[lang] ?? 0) + r.chunkCount;
      for (const [type, n] of Object.entries(r.chunkTypes ?? {})) out.chunksByType[type] = (out.chunksByType[type] ?? 0) + n;
    }
    return out;
  }
}
