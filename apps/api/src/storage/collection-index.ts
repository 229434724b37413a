import {
  assertWorkspaceScope,
  InvalidFilterError,
  validateK,
  type DenseSearchOptions,
  type IndexedPoint,
  type IndexHealth,
  type KeywordMode,
  type KeywordSearchOptions,
  type PointIndex,
  type ScoredPoint,
  type StoredPoint,
  type WorkspaceScope,
} from '@sextant/retrieval';

/** What both engines (EmbeddedCollection, QdrantCollection) offer for one payload type, given a query plan `Q`. */
export interface PointCollection<P, Q> {
  upsert(points: ReadonlyArray<IndexedPoint<P>>): void | Promise<void>;
  deleteWhere(plan: Q): number | undefined | Promise<number | undefined>;
  get(ids: readonly string[], workspaceId: string): StoredPoint<P>[] | Promise<StoredPoint<P>[]>;
  count(plan: Q): number | Promise<number>;
  searchDense(vector: Float32Array | readonly number[], plan: Q, k: number, options?: DenseSearchOptions): ScoredPoint<P>[] | Promise<ScoredPoint<P>[]>;
  searchKeyword(query: string, plan: Q, k: number, mode: KeywordMode): ScoredPoint<P>[] | Promise<ScoredPoint<P>[]>;
}

export function keywordModeOf(options: KeywordSearchOptions | undefined, operation: string): KeywordMode {
  const mode = options?.mode ?? 'and';
  if (mode !== 'and' && mode !== 'or' && mode !== 'phrase') throw new InvalidFilterError(`${operation}: mode must be 'and', 'or' or 'phrase', got ${JSON.stringify(mode)}`);
  return mode;
}

/**
 * A `ChunkIndex` or `TaskIndex` over one collection: every call is validated here (filter,
 * `k`, workspace scope, keyword mode) and its filter turned into the engine's query plan, so
 * the embedded and Qdrant adapters differ only in their collection, plan and health.
 */
export abstract class CollectionIndex<P extends { workspaceId: string }, F extends WorkspaceScope, Q, C extends PointCollection<P, Q> = PointCollection<P, Q>>
  implements PointIndex<P, F>
{
  protected constructor(
    protected readonly collection: C,
    /** `ChunkIndex` or `TaskIndex`: names the operation in validation errors. */
    private readonly port: string,
    private readonly plan: (filter: F, operation: string) => Q,
  ) {}

  async upsert(points: ReadonlyArray<IndexedPoint<P>>): Promise<void> {
    await this.collection.upsert(points);
  }

  async delete(filter: F): Promise<number | undefined> {
    return this.collection.deleteWhere(this.plan(filter, `${this.port}.delete`));
  }

  async get(ids: readonly string[], scope: WorkspaceScope): Promise<StoredPoint<P>[]> {
    assertWorkspaceScope(scope, `${this.port}.get`);
    return this.collection.get(ids, scope.workspaceId);
  }

  async count(filter: F): Promise<number> {
    return this.collection.count(this.plan(filter, `${this.port}.count`));
  }

  async searchDense(vector: Float32Array | number[], filter: F, k: number, options?: DenseSearchOptions): Promise<ScoredPoint<P>[]> {
    const operation = `${this.port}.searchDense`;
    const plan = this.plan(filter, operation);
    validateK(k, operation);
    return this.collection.searchDense(vector, plan, k, options);
  }

  async searchKeyword(query: string, filter: F, k: number, options?: KeywordSearchOptions): Promise<ScoredPoint<P>[]> {
    const operation = `${this.port}.searchKeyword`;
    const plan = this.plan(filter, operation);
    validateK(k, operation);
    return this.collection.searchKeyword(query, plan, k, keywordModeOf(options, operation));
  }

  abstract health(): Promise<IndexHealth>;

  abstract close(): Promise<void>;
}
