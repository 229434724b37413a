import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { GraphSymbolEntity } from '../entities/graph-symbol.entity';

/** What a match needs: not the graph's key and byte range. */
const SELECTED = ['s.id', 's.repositoryId', 's.path', 's.name', 's.nameLower', 's.qualified', 's.kind', 's.startLine', 's.endLine'];

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

/**
 * Symbol search over the code graph's definitions (`graph_symbols`): an index job writes each
 * parsed file's definitions there once, and `file.symbol` matches query identifiers against
 * `name_lower`. Every method is scoped by workspace.
 */
@Injectable()
export class SymbolsRepository {
  constructor(@InjectRepository(GraphSymbolEntity) private readonly rows: Repository<GraphSymbolEntity>) {}

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
      const qb = this.rows.createQueryBuilder('s').select(SELECTED).where('s.workspace_id = :workspaceId', { workspaceId }).andWhere(where, params).limit(limit);
      if (options.repositoryIds?.length) qb.andWhere('s.repository_id IN (:...repos)', { repos: options.repositoryIds });
      return qb.getMany();
    };
    const found = new Map<string, GraphSymbolEntity>();
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
