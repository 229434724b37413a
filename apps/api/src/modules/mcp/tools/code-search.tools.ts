import { Inject, Injectable } from '@nestjs/common';
import { McpFileSearchInputSchema, McpFileSearchOutputSchema, McpSymbolSearchInputSchema, SearchRequestSchema, type McpFileMatch, type McpFileSearchOutput } from '@sextant/contracts';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import type { z } from 'zod';
import { SearchService } from '../../fusion/search.service';
import type { McpCallContext, McpTool, McpToolOutcome } from '../mcp-tool';
import { truncateToLines } from '../token-budget';
import { hasText } from './search.tool';
import { chunkUrl, compact, extensionGlobs, firstLines } from './tool-format';

/** Seed 000's "MCP server 2" searches file contents only; task history is `search_similar_tasks`. */
const FILE_SOURCES = ['file.dense', 'file.keyword', 'file.symbol'] as const;
/** Longest chunk_text returned per match; `fetch` gives the rest. */
const MAX_CHUNK_CHARS = 4000;

/**
 * The file-content search behind search_files_by_content, search_functions and
 * search_classes: the file sources of the fused search at chunk granularity, restricted
 * to chunk types and extensions, with each chunk's text hydrated from the index.
 */
@Injectable()
export class CodeSearchRunner {
  constructor(
    private readonly search: SearchService,
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
  ) {}

  async run(ctx: McpCallContext, query: string, topK: number, options: { fileTypes?: string[]; chunkTypes?: string[] } = {}): Promise<McpToolOutcome<McpFileSearchOutput>> {
    const filters = compact({ include: extensionGlobs(options.fileTypes), chunk_types: options.chunkTypes as never });
    // Files found by symbol name get their evidence chunks without the chunk-type filter, so ask for more and filter here.
    const depth = options.chunkTypes ? Math.min(50, topK * 2) : topK;
    const request = SearchRequestSchema.parse({ query, top_k: depth, granularity: 'chunk', sources: [...FILE_SOURCES], ...(Object.keys(filters).length ? { filters } : {}) });
    const res = await this.search.search(ctx.auth.workspaceId, request, { principal: ctx.auth.principal, signal: ctx.signal });
    const hits = res.results.filter((r) => hasText(r) && (!options.chunkTypes || options.chunkTypes.includes(r.chunk!.chunk_type))).slice(0, topK);
    const texts = new Map((await this.chunks.get(hits.map((h) => h.chunk!.id), { workspaceId: ctx.auth.workspaceId })).map((p) => [p.id, p.payload.content]));
    const results: McpFileMatch[] = hits.map((r) => {
      const c = r.chunk!;
      return {
        id: c.id,
        repository: r.repo_name,
        file_path: r.path,
        url: chunkUrl(r.repo_name, r.path, c.start_line, c.end_line),
        chunk_type: c.chunk_type,
        symbol: c.symbol,
        chunk_text: truncateToLines(texts.get(c.id) ?? c.snippet, MAX_CHUNK_CHARS).text,
        similarity: r.score,
        metadata: { start_line: c.start_line, end_line: c.end_line, lang: r.lang, sources: r.explain.sources.map((s) => s.source) },
      };
    });
    const structured: McpFileSearchOutput = { query, search_id: res.search_id, results, limits: res.limits };
    return { structured, text: renderMatches(structured), searchId: res.search_id, resultCount: results.length };
  }
}

function renderMatches(out: McpFileSearchOutput): string {
  if (!out.results.length) return `No matching code for "${out.query}". Try other words, an identifier, or fewer filters.\nsearch_id: ${out.search_id}`;
  const lines = [`${out.results.length} match(es) for "${out.query}":`, ''];
  out.results.forEach((r, i) => {
    lines.push(`${i + 1}. ${r.file_path}:${r.metadata.start_line + 1}-${r.metadata.end_line + 1}  ${r.chunk_type}${r.symbol ? ` ${r.symbol}` : ''}  (similarity ${r.similarity.toFixed(4)})`);
    lines.push(`   id: ${r.id}   ${r.url}`);
    lines.push(...firstLines(r.chunk_text, 6).split('\n').map((l) => `   | ${l}`), '');
  });
  if (out.limits.length) lines.push(`Limits: ${out.limits.join('; ')}`);
  lines.push(`search_id: ${out.search_id}`);
  return lines.join('\n');
}

@Injectable()
export class SearchFilesByContentTool implements McpTool<typeof McpFileSearchInputSchema, typeof McpFileSearchOutputSchema> {
  readonly name = 'search_files_by_content' as const;
  readonly title = 'Search file contents';
  readonly description = [
    'Search the code itself (not task history) for chunks whose content matches the query: semantic similarity, keywords and',
    'symbol names. Use it when you want code only, optionally limited to file extensions (file_types: [".py", ".ts"]) or to',
    'chunk_types (file, class, method, function, section, window). Returns matches with file_path, chunk_type, symbol, the chunk',
    'text (up to ~4000 characters; `fetch` the id for more), a similarity score and line bounds (0-based).',
  ].join(' ');
  readonly input = McpFileSearchInputSchema;
  readonly output = McpFileSearchOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };

  constructor(private readonly runner: CodeSearchRunner) {}

  run(args: z.output<typeof McpFileSearchInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpFileSearchOutput>> {
    const chunkTypes = [...new Set([...(args.chunk_types ?? []), ...(args.chunk_type ? [args.chunk_type] : [])])];
    return this.runner.run(ctx, args.query, args.top_k, { fileTypes: args.file_types, chunkTypes: chunkTypes.length ? chunkTypes : undefined });
  }
}

@Injectable()
export class SearchFunctionsTool implements McpTool<typeof McpSymbolSearchInputSchema, typeof McpFileSearchOutputSchema> {
  readonly name = 'search_functions' as const;
  readonly title = 'Search functions and methods';
  readonly description = [
    'Find functions and methods by what they do or by name ("validate token", "parseHttpResponse"). Use it when you need a',
    'callable definition rather than a whole file. Returns function/method chunks with file_path, symbol, the code, a similarity',
    'score and 0-based line bounds; pass an id to `fetch` to read it whole.',
  ].join(' ');
  readonly input = McpSymbolSearchInputSchema;
  readonly output = McpFileSearchOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };

  constructor(private readonly runner: CodeSearchRunner) {}

  run(args: z.output<typeof McpSymbolSearchInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpFileSearchOutput>> {
    return this.runner.run(ctx, args.query, args.top_k, { chunkTypes: ['function', 'method'] });
  }
}

@Injectable()
export class SearchClassesTool implements McpTool<typeof McpSymbolSearchInputSchema, typeof McpFileSearchOutputSchema> {
  readonly name = 'search_classes' as const;
  readonly title = 'Search classes';
  readonly description = [
    'Find classes (and records) by responsibility or name ("session store", "TokenCache"). Use it to locate the type that owns',
    'some behaviour. Returns class chunks with file_path, symbol, the code (long classes are cut; `fetch` the id for more),',
    'a similarity score and 0-based line bounds.',
  ].join(' ');
  readonly input = McpSymbolSearchInputSchema;
  readonly output = McpFileSearchOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };

  constructor(private readonly runner: CodeSearchRunner) {}

  run(args: z.output<typeof McpSymbolSearchInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpFileSearchOutput>> {
    return this.runner.run(ctx, args.query, args.top_k, { chunkTypes: ['class'] });
  }
}
