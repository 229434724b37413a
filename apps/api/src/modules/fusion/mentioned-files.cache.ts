import { IndexedPathSet } from '@sextant/retrieval';

/** A workspace's indexed paths, ready to resolve query mentions, and which repositories hold each path. */
export interface MentionIndex {
  paths: IndexedPathSet;
  repositoriesOf: Map<string, string[]>;
}

interface Entry {
  createdAt: number;
  index: Promise<MentionIndex>;
}

/**
 * One {@link MentionIndex} per workspace, built on the first query that names a file and kept
 * until the workspace's index changes (the search service drops it on index events) or
 * `ttlMs` passes (another process may index into a shared database).
 */
export class MentionIndexCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number) {}

  get(workspaceId: string, load: () => Promise<Array<{ repositoryId: string; path: string }>>): Promise<MentionIndex> {
    const now = Date.now();
    const hit = this.entries.get(workspaceId);
    if (hit && now - hit.createdAt <= this.ttlMs) return hit.index;
    const index = load().then((rows) => {
      const repositoriesOf = new Map<string, string[]>();
      for (const r of rows) repositoriesOf.set(r.path, [...(repositoriesOf.get(r.path) ?? []), r.repositoryId]);
      return { paths: new IndexedPathSet(repositoriesOf.keys()), repositoriesOf };
    });
    index.catch(() => this.entries.delete(workspaceId));
    this.entries.set(workspaceId, { createdAt: now, index });
    return index;
  }

  invalidate(workspaceId: string): void {
    this.entries.delete(workspaceId);
  }
}
