import { Injectable, Logger } from '@nestjs/common';
import { CodeGraph, isParsedLanguage, type ChunkFileResult, type FileDependency, type GraphEdge, type Language } from '@sextant/indexer';
import type { EntityManager } from 'typeorm';
import { CodeGraphRepository } from '../repositories/code-graph.repository';

/** Files resolved and written per transaction. */
const RESOLVE_BATCH = 500;
/** Repositories whose resolved graph stays in memory between jobs. */
const CACHED_REPOSITORIES = 4;

/** A repository's graph as of its last resolution, and what this process wrote since. */
interface CachedGraph {
  graph: CodeGraph;
  /** `CodeGraphRepository.stamp` right after that resolution. */
  stamp: string;
  /** Whether the stamp was compared before this process's first write since (another process may have written). */
  checked: boolean;
  changed: Set<string>;
  removed: Set<string>;
}

/**
 * Keeps a repository's code graph in step with its index: each written batch replaces its files'
 * facts and definitions (dropping every edge from or to them), and at the end of a job the dirty
 * files and their neighbourhood (importers, package, former callers) are resolved again. The
 * resolver's graph of the whole repository is kept in memory between jobs and updated with the
 * files a job wrote, so a one-file job does not re-read every file's facts.
 */
@Injectable()
export class CodeGraphUpdater {
  private readonly logger = new Logger(CodeGraphUpdater.name);
  private readonly cache = new Map<string, CachedGraph>();

  constructor(private readonly graph: CodeGraphRepository) {}

  /** Replaces these files' facts and definitions, in `manager`'s transaction or a new one. */
  async writeFiles(workspaceId: string, repositoryId: string, files: Array<{ path: string; lang: string | null; result: Pick<ChunkFileResult, 'parse' | 'symbols'> | null }>, manager?: EntityManager): Promise<void> {
    const writes = files.map(({ path, lang: name, result }) => {
      const lang = name as Language | null;
      return {
        path,
        facts: result && result.parse === 'ok' && isParsedLanguage(lang) ? { path, lang, definitions: result.symbols.definitions, references: result.symbols.references, imports: result.symbols.imports } : null,
      };
    });
    await this.track(
      repositoryId,
      writes.filter((w) => w.facts).map((w) => w.path),
      writes.filter((w) => !w.facts).map((w) => w.path),
    );
    await this.graph.replaceFiles(workspaceId, repositoryId, writes, manager);
  }

  async removeFiles(repositoryId: string, paths: string[]): Promise<void> {
    await this.track(repositoryId, [], paths);
    await this.graph.removeFiles(repositoryId, paths);
  }

  /** Re-resolves the edges of dirty files and their neighbourhood; returns how many files and edges were written. */
  async resolve(workspaceId: string, repositoryId: string): Promise<{ files: number; edges: number }> {
    const started = performance.now();
    const cached = this.cache.get(repositoryId);
    if (!cached && !(await this.graph.hasDirty(repositoryId))) return { files: 0, edges: 0 };
    let graph: CodeGraph;
    let dirty: string[];
    if (cached) {
      dirty = await this.graph.dirtyPaths(repositoryId);
      const wanted = [...new Set([...dirty, ...cached.changed])].filter((p) => !cached.removed.has(p));
      const facts = await this.graph.loadFactsFor(repositoryId, wanted);
      const present = new Set(facts.map((f) => f.path));
      cached.graph.update(facts, [...cached.removed, ...wanted.filter((p) => !present.has(p))]);
      graph = cached.graph;
    } else {
      const loaded = await this.graph.loadFacts(repositoryId);
      graph = new CodeGraph(loaded.files);
      dirty = loaded.dirty;
    }
    const affected = dirty.length ? graph.affectedBy(dirty) : [];
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
    this.remember(repositoryId, graph, await this.graph.stamp(repositoryId));
    this.logger.debug({ repositoryId, files: affected.length, edges: edgeCount, cached: Boolean(cached), ms: Math.round(performance.now() - started) }, 'code graph resolved');
    return { files: affected.length, edges: edgeCount };
  }

  /** Notes what this process is about to write; a graph another process changed meanwhile is dropped. */
  private async track(repositoryId: string, changed: string[], removed: string[]): Promise<void> {
    const cached = this.cache.get(repositoryId);
    if (!cached) return;
    if (!cached.checked) {
      if ((await this.graph.stamp(repositoryId)) !== cached.stamp) {
        this.cache.delete(repositoryId);
        return;
      }
      cached.checked = true;
    }
    for (const p of changed) {
      cached.changed.add(p);
      cached.removed.delete(p);
    }
    for (const p of removed) {
      cached.removed.add(p);
      cached.changed.delete(p);
    }
  }

  private remember(repositoryId: string, graph: CodeGraph, stamp: string): void {
    this.cache.delete(repositoryId);
    this.cache.set(repositoryId, { graph, stamp, checked: false, changed: new Set(), removed: new Set() });
    while (this.cache.size > CACHED_REPOSITORIES) this.cache.delete(this.cache.keys().next().value!);
  }
}
