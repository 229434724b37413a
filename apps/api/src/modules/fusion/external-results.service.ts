import { Inject, Injectable } from '@nestjs/common';
import type { ExternalResult, ParsedSearchRequest, SearchResult } from '@sextant/contracts';
import type { CachedEmbedder } from '@sextant/embeddings';
import { mergeByPriority, type MergeEntry } from '@sextant/retrieval';
import { EMBEDDER } from '../../storage/storage.module';
import { ExternalSearchService, type ExternalSourceOutcome, type ExternalSourceRun } from '../external-sources/external-search.service';
import { fileItemId, type FileHit, type RetrieverResult } from '../file-search/file-search.types';
import { FilesRepository } from '../indexing/repositories/files.repository';
import { RepositoriesRepository } from '../indexing/repositories/repositories.repository';

/** Priority of the indexed code in seed 002's merge (external sources default to 2). */
export const INDEX_PRIORITY = 1;

/**
 * External MCP sources inside a search: starts them beside the index sources, turns hits that
 * are files of an indexed repository into that source's ranking (fused like any source), keeps
 * the rest as external results, and merges those by priority with near-duplicates removed.
 */
@Injectable()
export class ExternalResultsService {
  constructor(
    private readonly external: ExternalSearchService,
    private readonly repos: RepositoriesRepository,
    private readonly files: FilesRepository,
    @Inject(EMBEDDER) private readonly embedder: CachedEmbedder,
  ) {}

  get fallback(): boolean {
    return this.external.settings.fallback;
  }

  /** The workspace's enabled sources, started (none when the request says `external: false`). */
  start(workspaceId: string, request: ParsedSearchRequest, signal?: AbortSignal): Promise<ExternalSourceRun[]> {
    if (request.external === false) return Promise.resolve([]);
    return this.external.start(workspaceId, request.query, signal);
  }

  /** Hits naming an indexed file (same repository, indexed path) -> a ranking for fusion; the rest stay external. */
  async split(workspaceId: string, outcome: ExternalSourceOutcome): Promise<{ files: RetrieverResult; external: ExternalResult[] }> {
    const withPath = outcome.results.filter((r) => r.metadata.repository && r.metadata.path);
    if (!withPath.length) return { files: { files: [], limits: [] }, external: outcome.results };
    const repos = await this.repos.list(workspaceId);
    const repoFor = (full: string) => {
      const lower = full.toLowerCase();
      const short = lower.split('/').pop()!;
      return repos.find((r) => r.name.toLowerCase() === lower || r.name.toLowerCase() === short || (r.gitUrl ?? '').toLowerCase().replace(/\.git$/, '').endsWith(`/${lower}`));
    };
    const candidates = withPath.map((r) => ({ r, repo: repoFor(r.metadata.repository!) })).filter((c) => c.repo);
    const indexed = candidates.length ? await this.files.findIndexedByPaths(workspaceId, candidates.map((c) => c.r.metadata.path!), [...new Set(candidates.map((c) => c.repo!.id))]) : [];
    const key = new Map(indexed.map((row) => [`${row.repositoryId}:${row.path}`, row]));
    const files: FileHit[] = [];
    const external: ExternalResult[] = [];
    for (const r of outcome.results) {
      const repo = r.metadata.repository && r.metadata.path ? repoFor(r.metadata.repository) : undefined;
      const row = repo ? key.get(`${repo.id}:${r.metadata.path}`) : undefined;
      if (!row) {
        external.push(r);
        continue;
      }
      files.push({ id: fileItemId(row.repositoryId, row.path), repoId: row.repositoryId, path: row.path, lang: row.lang, score: 1 / r.rank, chunks: [], reasons: [`${outcome.source}:${r.metadata.mcp_tool}`] });
    }
    return { files: { files, limits: [] }, external };
  }

  /** Priority order without de-duplication: what streamed partials show while sources answer. */
  preview(external: ExternalResult[]): ExternalResult[] {
    return mergeByPriority(external.map((value) => ({ value, priority: value.priority, rank: value.rank })), { dedup: false, dedupThreshold: 1, max: this.external.settings.maxMergedResults }).kept.map((k, i) => ({ ...k.value, rank: i + 1 }));
  }

  /**
   * Seed 002's merge: indexed results (priority 1) and external ones by priority; a result whose
   * text embeds within the threshold of a higher-priority one is dropped (named in `limits`);
   * external results capped at `max_merged_results`.
   */
  async merge(results: SearchResult[], external: ExternalResult[], limits: string[], signal?: AbortSignal): Promise<{ results: SearchResult[]; external: ExternalResult[] }> {
    const settings = this.external.settings;
    type Item = { kind: 'index'; r: SearchResult } | { kind: 'external'; e: ExternalResult };
    const items: Item[] = [...results.map((r) => ({ kind: 'index' as const, r })), ...external.map((e) => ({ kind: 'external' as const, e }))];
    let vectors: Array<Float32Array | null> = items.map(() => null);
    if (settings.dedup && external.length) {
      const texts = items.map((it) => (it.kind === 'index' ? (it.r.evidence.length ? it.r.evidence : it.r.chunk ? [it.r.chunk] : []).map((c) => c.snippet).join('\n') : it.e.text).slice(0, 8000));
      vectors = await this.embedder.embedDocuments(texts.map((t) => t || ' '), signal).catch(() => {
        limits.push('external: de-duplication skipped (the embedder failed)');
        return items.map(() => null);
      });
    }
    const entries: Array<MergeEntry<Item>> = items.map((value, i) => ({ value, priority: value.kind === 'index' ? INDEX_PRIORITY : value.e.priority, rank: value.kind === 'index' ? value.r.rank : value.e.rank, vector: vectors[i] }));
    const merged = mergeByPriority(entries, { dedup: settings.dedup, dedupThreshold: settings.dedupThreshold, max: Infinity });
    for (const d of merged.duplicates) limits.push(`dedup: ${label(d.dropped.value)} duplicates ${label(d.keptAs.value)} (cosine ${d.similarity.toFixed(3)}); kept the higher-priority copy`);
    const kept = merged.kept.map((k) => k.value);
    const keptResults = kept.flatMap((k) => (k.kind === 'index' ? [k.r] : []));
    const keptExternal = kept.flatMap((k) => (k.kind === 'external' ? [k.e] : []));
    if (keptExternal.length > settings.maxMergedResults) limits.push(`external: ${keptExternal.length - settings.maxMergedResults} result(s) over max_merged_results (${settings.maxMergedResults}) left out`);
    return {
      results: keptResults.length === results.length ? results : keptResults.map((r, i) => ({ ...r, rank: i + 1 })),
      external: keptExternal.slice(0, settings.maxMergedResults).map((e, i) => ({ ...e, rank: i + 1 })),
    };
  }
}

const label = (item: { kind: 'index'; r: SearchResult } | { kind: 'external'; e: ExternalResult }) => (item.kind === 'index' ? item.r.path : `${item.e.search_source}:${item.e.title}`);
