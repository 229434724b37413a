import type { WorkspaceScope } from './index-filter';

/** A point to upsert into any index. */
export interface IndexedPoint<P> {
  /** UUID string (Qdrant accepts only UUIDs or integers; chunk ids are UUIDv5). */
  id: string;
  /** Dense embedding; all points of one collection share its dimension. */
  vector: Float32Array | number[];
  /** Text for keyword search; tokenized with the shared code-aware tokenizer. */
  text: string;
  payload: P;
}

/** A search hit: higher `score` is better (cosine similarity for dense, BM25 for keyword). */
export interface ScoredPoint<P> {
  id: string;
  score: number;
  payload: P;
}

/** A stored point as returned by `get`. */
export interface StoredPoint<P> {
  id: string;
  payload: P;
}

export type KeywordMode = 'and' | 'or' | 'phrase';

export interface DenseSearchOptions {
  /** Re-score the top `k × oversampling` int8 candidates with the float originals (default true). */
  rescore?: boolean;
  /** Candidate multiplier for rescoring (default 4, min 1). */
  oversampling?: number;
}

export interface KeywordSearchOptions {
  /** `and` (default): every query term; `or`: any term; `phrase`: the terms consecutively, in order. */
  mode?: KeywordMode;
}

export interface IndexHealth {
  ok: boolean;
  backend: 'embedded' | 'qdrant';
  /** Points across all workspaces, when cheap to know. */
  points?: number;
  detail?: string;
}

/**
 * The operations shared by `ChunkIndex` and `TaskIndex`. Every read and delete is scoped to
 * one workspace; writes are visible to the next call once the returned promise resolves.
 */
export interface PointIndex<P extends { workspaceId: string }, F extends WorkspaceScope> {
  /** Insert or replace points by id (same id twice = one point). */
  upsert(points: ReadonlyArray<IndexedPoint<P>>): Promise<void>;
  /** Delete every point matching the filter; returns how many were deleted when the backend knows. */
  delete(filter: F): Promise<number | undefined>;
  /** Points with these ids in the scoped workspace (others are silently absent), in request order. */
  get(ids: readonly string[], scope: WorkspaceScope): Promise<StoredPoint<P>[]>;
  count(filter: F): Promise<number>;
  searchDense(vector: Float32Array | number[], filter: F, k: number, options?: DenseSearchOptions): Promise<ScoredPoint<P>[]>;
  /** BM25 keyword search; the query is tokenized with `removeStopWords: true`. Scores: higher = better. */
  searchKeyword(query: string, filter: F, k: number, options?: KeywordSearchOptions): Promise<ScoredPoint<P>[]>;
  health(): Promise<IndexHealth>;
  close(): Promise<void>;
}
