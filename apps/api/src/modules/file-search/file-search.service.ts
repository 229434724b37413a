import { Inject, Injectable } from '@nestjs/common';
import { aggregateChunksToFiles, CHUNK_INDEX, isIdentifierLike, ENGLISH_STOP_WORDS, pathPredicateFor, type ChunkIndex, type ChunkPayload, type IndexFilter, type KeywordMode, type ScoredPoint } from '@sextant/retrieval';
import { SymbolsRepository } from '../indexing/repositories/symbols.repository';
import { fileItemId, type FileHit, type RetrieverResult } from './file-search.types';

/** How many chunks each chunk-level retriever pulls before aggregating into files. */
export const CHUNK_DEPTH = 150;
/** Most names one query looks up in the symbol table. */
export const SYMBOL_NAMES = 64;

const toFiles = (hits: Array<ScoredPoint<ChunkPayload>>, reason: string): FileHit[] =>
  aggregateChunksToFiles(
    hits.map((h) => ({ chunkId: h.id, path: `${h.payload.repoId}\u0000${h.payload.path}`, score: h.score, hit: h })),
    { evidencePerFile: 3 },
  ).map((f) => {
    const first = f.evidence[0].hit;
    return {
      id: fileItemId(first.payload.repoId, first.payload.path),
      repoId: first.payload.repoId,
      path: first.payload.path,
      lang: first.payload.lang,
      score: f.score,
      chunks: f.evidence.map((e) => e.hit),
      reasons: [reason],
    };
  });

/**
 * The file-side retrievers of a search: `file.dense`, `file.keyword` (AND, falling back
 * to OR when AND finds nothing) and `file.symbol` (exact, then prefix, name matches).
 */
@Injectable()
export class FileSearchService {
  constructor(
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
    private readonly symbols: SymbolsRepository,
  ) {}

  async dense(vector: Float32Array, filter: IndexFilter, options: { rescore?: boolean } = {}): Promise<RetrieverResult> {
    const hits = await this.chunks.searchDense(vector, filter, CHUNK_DEPTH, { rescore: options.rescore ?? true });
    return { files: toFiles(hits, options.rescore === false ? 'embedding:cosine(int8)' : 'embedding:cosine'), limits: [] };
  }

  async keyword(query: string, filter: IndexFilter, mode?: KeywordMode): Promise<RetrieverResult> {
    const requested = mode ?? 'and';
    let hits = await this.chunks.searchKeyword(query, filter, CHUNK_DEPTH, { mode: requested });
    const limits: string[] = [];
    let used = requested;
    if (!hits.length && !mode) {
      hits = await this.chunks.searchKeyword(query, filter, CHUNK_DEPTH, { mode: 'or' });
      used = 'or';
      if (hits.length) limits.push('file.keyword: no chunk contains every query term; fell back to OR');
    }
    return { files: toFiles(hits, `bm25:${used}`), limits };
  }

  /**
   * Definitions named like the query's identifiers: "where is validate_token" puts the
   * file defining `validate_token` first. Exact names score 1, prefixes by how much of the
   * name they cover; plain English words only count on exact matches.
   */
  async symbol(query: string, filter: IndexFilter): Promise<RetrieverResult> {
    const words = [...new Set(query.match(/[A-Za-z_$][\w$]*/g) ?? [])];
    const identifiers = words.filter((w) => isIdentifierLike(w) || /[_$]/.test(w));
    const plain = words.filter((w) => !identifiers.includes(w) && w.length >= 4 && !ENGLISH_STOP_WORDS.has(w.toLowerCase()));
    const dotted = (query.match(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+/g) ?? []).map((q) => q.split('.').pop()!);
    // Identifiers first: a long issue report can hold hundreds of words; only the first SYMBOL_NAMES are looked up.
    const names = [...new Set([...identifiers, ...dotted, ...plain])].slice(0, SYMBOL_NAMES);
    if (!names.length) return { files: [], limits: [] };
    const prefixAllowed = new Set([...identifiers, ...dotted].map((n) => n.toLowerCase()));
    // Prefix rows are only looked up for identifiers: a plain word's prefix matches are never scored.
    const matches = await this.symbols.matchNames(filter.workspaceId, { exact: names, prefixes: names.filter((n) => prefixAllowed.has(n.toLowerCase())) }, { repositoryIds: filter.repoIds, limit: 300 });
    const byFile = new Map<string, FileHit>();
    for (const m of matches) {
      const lower = m.name.toLowerCase();
      let score = 0;
      if (m.exact) score = 1;
      else {
        const prefix = [...prefixAllowed].find((n) => lower.startsWith(n));
        if (!prefix) continue;
        score = 0.5 * (prefix.length / lower.length);
      }
      if (m.kind === 'class' || m.kind === 'function' || m.kind === 'interface' || m.kind === 'struct' || m.kind === 'trait') score *= 1.05; // definitions of types/functions over methods of the same name
      const id = fileItemId(m.repositoryId, m.path);
      const hit = byFile.get(id);
      const reason = `symbol:${m.exact ? 'exact' : 'prefix'}:${m.qualified}`;
      if (!hit) byFile.set(id, { id, repoId: m.repositoryId, path: m.path, lang: null, score, chunks: [], reasons: [reason] });
      else {
        if (score > hit.score) hit.score = score;
        if (hit.reasons.length < 3) hit.reasons.push(reason);
      }
    }
    const files = [...byFile.values()].filter((f) => pathAllowed(f.path, filter)).sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
    return { files: files.slice(0, 50), limits: [] };
  }

  /** The best chunks of several files at once (about `perFile` each), for one query vector. */
  async bestChunksOfFiles(vector: Float32Array, workspaceId: string, files: Array<{ repoId: string; path: string }>, perFile = 3): Promise<Array<ScoredPoint<ChunkPayload>>> {
    if (!files.length) return [];
    const repoIds = [...new Set(files.map((f) => f.repoId))];
    const paths = [...new Set(files.map((f) => f.path))];
    return this.chunks.searchDense(vector, { workspaceId, repoIds, paths }, Math.min(500, files.length * perFile * 4), { rescore: true });
  }

  /** The best chunks of one file for a query vector (evidence for files found by symbols or tasks). */
  async bestChunksOf(vector: Float32Array, workspaceId: string, repoId: string, path: string, k = 3): Promise<Array<ScoredPoint<ChunkPayload>>> {
    return this.chunks.searchDense(vector, { workspaceId, repoIds: [repoId], paths: [path] }, k, { rescore: true });
  }
}


/** Path-level filters for results that do not come from the chunk index (symbols, tasks). */
export function pathAllowed(path: string, filter: Pick<IndexFilter, 'include' | 'exclude'>): boolean {
  return pathPredicateFor(filter)?.(path) ?? true;
}
