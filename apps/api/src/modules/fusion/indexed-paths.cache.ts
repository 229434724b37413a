/** An indexed file a task path resolves to. */
export interface IndexedFileRow {
  repositoryId: string;
  path: string;
  lang: string | null;
  /** Known to the history only: its content is not indexed (FileState `history`). */
  historyOnly?: true;
}

interface WorkspaceEntry {
  /** Bumped on invalidation, so a lookup that started before it cannot store stale rows. */
  generation: number;
  createdAt: number;
  rows: Map<string, IndexedFileRow[]>;
}

/**
 * Which indexed files (per repository) a path names, per workspace — the task sources map every
 * similar task's paths to indexed files on each search, and the same few thousand paths come back
 * query after query. Entries live until the workspace's index changes (the search service drops
 * them on index progress, done and error events) and at most `ttlMs`, which bounds staleness when
 * another process indexes into a shared database. Rows of every repository are kept; callers
 * filter by the repositories that exist and that the search asked for.
 */
export class IndexedPathsCache {
  private readonly workspaces = new Map<string, WorkspaceEntry>();
  private generation = 0;

  constructor(private readonly options: { ttlMs: number; maxPathsPerWorkspace: number; now?: () => number }) {}

  /** The rows of `paths` (a path with no indexed file maps to []), loading the unknown ones with `load`. */
  async lookup(workspaceId: string, paths: readonly string[], load: (paths: string[]) => Promise<IndexedFileRow[]>): Promise<IndexedFileRow[]> {
    const now = this.options.now?.() ?? Date.now();
    let entry = this.workspaces.get(workspaceId);
    if (entry && (now - entry.createdAt > this.options.ttlMs || entry.rows.size > this.options.maxPathsPerWorkspace)) {
      this.workspaces.delete(workspaceId);
      entry = undefined;
    }
    if (!entry) {
      entry = { generation: ++this.generation, createdAt: now, rows: new Map() };
      this.workspaces.set(workspaceId, entry);
    }
    const unique = [...new Set(paths)];
    const known = entry.rows;
    const missing = unique.filter((p) => !known.has(p));
    const loaded = new Map<string, IndexedFileRow[]>(missing.map((p) => [p, []]));
    if (missing.length) {
      const generation = entry.generation;
      for (const r of await load(missing)) loaded.get(r.path)?.push({ repositoryId: r.repositoryId, path: r.path, lang: r.lang, ...(r.historyOnly ? { historyOnly: true as const } : {}) });
      // Only keep what was read in the current generation (the index may have changed meanwhile).
      if (this.workspaces.get(workspaceId)?.generation === generation) for (const [p, rows] of loaded) known.set(p, rows);
    }
    return unique.flatMap((p) => loaded.get(p) ?? known.get(p) ?? []);
  }

  invalidate(workspaceId: string): void {
    this.workspaces.delete(workspaceId);
    this.generation++;
  }
}
