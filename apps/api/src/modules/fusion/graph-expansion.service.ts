import { Injectable } from '@nestjs/common';
import { detectLanguage, expandNeighbourhood, type GraphExpansionOptions, type GraphNeighbour } from '@sextant/indexer';
import type { IndexFilter } from '@sextant/retrieval';
import { fileItemId, type RetrieverResult } from '../file-search/file-search.types';
import { pathAllowed } from '../file-search/file-search.service';
import { CodeGraphRepository } from '../indexing/repositories/code-graph.repository';

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
const EXPANSION: Partial<GraphExpansionOptions> = { maxDepth: 2, decay: 0.5, beamWidth: GRAPH_SEEDS, fanOut: 15 };

/**
 * The `file.graph` source: files structurally tied (calls in either direction, imports) to the
 * strongest hits of the other sources, scored by seed strength, edge confidence and a decay per
 * hop. It finds the caller of a function a traceback names, or the module a hit delegates to,
 * even when they share no word with the query.
 */
@Injectable()
export class GraphExpansionService {
  constructor(private readonly graph: CodeGraphRepository) {}

  async expand(workspaceId: string, seeds: readonly GraphSeed[], filter: IndexFilter): Promise<RetrieverResult> {
    if (!seeds.length) return { files: [], limits: [] };
    const key = (repoId: string, path: string) => `${repoId}\0${path}`;
    const neighbours = async (keys: string[]): Promise<Map<string, GraphNeighbour[]>> => {
      const ties = await this.graph.fileTies(
        workspaceId,
        keys.map((k) => ({ repositoryId: k.slice(0, k.indexOf('\0')), path: k.slice(k.indexOf('\0') + 1) })),
      );
      const out = new Map<string, GraphNeighbour[]>();
      for (const t of ties) {
        const from = key(t.repositoryId, t.seedPath);
        out.set(from, [...(out.get(from) ?? []), { path: key(t.repositoryId, t.path), weight: t.weight, reason: t.reason }]);
      }
      return out;
    };
    const found = await expandNeighbourhood(new Map(seeds.map((s) => [key(s.repoId, s.path), s.score])), neighbours, EXPANSION);
    const files: RetrieverResult['files'] = [];
    for (const f of found) {
      const repoId = f.path.slice(0, f.path.indexOf('\0'));
      const path = f.path.slice(f.path.indexOf('\0') + 1);
      const lang = detectLanguage(path);
      if (filter.repoIds?.length && !filter.repoIds.includes(repoId)) continue;
      if (filter.langs?.length && !filter.langs.includes(lang ?? '')) continue;
      if (!pathAllowed(path, filter)) continue;
      const seedPath = f.seed.slice(f.seed.indexOf('\0') + 1);
      files.push({ id: fileItemId(repoId, path), repoId, path, lang, score: f.score, chunks: [], reasons: [`graph:${f.reason}${f.depth > 1 ? ` (${f.depth} hops from ${seedPath})` : ''}`] });
      if (files.length >= GRAPH_RESULTS) break;
    }
    return { files, limits: [] };
  }
}
