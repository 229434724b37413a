import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { detectLanguage, expandNeighbourhood, type GraphExpansionOptions, type GraphNeighbour } from '@sextant/indexer';
import type { IndexFilter } from '@sextant/retrieval';
import { fileItemId, type RetrieverResult } from '../file-search/file-search.types';
import { pathAllowed } from '../file-search/file-search.service';
import { CodeGraphRepository } from '../indexing/repositories/code-graph.repository';
import { IndexEvents } from '../indexing/services/indexing.tokens';

/** A strong hit of the first-stage sources: where graph expansion starts. */
export interface GraphSeed {
  repoId: string;
  path: string;
  /** Its fused score relative to the best hit (0..1]. */
  score: number;
}

/** How many fused hits seed the expansion, and how many files it returns. */
export const GRAPH_SEEDS = 8;
const GRAPH_RESULTS = 40;
const FAN_OUT = 15;
const EXPANSION: Partial<GraphExpansionOptions> = { maxDepth: 2, decay: 0.5, beamWidth: GRAPH_SEEDS, fanOut: FAN_OUT };
/** An import ties two files a little less than a certain call. */
const IMPORT_WEIGHT = 0.8;
/** Another API process may have re-indexed: its adjacency is re-read after this long at most. */
const ADJACENCY_TTL_MS = 60_000;

/** One neighbour of a file, and how to say why (resolved to names only for the files shown). */
interface Tie {
  path: string;
  weight: number;
  /** `callee`: the neighbour defines what this file calls; `caller`: it calls into this file. */
  kind: 'callee' | 'caller' | 'imported' | 'importer';
  fromSymbol: string | null;
  toSymbol: string | null;
}
type Adjacency = Map<string, Tie[]>;

/**
 * The `file.graph` source: files structurally tied (calls in either direction, imports) to the
 * strongest hits of the other sources, scored by seed strength, edge confidence and a decay per
 * hop. It finds the caller of a function a traceback names, or the module a hit delegates to,
 * even when they share no word with the query. Each repository's file-level graph (with one
 * symbol pair per tie, for the reason) is read once into memory, until its next index job or a
 * minute, so an expansion runs no query.
 */
@Injectable()
export class GraphExpansionService {
  private readonly adjacency = new Map<string, { at: number; value: Promise<Adjacency> }>();

  constructor(private readonly graph: CodeGraphRepository) {}

  @OnEvent(IndexEvents.Done)
  onIndexed(event: { repository_id?: string }): void {
    if (event.repository_id) this.adjacency.delete(event.repository_id);
  }

  async expand(workspaceId: string, seeds: readonly GraphSeed[], filter: IndexFilter): Promise<RetrieverResult> {
    if (!seeds.length) return { files: [], limits: [] };
    const repoIds = [...new Set(seeds.map((s) => s.repoId))];
    const graphs = new Map(await Promise.all(repoIds.map(async (id) => [id, await this.adjacencyOf(workspaceId, id)] as const)));
    const key = (repoId: string, path: string) => `${repoId}\0${path}`;
    const split = (k: string) => ({ repoId: k.slice(0, k.indexOf('\0')), path: k.slice(k.indexOf('\0') + 1) });
    const tieOf = new Map<string, Tie>();
    const neighbours = async (keys: string[]): Promise<Map<string, GraphNeighbour[]>> => {
      const out = new Map<string, GraphNeighbour[]>();
      for (const k of keys) {
        const { repoId, path } = split(k);
        // Lists are strongest first: only the head can be expanded.
        const ties = (graphs.get(repoId)?.get(path) ?? []).slice(0, FAN_OUT);
        out.set(
          k,
          ties.map((t) => {
            const reason = `${k}\0${t.path}`;
            tieOf.set(reason, t);
            return { path: key(repoId, t.path), weight: t.weight, reason };
          }),
        );
      }
      return out;
    };
    const found = await expandNeighbourhood(new Map(seeds.map((s) => [key(s.repoId, s.path), s.score])), neighbours, EXPANSION);
    const kept = found
      .map((f) => ({ ...f, ...split(f.path) }))
      .filter((f) => {
        if (filter.repoIds?.length && !filter.repoIds.includes(f.repoId)) return false;
        if (filter.langs?.length && !filter.langs.includes(detectLanguage(f.path) ?? '')) return false;
        return pathAllowed(f.path, filter);
      })
      .slice(0, GRAPH_RESULTS);
    const local = (q: string | null) => (q ? q.slice(q.indexOf(':') + 1) : 'top-level code');
    const files: RetrieverResult['files'] = kept.map((f) => {
      const t = tieOf.get(f.reason)!;
      const via = split(f.reason.slice(0, f.reason.lastIndexOf('\0'))).path;
      const why =
        t.kind === 'callee' ? `${local(t.toSymbol)} called by ${local(t.fromSymbol)}` : t.kind === 'caller' ? `${local(t.fromSymbol)} calls ${local(t.toSymbol)}` : t.kind === 'imported' ? `imported by ${via}` : `imports ${via}`;
      const seedPath = split(f.seed).path;
      return { id: fileItemId(f.repoId, f.path), repoId: f.repoId, path: f.path, lang: detectLanguage(f.path), score: f.score, chunks: [], reasons: [`graph:${why}${f.depth > 1 ? ` (${f.depth} hops from ${seedPath})` : ''}`] };
    });
    return { files, limits: [] };
  }

  private adjacencyOf(workspaceId: string, repositoryId: string): Promise<Adjacency> {
    const cached = this.adjacency.get(repositoryId);
    if (cached && Date.now() - cached.at < ADJACENCY_TTL_MS) return cached.value;
    const value = this.loadAdjacency(workspaceId, repositoryId);
    this.adjacency.set(repositoryId, { at: Date.now(), value });
    value.catch(() => this.adjacency.delete(repositoryId));
    return value;
  }

  private async loadAdjacency(workspaceId: string, repositoryId: string): Promise<Adjacency> {
    const { calls, imports } = await this.graph.fileAdjacency(workspaceId, repositoryId);
    const best = new Map<string, Map<string, Tie>>();
    const add = (from: string, tie: Tie) => {
      let row = best.get(from);
      if (!row) best.set(from, (row = new Map()));
      const current = row.get(tie.path);
      // A call says more than an import; between two calls, the stronger one.
      if (!current || (current.kind.startsWith('import') && !tie.kind.startsWith('import')) || (current.kind.startsWith('import') === tie.kind.startsWith('import') && current.weight < tie.weight)) row.set(tie.path, tie);
    };
    for (const c of calls) {
      add(c.fromPath, { path: c.toPath, weight: c.weight, kind: 'callee', fromSymbol: c.fromSymbol, toSymbol: c.toSymbol });
      add(c.toPath, { path: c.fromPath, weight: c.weight, kind: 'caller', fromSymbol: c.fromSymbol, toSymbol: c.toSymbol });
    }
    for (const i of imports) {
      add(i.fromPath, { path: i.toPath, weight: IMPORT_WEIGHT, kind: 'imported', fromSymbol: null, toSymbol: null });
      add(i.toPath, { path: i.fromPath, weight: IMPORT_WEIGHT, kind: 'importer', fromSymbol: null, toSymbol: null });
    }
    const out: Adjacency = new Map();
    for (const [from, row] of best) out.set(from, [...row.values()].sort((a, b) => b.weight - a.weight));
    return out;
  }
}
