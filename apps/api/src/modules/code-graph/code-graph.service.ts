import { Injectable } from '@nestjs/common';
import { normaliseRepositoryPath, type FileDependenciesResponse, type FileGraphQuery, type FileSymbolsResponse, type GraphSite, type GraphSymbol, type SymbolEdgesQuery, type SymbolEdgesResponse, type SymbolSearchQuery, type SymbolSearchResponse } from '@sextant/contracts';
import { DomainError, DomainErrorCode, notFound } from '../../common/domain-error';
import { decodePageCursor, pageFromRows } from '../../common/page-cursor';
import { CodeGraphRepository, type GraphEdgeRow, type GraphSymbolRow } from '../indexing/repositories/code-graph.repository';
import { RepositoriesRepository } from '../indexing/repositories/repositories.repository';

export type SymbolEdgeDirection = 'references' | 'callers' | 'callees';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Navigation over the code graph: definitions by name, references, callers, callees, file dependencies. */
@Injectable()
export class CodeGraphService {
  constructor(
    private readonly graph: CodeGraphRepository,
    private readonly repos: RepositoriesRepository,
  ) {}

  async searchSymbols(workspaceId: string, q: SymbolSearchQuery): Promise<SymbolSearchResponse> {
    const repositoryIds = q.repository ? [await this.repositoryId(workspaceId, q.repository)] : undefined;
    const offset = decodePageCursor(q.cursor);
    const rows = await this.graph.findSymbols(workspaceId, q.query, { repositoryIds, kinds: q.kind ? [q.kind] : undefined, limit: q.limit + 1, offset });
    const page = pageFromRows(rows, q.limit, offset);
    return { query: q.query, symbols: page.items.map(mapGraphSymbol), next_cursor: page.next_cursor };
  }

  async fileSymbols(workspaceId: string, q: FileGraphQuery): Promise<FileSymbolsResponse> {
    const repositoryId = await this.repositoryId(workspaceId, q.repository);
    const offset = decodePageCursor(q.cursor);
    const rows = await this.graph.fileSymbols(workspaceId, repositoryId, q.path, { limit: q.limit + 1, offset });
    if (!rows.length && offset === 0 && !(await this.graph.hasFile(workspaceId, repositoryId, q.path))) throw new DomainError(DomainErrorCode.NotFound, `file ${q.path} is not in the code graph (not indexed, or not a parsed language)`, { path: q.path });
    const page = pageFromRows(rows, q.limit, offset);
    return { repository_id: repositoryId, path: q.path, symbols: page.items.map(mapGraphSymbol), next_cursor: page.next_cursor };
  }

  async edges(workspaceId: string, symbolId: string, direction: SymbolEdgeDirection, q: SymbolEdgesQuery): Promise<SymbolEdgesResponse> {
    const symbol = await this.graph.findSymbol(workspaceId, symbolId);
    if (!symbol) throw notFound('symbol', symbolId);
    const offset = decodePageCursor(q.cursor);
    const page = pageFromRows(await this.edgeRows(workspaceId, symbol.id, direction, q.limit + 1, offset), q.limit, offset);
    return { symbol: mapGraphSymbol(symbol), edges: page.items.map(mapGraphSite), next_cursor: page.next_cursor };
  }

  edgeRows(workspaceId: string, symbolId: string, direction: SymbolEdgeDirection, limit: number, offset = 0): Promise<GraphEdgeRow[]> {
    if (direction === 'callees') return this.graph.edgesOf(workspaceId, symbolId, 'out', ['call'], limit, offset);
    return this.graph.edgesOf(workspaceId, symbolId, 'in', direction === 'callers' ? ['call'] : ['call', 'reference', 'import'], limit, offset);
  }

  async fileDependencies(workspaceId: string, q: FileGraphQuery, direction: 'dependencies' | 'dependents'): Promise<FileDependenciesResponse> {
    const repositoryId = await this.repositoryId(workspaceId, q.repository);
    if (!(await this.graph.hasFile(workspaceId, repositoryId, q.path))) throw new DomainError(DomainErrorCode.NotFound, `file ${q.path} is not in the code graph (not indexed, or not a parsed language)`, { path: q.path });
    const offset = decodePageCursor(q.cursor);
    const rows = await this.graph.fileImports(workspaceId, repositoryId, q.path, direction === 'dependencies' ? 'out' : 'in', q.limit + 1, offset);
    const page = pageFromRows(rows, q.limit, offset);
    return {
      repository_id: repositoryId,
      path: q.path,
      files: page.items.map((r) => ({ path: direction === 'dependencies' ? r.toPath : r.fromPath, source: r.source, line: r.line })),
      next_cursor: page.next_cursor,
    };
  }

  /**
   * The definitions a free-form reference names: a symbol id, a qualified name (`path:Class.method`),
   * or a bare name (exact, case-insensitive; at most `limit`).
   */
  async resolveSymbols(workspaceId: string, text: string, repositories: string[] | undefined, limit = 5): Promise<GraphSymbolRow[]> {
    const repositoryIds = repositories?.length ? await Promise.all(repositories.map((r) => this.repositoryId(workspaceId, r))) : undefined;
    const inScope = (s: GraphSymbolRow) => !repositoryIds || repositoryIds.includes(s.repositoryId);
    if (UUID.test(text)) {
      const byId = await this.graph.findSymbol(workspaceId, text);
      return byId && inScope(byId) ? [byId] : [];
    }
    if (text.includes(':')) text = qualifiedAsIndexed(text);
    const name = text.includes(':') ? text.slice(text.lastIndexOf(':') + 1).split('.').pop()! : text.split(/[.:]/).pop()!;
    const candidates = await this.graph.findSymbols(workspaceId, name, { repositoryIds, limit: 200 });
    const exact = candidates.filter((s) => s.name.toLowerCase() === name.toLowerCase());
    if (text.includes(':')) return exact.filter((s) => s.qualified === text).slice(0, limit);
    if (text.includes('.')) {
      const dotted = exact.filter((s) => s.qualified.endsWith(`:${text}`) || s.qualified.endsWith(`.${text}`));
      if (dotted.length) return dotted.slice(0, limit);
    }
    return exact.slice(0, limit);
  }

  private async repositoryId(workspaceId: string, ref: string): Promise<string> {
    const repo = UUID.test(ref) ? await this.repos.findById(workspaceId, ref) : await this.repos.findByName(workspaceId, ref);
    if (!repo) throw new DomainError(DomainErrorCode.NotFound, `repository ${ref} not found`, { repository: ref });
    return repo.id;
  }
}

/** `./src\\app.py:App.run` as the index qualifies it (`src/app.py:App.run`); a path outside the repository is left to match nothing. */
function qualifiedAsIndexed(qualified: string): string {
  const colon = qualified.lastIndexOf(':');
  const path = normaliseRepositoryPath(qualified.slice(0, colon));
  return path === null ? qualified : `${path}${qualified.slice(colon)}`;
}

export function mapGraphSymbol(s: GraphSymbolRow): GraphSymbol {
  return {
    id: s.id,
    repository_id: s.repositoryId,
    path: s.path,
    name: s.name,
    qualified_name: s.qualified,
    kind: s.kind,
    range: { start_line: s.startLine, end_line: s.endLine, start_byte: s.startByte, end_byte: s.endByte },
  };
}

export function mapGraphSite(e: GraphEdgeRow): GraphSite {
  return { kind: e.kind as GraphSite['kind'], confidence: e.confidence, path: e.fromPath, line: e.line, column: e.column, symbol: e.other ? mapGraphSymbol(e.other) : null };
}
