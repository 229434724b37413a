/** A structural tie from one file to another, as the graph store reports it. */
export interface GraphNeighbour {
  path: string;
  /** Strength of the tie in (0, 1]: the edge's confidence. */
  weight: number;
  /** Why the files are tied, from the neighbour's point of view: `calls save (store.py)`. */
  reason: string;
}

export interface GraphExpansionOptions {
  /** Hops from a seed (default 2). */
  maxDepth: number;
  /** Score multiplier per hop (default 0.5). */
  decay: number;
  /** Files expanded per hop, strongest first (default 12). */
  beamWidth: number;
  /** Neighbours kept per expanded file, strongest first (default 20). */
  fanOut: number;
}

export const DEFAULT_GRAPH_EXPANSION: GraphExpansionOptions = { maxDepth: 2, decay: 0.5, beamWidth: 12, fanOut: 20 };

export interface ExpandedFile {
  path: string;
  score: number;
  depth: number;
  /** The seed the file was reached from. */
  seed: string;
  reason: string;
}

/**
 * Files structurally tied to the seeds (callers, callees, imports), scored by
 * `seedScore × decay^depth × edge weight` and kept at their best score. A seed comes back only
 * when another seed is tied to it. `neighbours` is asked once per expanded file, in batches per hop.
 *
 * @example
 * const found = await expandNeighbourhood(new Map([['a.py', 1]]), async (paths) => graph.neighbours(paths));
 */
export async function expandNeighbourhood(
  seeds: ReadonlyMap<string, number>,
  neighbours: (paths: string[]) => Promise<Map<string, GraphNeighbour[]>>,
  options: Partial<GraphExpansionOptions> = {},
): Promise<ExpandedFile[]> {
  const o = { ...DEFAULT_GRAPH_EXPANSION, ...options };
  const best = new Map<string, ExpandedFile>();
  let frontier = [...seeds.entries()].map(([path, score]) => ({ path, score, seed: path })).sort((a, b) => b.score - a.score).slice(0, o.beamWidth);
  const expanded = new Set<string>();
  for (let depth = 1; depth <= o.maxDepth && frontier.length; depth++) {
    const batch = frontier.filter((f) => !expanded.has(f.path));
    batch.forEach((f) => expanded.add(f.path));
    if (!batch.length) break;
    const found = await neighbours(batch.map((f) => f.path));
    const next = new Map<string, { path: string; score: number; seed: string }>();
    for (const from of batch) {
      const list = [...(found.get(from.path) ?? [])].sort((a, b) => b.weight - a.weight).slice(0, o.fanOut);
      for (const n of list) {
        // A seed tied to another seed is kept too: the tie is support for it.
        if (n.path === from.path || n.path === from.seed) continue;
        const score = from.score * Math.pow(o.decay, depth) * n.weight;
        const current = best.get(n.path);
        if (!current || current.score < score) best.set(n.path, { path: n.path, score, depth, seed: from.seed, reason: n.reason });
        const queued = next.get(n.path);
        if (!queued || queued.score < from.score * n.weight) next.set(n.path, { path: n.path, score: from.score * n.weight, seed: from.seed });
      }
    }
    frontier = [...next.values()].sort((a, b) => b.score - a.score).slice(0, o.beamWidth);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}
