/**
 * BM25 as a sparse vector, for backends that score keyword search by dot product (Qdrant's
 * `bm25` sparse vector with `modifier: "idf"`).
 *
 * Document side: value(term) = tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)), the BM25 TF
 * saturation with length normalisation. Query side: value(term) = number of occurrences.
 * Qdrant multiplies by IDF = ln(1 + (N − n + 0.5)/(n + 0.5)) at query time, so
 * dot(query, doc) is exactly BM25.
 *
 * How this differs from the embedded store's FTS5 `bm25()`:
 * - `avgdl` is a fixed parameter here (FTS5 uses the live average length of the table);
 *   change it and you must re-encode every document.
 * - Term ids are 32-bit hashes; two terms that collide share a dimension (rare, ~n²/2³³).
 * - Sparse scoring is always "OR"; AND and PHRASE are separate filters in the Qdrant adapter
 *   (a full-text payload index), whereas FTS5 evaluates them inside the MATCH expression.
 * - IDF statistics in Qdrant are per collection (all workspaces); FTS5 likewise per table.
 * Both sides tokenize with the same shared tokenizer, so the term sets agree.
 *
 * @example
 * const doc = encodeSparseDocument('function getUserById(id) { ... }');
 * const q = encodeSparseQuery('get user by id');
 */
import { tokenize } from '../tokenizer';
import { termId } from './term-hash';

export interface SparseVector {
  indices: number[];
  values: number[];
}

export interface Bm25Params {
  /** Term-frequency saturation (default 1.2). */
  k1: number;
  /** Length normalisation strength (default 0.75). */
  b: number;
  /** Assumed average document length in tokens (default 256; code chunks average ~150–300). */
  avgDocLength: number;
}

export const DEFAULT_BM25_PARAMS: Readonly<Bm25Params> = { k1: 1.2, b: 0.75, avgDocLength: 256 };

/** BM25 term-frequency component for one term of one document. */
export function bm25TermWeight(termFreq: number, docLength: number, params: Bm25Params = DEFAULT_BM25_PARAMS): number {
  const { k1, b, avgDocLength } = params;
  return (termFreq * (k1 + 1)) / (termFreq + k1 * (1 - b + (b * docLength) / avgDocLength));
}

function countByTermId(tokens: readonly string[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const t of tokens) {
    const id = termId(t);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function toSparse(entries: Map<number, number>, weight: (count: number) => number): SparseVector {
  const ids = [...entries.keys()].sort((a, b) => a - b);
  return { indices: ids, values: ids.map((id) => weight(entries.get(id)!)) };
}

/** Encodes a document's text into BM25 TF weights keyed by hashed term ids (sorted, unique). */
export function encodeSparseDocument(text: string, params: Partial<Bm25Params> = {}): SparseVector {
  const p = { ...DEFAULT_BM25_PARAMS, ...params };
  const tokens = tokenize(text);
  const counts = countByTermId(tokens);
  return toSparse(counts, (tf) => bm25TermWeight(tf, tokens.length, p));
}

/** Encodes a query (stop words removed) into term-count weights keyed by hashed term ids. */
export function encodeSparseQuery(query: string): SparseVector {
  return toSparse(countByTermId(tokenize(query, { removeStopWords: true })), (n) => n);
}
