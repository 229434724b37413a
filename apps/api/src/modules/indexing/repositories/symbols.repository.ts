import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { SymbolDefinition } from '@sextant/indexer';
import { Brackets, In, Repository, type EntityManager } from 'typeorm';
import { timeOrderedId } from '../../../database/time-ordered-id';
import { TransactionRunner } from '../../../database/transaction-runner';
import { SymbolEntity } from '../entities/symbol.entity';
import { insertRows } from '../../../database/bulk-write';

const SYMBOL_COLUMNS = ['id', 'workspaceId', 'repositoryId', 'path', 'name', 'nameLower', 'qualified', 'kind', 'startLine', 'endLine'] as const;

export interface SymbolMatch {
  repositoryId: string;
  path: string;
  name: string;
  qualified: string;
  kind: string;
  startLine: number;
  endLine: number;
  exact: boolean;
}

/** Data access for `symbols`; every method is scoped by workspace. */
@Injectable()
export class SymbolsRepository {
  constructor(
    @InjectRepository(SymbolEntity) private readonly rows: Repository<SymbolEntity>,
    private readonly tx: TransactionRunner,
  ) {}

  /** Replaces the definitions of these files, in `manager`'s transaction or a new one. */
  async replaceForFiles(workspaceId: string, repositoryId: string, files: Array<{ path: string; definitions: SymbolDefinition[] }>, manager?: EntityManager): Promise<void> {
    if (!files.length) return;
    const write = async (tx: EntityManager) => {
      const repo = tx.getRepository(SymbolEntity);
      const paths = files.map((f) => f.path);
      for (let i = 0; i < paths.length; i += 500) await repo.delete({ workspaceId, repositoryId, path: In(paths.slice(i, i + 500)) });
      const rows: unknown[][] = [];
      for (const f of files) {
        for (const d of f.definitions) {
          const name = d.name.slice(0, 300);
          rows.push([timeOrderedId(), workspaceId, repositoryId, f.path, name, d.name.toLowerCase().slice(0, 300), d.symbol, d.kind, d.startLine, d.endLine]);
        }
      }
      await insertRows(tx, SymbolEntity, SYMBOL_COLUMNS, rows);
    };
    await (manager ? write(manager) : this.tx.run(write));
  }

  async deletePaths(workspaceId: string, repositoryId: string, paths: string[]): Promise<void> {
    for (let i = 0; i < paths.length; i += 500) await this.rows.delete({ workspaceId, repositoryId, path: In(paths.slice(i, i + 500)) });
  }

  /**
   * Definitions whose name equals one of `names` (case-insensitive) or starts with one
   * of them (prefix match, names of ≥ 3 characters). Exact matches first.
   */
  async match(workspaceId: string, names: string[], options: { repositoryIds?: string[]; limit?: number } = {}): Promise<SymbolMatch[]> {
    const lowered = [...new Set(names.map((n) => n.toLowerCase()).filter((n) => n.length >= 2))].slice(0, 20);
    if (!lowered.length) return [];
    const qb = this.rows
      .createQueryBuilder('s')
      .where('s.workspace_id = :workspaceId', { workspaceId })
      .andWhere(
        new Brackets((w) => {
          w.where('s.name_lower IN (:...exact)', { exact: lowered });
          // Prefix as a range (lo <= name < lo + U+FFFF), which both SQLite and Postgres answer from the
          // (workspace_id, name_lower) index; LIKE cannot use it on a BINARY-collated column in SQLite.
          lowered
            .filter((n) => n.length >= 3)
            .forEach((n, i) => w.orWhere(`(s.name_lower >= :lo${i} AND s.name_lower < :hi${i})`, { [`lo${i}`]: n, [`hi${i}`]: `${n}\uffff` }));
        }),
      )
      .limit(options.limit ?? 200);
    if (options.repositoryIds?.length) qb.andWhere('s.repository_id IN (:...repos)', { repos: options.repositoryIds });
    const rows = await qb.getMany();
    const exact = new Set(lowered);
    return rows
      .map((r) => ({ repositoryId: r.repositoryId, path: r.path, name: r.name, qualified: r.qualified, kind: r.kind, startLine: r.startLine, endLine: r.endLine, exact: exact.has(r.nameLower) }))
      .sort((a, b) => Number(b.exact) - Number(a.exact) || a.name.length - b.name.length || a.path.localeCompare(b.path));
  }

  /**
   * Definitions named exactly like one of `exact` (case-insensitive), plus those whose name
   * starts with one of `prefixes` (≥ 3 characters). Each name is its own scan of the
   * (workspace_id, name_lower) index — one query OR-ing them all made SQLite walk every
   * definition of the workspace (~20 ms at 100k). Exact matches are always kept (a common prefix
   * cannot crowd them out); each prefix adds at most `limit` rows. Exact matches first, then
   * shorter names, then path; at most `limit` rows.
   */
  async matchNames(workspaceId: string, names: { exact: string[]; prefixes: string[] }, options: { repositoryIds?: string[]; limit?: number } = {}): Promise<SymbolMatch[]> {
    const limit = options.limit ?? 200;
    const exact = [...new Set(names.exact.map((n) => n.toLowerCase()).filter((n) => n.length >= 2))].slice(0, 20);
    const prefixes = [...new Set(names.prefixes.map((n) => n.toLowerCase()).filter((n) => n.length >= 3))].slice(0, 20);
    const query = (where: string, params: Record<string, unknown>) => {
      const qb = this.rows.createQueryBuilder('s').where('s.workspace_id = :workspaceId', { workspaceId }).andWhere(where, params).limit(limit);
      if (options.repositoryIds?.length) qb.andWhere('s.repository_id IN (:...repos)', { repos: options.repositoryIds });
      return qb.getMany();
    };
    const found = new Map<string, SymbolEntity>();
    if (exact.length) for (const r of await query('s.name_lower IN (:...exact)', { exact })) found.set(r.id, r);
    for (const p of prefixes) {
      for (const r of await query('s.name_lower >= :lo AND s.name_lower < :hi', { lo: p, hi: `${p}\uffff` })) if (!found.has(r.id)) found.set(r.id, r);
    }
    const exactSet = new Set(exact);
    return [...found.values()]
      .map((r) => ({ repositoryId: r.repositoryId, path: r.path, name: r.name, qualified: r.qualified, kind: r.kind, startLine: r.startLine, endLine: r.endLine, exact: exactSet.has(r.nameLower) }))
      .sort((a, b) => Number(b.exact) - Number(a.exact) || a.name.length - b.name.length || a.path.localeCompare(b.path))
      .slice(0, limit);
  }
}
