import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { graphSymbolKeys, uuidV5, type FileDependency, type GraphEdge, type GraphFile, type ParsedLanguage } from '@sextant/indexer';
import { DataSource, In, type EntityManager } from 'typeorm';
import { timeOrderedId } from '../../../database/time-ordered-id';
import { TransactionRunner } from '../../../database/transaction-runner';
import { GraphEdgeEntity } from '../entities/graph-edge.entity';
import { GraphFileImportEntity } from '../entities/graph-file-import.entity';
import { GraphFileEntity } from '../entities/graph-file.entity';
import { GraphSymbolEntity } from '../entities/graph-symbol.entity';
import { insertRows } from '../../../database/bulk-write';

/** A file's graph facts as written by an index job; `null` facts: the file no longer has any (not parsed, removed). */
export interface GraphFileWrite {
  path: string;
  facts: GraphFile | null;
}

export type GraphSymbolRow = Pick<GraphSymbolEntity, 'id' | 'repositoryId' | 'path' | 'qualified' | 'name' | 'kind' | 'startLine' | 'endLine' | 'startByte' | 'endByte'>;

/** An edge seen from one end, with the symbol at the other end (`null` for a file's top-level code). */
export interface GraphEdgeRow {
  kind: string;
  confidence: number;
  line: number;
  column: number;
  fromPath: string;
  toPath: string;
  repositoryId: string;
  other: GraphSymbolRow | null;
}

/** Two files joined by calls: the strongest call's confidence and one (qualified) symbol pair that makes it. */
export interface FileCallPair {
  fromPath: string;
  toPath: string;
  weight: number;
  /** `null`: top-level code calls. */
  fromSymbol: string | null;
  toSymbol: string | null;
}

const CHUNK = 400;
const GRAPH_FILE_COLUMNS = ['id', 'workspaceId', 'repositoryId', 'path', 'lang', 'facts', 'dirty'] as const;
const GRAPH_EDGE_COLUMNS = ['id', 'workspaceId', 'repositoryId', 'fromPath', 'fromSymbolId', 'toPath', 'toSymbolId', 'kind', 'confidence', 'line', 'column'] as const;
const GRAPH_IMPORT_COLUMNS = ['id', 'workspaceId', 'repositoryId', 'fromPath', 'toPath', 'source', 'line'] as const;
const GRAPH_SYMBOL_COLUMNS = ['id', 'workspaceId', 'repositoryId', 'path', 'symbolKey', 'qualified', 'name', 'nameLower', 'kind', 'startLine', 'endLine', 'startByte', 'endByte'] as const;
const SYMBOL_COLUMNS = ['id', 'repository_id', 'path', 'qualified', 'name', 'kind', 'start_line', 'end_line', 'start_byte', 'end_byte'];

/** Stable id of a definition: the same file defining the same symbol keeps its id across index jobs. */
export function graphSymbolId(repositoryId: string, path: string, key: string): string {
  return uuidV5(`graph\0${repositoryId}\0${path}\0${key}`);
}

/** Data access for the code graph (`graph_*` tables); every read is scoped by workspace. */
@Injectable()
export class CodeGraphRepository {
  private readonly postgres: boolean;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tx: TransactionRunner,
  ) {
    this.postgres = db.options.type === 'postgres';
  }

  /**
   * Replaces the facts and definitions of these files and drops every edge from or to them; the
   * files, and every file that had an edge into them, are marked dirty for {@link replaceEdges}.
   * Runs in `manager`'s transaction, or a new one.
   */
  async replaceFiles(workspaceId: string, repositoryId: string, files: GraphFileWrite[], manager?: EntityManager): Promise<void> {
    if (!files.length) return;
    const write = async (m: EntityManager) => {
      await this.dropFiles(
        m,
        repositoryId,
        files.map((f) => f.path),
      );
      const fileRows: unknown[][] = [];
      const symbolRows: unknown[][] = [];
      for (const f of files) {
        if (!f.facts) continue;
        fileRows.push([timeOrderedId(), workspaceId, repositoryId, f.path, f.facts.lang, JSON.stringify(compactFacts(f.facts)), true]);
        const keys = graphSymbolKeys(f.facts.definitions);
        f.facts.definitions.forEach((d, i) => {
          const name = d.name.slice(0, 300);
          symbolRows.push([graphSymbolId(repositoryId, f.path, keys[i]), workspaceId, repositoryId, f.path, keys[i], d.symbol, name, d.name.toLowerCase().slice(0, 300), d.kind, d.startLine, d.endLine, d.startByte, d.endByte]);
        });
      }
      await insertRows(m, GraphFileEntity, GRAPH_FILE_COLUMNS, fileRows);
      await insertRows(m, GraphSymbolEntity, GRAPH_SYMBOL_COLUMNS, symbolRows);
    };
    await (manager ? write(manager) : this.tx.run(write));
  }

  /** Removes deleted files from the graph; files that called into them become dirty. */
  async removeFiles(repositoryId: string, paths: string[]): Promise<void> {
    if (!paths.length) return;
    await this.tx.run((m) => this.dropFiles(m, repositoryId, paths));
  }

  private async dropFiles(m: EntityManager, repositoryId: string, paths: string[]): Promise<void> {
    for (let i = 0; i < paths.length; i += CHUNK) {
      const slice = paths.slice(i, i + CHUNK);
      const callers = await m
        .createQueryBuilder(GraphEdgeEntity, 'e')
        .select('e.from_path', 'from_path')
        .where('e.repository_id = :repositoryId AND e.to_path IN (:...slice)', { repositoryId, slice })
        .getRawMany<{ from_path: string }>();
      const importers = await m
        .createQueryBuilder(GraphFileImportEntity, 'f')
        .select('f.from_path', 'from_path')
        .where('f.repository_id = :repositoryId AND f.to_path IN (:...slice)', { repositoryId, slice })
        .getRawMany<{ from_path: string }>();
      // Deduplicated here, not with DISTINCT: with DISTINCT, SQLite (no ANALYZE statistics) walks the
      // from_path index over every edge of the repository to get the order for free, instead of
      // seeking to_path.
      const dependents = [...new Set([...callers, ...importers].map((r) => r.from_path))];
      for (let j = 0; j < dependents.length; j += CHUNK) await m.update(GraphFileEntity, { repositoryId, path: In(dependents.slice(j, j + CHUNK)) }, { dirty: true });
      await m.delete(GraphEdgeEntity, { repositoryId, toPath: In(slice) });
      await m.delete(GraphEdgeEntity, { repositoryId, fromPath: In(slice) });
      await m.delete(GraphFileImportEntity, { repositoryId, fromPath: In(slice) });
      await m.delete(GraphSymbolEntity, { repositoryId, path: In(slice) });
      await m.delete(GraphFileEntity, { repositoryId, path: In(slice) });
    }
  }

  /** Every file's facts of a repository, and which of them are dirty. */
  async loadFacts(repositoryId: string): Promise<{ files: GraphFile[]; dirty: string[] }> {
    const rows = await this.db.getRepository(GraphFileEntity).find({ where: { repositoryId }, select: ['path', 'lang', 'facts', 'dirty'] });
    return {
      files: rows.map((r) => expandFacts(r.path, r.lang as ParsedLanguage, r.facts)),
      dirty: rows.filter((r) => r.dirty).map((r) => r.path),
    };
  }

  /** Facts of these files (those still in the graph). */
  async loadFactsFor(repositoryId: string, paths: string[]): Promise<GraphFile[]> {
    const out: GraphFile[] = [];
    for (let i = 0; i < paths.length; i += CHUNK) {
      const rows = await this.db.getRepository(GraphFileEntity).find({ where: { repositoryId, path: In(paths.slice(i, i + CHUNK)) }, select: ['path', 'lang', 'facts'] });
      out.push(...rows.map((r) => expandFacts(r.path, r.lang as ParsedLanguage, r.facts)));
    }
    return out;
  }

  async dirtyPaths(repositoryId: string): Promise<string[]> {
    return (await this.db.getRepository(GraphFileEntity).find({ where: { repositoryId, dirty: true }, select: ['path'] })).map((r) => r.path);
  }

  /** Changes whenever any file's facts are written or removed (ids are time-ordered and new per write). */
  async stamp(repositoryId: string): Promise<string> {
    const [row] = await this.query<{ n: number | string; m: string | null }>('SELECT COUNT(*) AS n, MAX(id) AS m FROM graph_files WHERE repository_id = ?', [repositoryId]);
    return `${row?.n ?? 0}:${row?.m ?? ''}`;
  }

  async hasDirty(repositoryId: string): Promise<boolean> {
    return (await this.db.getRepository(GraphFileEntity).count({ where: { repositoryId, dirty: true }, take: 1 })) > 0;
  }

  /** Replaces the outgoing edges and imports of `fromPaths` with these, and marks them clean. */
  async replaceEdges(workspaceId: string, repositoryId: string, fromPaths: string[], edges: GraphEdge[], dependencies: FileDependency[]): Promise<void> {
    await this.tx.run(async (m) => {
      for (let i = 0; i < fromPaths.length; i += CHUNK) {
        const slice = fromPaths.slice(i, i + CHUNK);
        await m.delete(GraphEdgeEntity, { repositoryId, fromPath: In(slice) });
        await m.delete(GraphFileImportEntity, { repositoryId, fromPath: In(slice) });
      }
      await insertRows(
        m,
        GraphEdgeEntity,
        GRAPH_EDGE_COLUMNS,
        edges.map((e) => [
          timeOrderedId(),
          workspaceId,
          repositoryId,
          e.fromPath,
          e.fromKey === null ? null : graphSymbolId(repositoryId, e.fromPath, e.fromKey),
          e.toPath,
          graphSymbolId(repositoryId, e.toPath, e.toKey),
          e.kind,
          e.confidence,
          e.line,
          e.column,
        ]),
      );
      await insertRows(
        m,
        GraphFileImportEntity,
        GRAPH_IMPORT_COLUMNS,
        dependencies.map((d) => [timeOrderedId(), workspaceId, repositoryId, d.fromPath, d.toPath, d.source.slice(0, 1000), d.line]),
      );
      for (let i = 0; i < fromPaths.length; i += CHUNK) await m.update(GraphFileEntity, { repositoryId, path: In(fromPaths.slice(i, i + CHUNK)) }, { dirty: false });
    });
  }

  // --- reads -----------------------------------------------------------------------------------

  /** Definitions whose name equals `query` or starts with it (case-insensitive); exact matches first. */
  async findSymbols(workspaceId: string, query: string, options: { repositoryIds?: string[]; kinds?: string[]; limit: number; offset?: number }): Promise<GraphSymbolRow[]> {
    const lower = query.toLowerCase();
    const qb = this.db
      .getRepository(GraphSymbolEntity)
      .createQueryBuilder('s')
      .where('s.workspace_id = :workspaceId', { workspaceId })
      // A range instead of LIKE: both dialects answer it from the (workspace_id, name_lower) index.
      .andWhere('s.name_lower >= :lo AND s.name_lower < :hi', { lo: lower, hi: `${lower}\uffff` });
    if (options.repositoryIds?.length) qb.andWhere('s.repository_id IN (:...repos)', { repos: options.repositoryIds });
    if (options.kinds?.length) qb.andWhere('s.kind IN (:...kinds)', { kinds: options.kinds });
    qb.orderBy('CASE WHEN s.name_lower = :exact THEN 0 ELSE 1 END', 'ASC')
      .setParameter('exact', lower)
      .addOrderBy('LENGTH(s.name)', 'ASC')
      .addOrderBy('s.path', 'ASC')
      .addOrderBy('s.start_line', 'ASC')
      .offset(options.offset ?? 0)
      .limit(options.limit);
    return qb.getMany();
  }

  /** The definitions of one file in file order. */
  fileSymbols(workspaceId: string, repositoryId: string, path: string, options: { limit: number; offset?: number }): Promise<GraphSymbolRow[]> {
    return this.db.getRepository(GraphSymbolEntity).find({ where: { workspaceId, repositoryId, path }, order: { startLine: 'ASC', startByte: 'ASC', id: 'ASC' }, skip: options.offset ?? 0, take: options.limit });
  }

  findSymbol(workspaceId: string, id: string): Promise<GraphSymbolRow | null> {
    return this.db.getRepository(GraphSymbolEntity).findOne({ where: { workspaceId, id } });
  }

  /**
   * Edges into (`direction: 'in'`) or out of a symbol, with the symbol at the other end; highest
   * confidence first, then by file and line.
   */
  async edgesOf(workspaceId: string, symbolId: string, direction: 'in' | 'out', kinds: string[], limit: number, offset = 0): Promise<GraphEdgeRow[]> {
    const [mine, other] = direction === 'in' ? ['to_symbol_id', 'from_symbol_id'] : ['from_symbol_id', 'to_symbol_id'];
    const cols = SYMBOL_COLUMNS.map((c) => `s.${c} AS s_${c}`).join(', ');
    const rows = await this.query<Record<string, unknown>>(
      `SELECT e.kind, e.confidence, e.line, e.col, e.from_path, e.to_path, e.repository_id, ${cols}
         FROM graph_edges e LEFT JOIN graph_symbols s ON s.id = e.${other}
        WHERE e.${mine} = ? AND e.workspace_id = ? AND e.kind IN (${kinds.map(() => '?').join(', ')})
        ORDER BY e.confidence DESC, e.from_path, e.line, e.col
        LIMIT ? OFFSET ?`,
      [symbolId, workspaceId, ...kinds, limit, offset],
    );
    return rows.map((r) => ({
      kind: String(r.kind),
      confidence: Number(r.confidence),
      line: Number(r.line),
      column: Number(r.col),
      fromPath: String(r.from_path),
      toPath: String(r.to_path),
      repositoryId: String(r.repository_id),
      other: r.s_id ? symbolFromRaw(r) : null,
    }));
  }

  /** Files `path` imports (`'out'`, external modules with `toPath` null) or files that import it (`'in'`). */
  async fileImports(workspaceId: string, repositoryId: string, path: string, direction: 'in' | 'out', limit: number, offset = 0): Promise<GraphFileImportEntity[]> {
    const where = direction === 'out' ? { workspaceId, repositoryId, fromPath: path } : { workspaceId, repositoryId, toPath: path };
    return this.db.getRepository(GraphFileImportEntity).find({ where, order: direction === 'out' ? { line: 'ASC', id: 'ASC' } : { fromPath: 'ASC', line: 'ASC', id: 'ASC' }, skip: offset, take: limit });
  }

  async hasFile(workspaceId: string, repositoryId: string, path: string): Promise<boolean> {
    return (await this.db.getRepository(GraphFileEntity).count({ where: { workspaceId, repositoryId, path }, take: 1 })) > 0;
  }

  /**
   * The file-level graph of a repository: each pair of files joined by calls (strongest
   * confidence, one representative symbol pair) or by an import. What graph expansion walks.
   */
  async fileAdjacency(workspaceId: string, repositoryId: string): Promise<{ calls: FileCallPair[]; imports: Array<{ fromPath: string; toPath: string }> }> {
    const calls = await this.query<Record<string, unknown>>(
      `SELECT p.from_path, p.to_path, p.weight, fs.qualified AS from_symbol, ts.qualified AS to_symbol
         FROM (SELECT from_path, to_path, MAX(confidence) AS weight, MIN(from_symbol_id) AS from_id, MIN(to_symbol_id) AS to_id
                 FROM graph_edges
                WHERE repository_id = ? AND workspace_id = ? AND kind <> 'import' AND from_path <> to_path
                GROUP BY from_path, to_path) p
         LEFT JOIN graph_symbols fs ON fs.id = p.from_id
         LEFT JOIN graph_symbols ts ON ts.id = p.to_id`,
      [repositoryId, workspaceId],
    );
    const imports = await this.query<Record<string, unknown>>(
      `SELECT DISTINCT from_path, to_path FROM graph_file_imports WHERE repository_id = ? AND workspace_id = ? AND to_path IS NOT NULL AND to_path <> from_path`,
      [repositoryId, workspaceId],
    );
    return {
      calls: calls.map((r) => ({ fromPath: String(r.from_path), toPath: String(r.to_path), weight: Number(r.weight), fromSymbol: r.from_symbol ? String(r.from_symbol) : null, toSymbol: r.to_symbol ? String(r.to_symbol) : null })),
      imports: imports.map((r) => ({ fromPath: String(r.from_path), toPath: String(r.to_path) })),
    };
  }

  /** Rows of graph tables for a repository (for status and tests). */
  async counts(repositoryId: string): Promise<{ files: number; symbols: number; edges: number; imports: number }> {
    const [files, symbols, edges, imports] = await Promise.all([
      this.db.getRepository(GraphFileEntity).count({ where: { repositoryId } }),
      this.db.getRepository(GraphSymbolEntity).count({ where: { repositoryId } }),
      this.db.getRepository(GraphEdgeEntity).count({ where: { repositoryId } }),
      this.db.getRepository(GraphFileImportEntity).count({ where: { repositoryId } }),
    ]);
    return { files, symbols, edges, imports };
  }

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    let n = 0;
    const text = this.postgres ? sql.replace(/\?/g, () => `$${++n}`) : sql;
    return this.db.query(text, params) as Promise<T[]>;
  }
}

function symbolFromRaw(r: Record<string, unknown>): GraphSymbolRow {
  return {
    id: String(r.s_id),
    repositoryId: String(r.s_repository_id),
    path: String(r.s_path),
    qualified: String(r.s_qualified),
    name: String(r.s_name),
    kind: String(r.s_kind),
    startLine: Number(r.s_start_line),
    endLine: Number(r.s_end_line),
    startByte: Number(r.s_start_byte),
    endByte: Number(r.s_end_byte),
  };
}

type CompactFacts = Pick<GraphFile, 'definitions' | 'references' | 'imports'>;

function compactFacts(f: GraphFile): CompactFacts {
  return { definitions: f.definitions, references: f.references, imports: f.imports };
}

function expandFacts(path: string, lang: ParsedLanguage, json: string): GraphFile {
  const facts = JSON.parse(json) as CompactFacts;
  return { path, lang, definitions: facts.definitions ?? [], references: facts.references ?? [], imports: facts.imports ?? [] };
}
