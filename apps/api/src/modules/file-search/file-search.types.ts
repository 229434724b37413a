import type { ChunkPayload, ScoredPoint } from '@sextant/retrieval';

/** The stable id of a file result: what pools, feedback and the dashboard refer to. */
export const fileItemId = (repoId: string, path: string) => `file:${repoId}:${path}`;

export function parseFileItemId(id: string): { repoId: string; path: string } | null {
  const m = /^file:([0-9a-f-]{36}):(.+)$/.exec(id);
  return m ? { repoId: m[1], path: m[2] } : null;
}

/** One file found by a retriever, with the chunks that matched (best first). */
export interface FileHit {
  id: string;
  repoId: string;
  path: string;
  lang: string | null;
  score: number;
  chunks: Array<ScoredPoint<ChunkPayload>>;
  reasons: string[];
}

/** What a retriever returns: files best first, plus any degradation notes for `limits`. */
export interface RetrieverResult {
  files: FileHit[];
  limits: string[];
}
