import { Injectable, Logger } from '@nestjs/common';
import { CodeGraph, isParsedLanguage, type ChunkFileResult, type FileDependency, type GraphEdge, type Language } from '@sextant/indexer';
import { CodeGraphRepository } from '../repositories/code-graph.repository';

/** Files resolved and written per transaction. */
const RESOLVE_BATCH = 500;

/**
 * Keeps a repository's code graph in step with its index: each written batch replaces its files'
 * facts and definitions (dropping every edge from or to them), and at the end of a job the dirty
 * files and their neighbourhood (importers, package, former callers) are resolved again.
 */
@Injectable()
export class CodeGraphUpdater {
  private readonly logger = new Logger(CodeGraphUpdater.name);

  constructor(private readonly graph: CodeGraphRepository) {}

  async writeFiles(workspaceId: string, repositoryId: string, files: Array<{ path: string; lang: string | null; result: Pick<ChunkFileResult, 'parse' | 'symbols'> | null }>): Promise<void> {
    await this.graph.replaceFiles(
      workspaceId,
      repositoryId,
      files.map(({ path, lang: name, result }) => {
        const lang = name as Language | null;
        return {
        path,
        facts: result && result.parse === 'ok' && isParsedLanguage(lang) ? { path, lang, definitions: result.symbols.definitions, references: result.symbols.references, imports: result.symbols.imports } : null,
        };
      }),
    );
  }

  removeFiles(repositoryId: string, paths: string[]): Promise<void> {
    return this.graph.removeFiles(repositoryId, paths);
  }

  /** Re-resolves the edges of dirty files and their neighbourhood; returns how many files and edges were written. */
  async resolve(workspaceId: string, repositoryId: string): Promise<{ files: number; edges: number }> {
    if (!(await this.graph.hasDirty(repositoryId))) return { files: 0, edges: 0 };
    const started = performance.now();
    const { files, dirty } = await this.graph.loadFacts(repositoryId);
    const graph = new CodeGraph(files);
    const affected = graph.affectedBy(dirty);
    let edgeCount = 0;
    for (let i = 0; i < affected.length; i += RESOLVE_BATCH) {
      const slice = affected.slice(i, i + RESOLVE_BATCH);
      const edges: GraphEdge[] = [];
      const dependencies: FileDependency[] = [];
      for (const path of slice) {
        const resolved = graph.resolveFile(path);
        edges.push(...resolved.edges);
        dependencies.push(...resolved.dependencies);
      }
      await this.graph.replaceEdges(workspaceId, repositoryId, slice, edges, dependencies);
      edgeCount += edges.length;
    }
    this.logger.debug({ repositoryId, files: affected.length, edges: edgeCount, ms: Math.round(performance.now() - started) }, 'code graph resolved');
    return { files: affected.length, edges: edgeCount };
  }
}
