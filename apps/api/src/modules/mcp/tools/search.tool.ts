import { Injectable } from '@nestjs/common';
import { McpSearchInputSchema, McpSearchOutputSchema, SearchRequestSchema, codeFirstLiftedFrom, definitionHit, describeDefinitionHit, describeRoutineHit, describeWeakMatch, routineHit, type McpSearchOutput, type McpSearchResult, type SearchResult } from '@sextant/contracts';
import type { z } from 'zod';
import { SearchService } from '../../fusion/search.service';
import type { McpCallContext, McpTool, McpToolOutcome } from '../mcp-tool';
import { chunkTitle, chunkUrl, compact, firstLines, normaliseLanguages } from './tool-format';

/**
 * `search` (seed 004): the fused code + task-history search at chunk granularity. Chunk
 * ids are what `fetch` hydrates; `source` is the retriever that contributed most.
 */
@Injectable()
export class SearchTool implements McpTool<typeof McpSearchInputSchema, typeof McpSearchOutputSchema> {
  readonly name = 'search' as const;
  readonly title = 'Search code and task history';
  readonly description = [
    'Find the code chunks (functions, classes, doc sections) that answer a question about this codebase.',
    'Use it first for any "where/how is X done" question: it combines semantic search, keyword search, symbol names and',
    'the files that similar past tasks (issues, commits) touched, so it also finds code that never mentions your words.',
    'Returns up to top_k chunks, best first: id, title ("path: lines a-b"), url, a short snippet, score, the source that found it,',
    'and metadata (0-based line/byte bounds, language, symbols, explain.hit_reason, related past tasks).',
    'Then call `fetch` with the ids you need to read the full text. Filters narrow by language, path globs or exact symbols.',
    '`match` is "weak" when nothing really answers the query: `match_reason` says why and `unknown_terms` lists words the codebase and its history never use; treat such results as guesses.',
    'The text output ends with a search id you can pass to `rate_result`.',
  ].join(' ');
  readonly input = McpSearchInputSchema;
  readonly output = McpSearchOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };

  constructor(private readonly search: SearchService) {}

  async run(args: z.output<typeof McpSearchInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpSearchOutput>> {
    const f = args.filters;
    const filters = f
      ? compact({ repos: f.repos?.length ? f.repos : undefined, langs: normaliseLanguages([...(f.langs ?? []), ...(f.lang ?? [])]), include: f.include?.length ? f.include : undefined, exclude: f.exclude?.length ? f.exclude : undefined, symbols: f.symbols?.length ? f.symbols.map((s) => s.replace(/^symbol:/, '')) : undefined })
      : {};
    const request = SearchRequestSchema.parse({ query: args.query, top_k: args.top_k, rerank: args.rerank, granularity: 'chunk', ...(Object.keys(filters).length ? { filters } : {}) });
    const res = await this.search.search(ctx.auth.workspaceId, request, { principal: ctx.auth.principal, signal: ctx.signal });
    const structured: McpSearchOutput = { results: res.results.filter(hasText).map(toMcpResult), queryEcho: args.query, top_k: args.top_k, match: res.match, ...(res.match_reason ? { match_reason: res.match_reason } : {}), ...(res.unknown_terms ? { unknown_terms: res.unknown_terms } : {}), limits: res.limits, ...(res.external ? { external: res.external } : {}) };
    return { structured, text: renderSearch(structured, res.search_id), searchId: res.search_id, resultCount: structured.results.length };
  }
}

/**
 * A chunk with no text (a file chunk fully covered by its classes) or only headings and rules
 * (a Markdown section whose body is in its sub-sections) tells an agent nothing; it is left out.
 */
export const hasText = (r: SearchResult) => {
  const chunk = r.chunk;
  if (!chunk || chunk.end_byte <= chunk.start_byte) return false;
  const lines = (chunk.snippet ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.length === 0 || lines.some((l) => !/^#{1,6}(\s|$)/.test(l) && !/^([-=*_])\1{2,}$/.test(l));
};

export function toMcpResult(r: SearchResult): McpSearchResult {
  const c = r.chunk!;
  const top = [...r.explain.sources].sort((a, b) => b.share - a.share || a.rank - b.rank)[0];
  return {
    id: c.id,
    title: chunkTitle(r.path, c.start_line, c.end_line),
    url: chunkUrl(r.repo_name, r.path, c.start_line, c.end_line),
    snippet: c.snippet,
    score: r.score,
    source: top?.source ?? 'unknown',
    metadata: {
      uri: r.path,
      start_line: c.start_line,
      end_line: c.end_line,
      start_byte: c.start_byte,
      end_byte: c.end_byte,
      lang: r.lang,
      symbols: c.symbol ? [c.symbol] : [],
      explain: {
        hit_reason: r.explain.hit_reasons,
        sources: r.explain.sources,
        related_tasks: r.explain.related_tasks.map((t) => ({ task_id: t.task_id, title: t.title, score: t.score })),
        chunk_type: c.chunk_type,
        ast: c.chunk_type !== 'window',
        ...(r.explain.ranker ? { ranker: r.explain.ranker } : {}),
        ...(r.explain.title_search ? { title_search: r.explain.title_search } : {}),
      },
    },
    ...(r.rerank ? { rerank: r.rerank } : {}),
  };
}

function renderSearch(out: McpSearchOutput, searchId: string): string {
  if (!out.results.length && !out.external?.length) {
    return [`No results for "${out.queryEcho}".`, 'Try fewer or different words, an identifier name, or remove filters.', ...(out.limits.length ? [`Limits: ${out.limits.join('; ')}`] : []), `search_id: ${searchId}`].join('\n');
  }
  const lines = [`${out.results.length} result(s) for "${out.queryEcho}" (call fetch with objectIds to read full chunks):`, ''];
  if (out.match === 'weak') lines.splice(1, 0, `${describeWeakMatch(out.match_reason, out.results[0]?.score, out.unknown_terms)} Rephrase with identifiers or file names if they look unrelated.`);
  out.results.forEach((r, i) => {
    const tasks = r.metadata.explain.related_tasks.slice(0, 2).map((t) => `${t.task_id} "${t.title}"`);
    const band = r.rerank ? `, ${r.rerank.band} ${r.rerank.score.toFixed(1)}/4${r.rerank.below_threshold ? ' (below threshold)' : ''}` : '';
    lines.push(`${i + 1}. ${r.title}  [${r.metadata.lang ?? 'text'}, score ${r.score.toFixed(4)}, via ${r.source}${band}]`);
    lines.push(`   id: ${r.id}   ${r.url}`);
    if (r.metadata.symbols.length) lines.push(`   symbol: ${r.metadata.symbols.join(', ')}`);
    if (tasks.length) lines.push(`   past work: ${tasks.join('; ')}`);
    const ranker = r.metadata.explain.ranker;
    if (ranker) {
      const title = r.metadata.explain.title_search;
      lines.push(`   ranked by: ${ranker.contributions.slice(0, 3).map((c) => `${c.feature} ${c.value >= 0 ? '+' : ''}${c.value.toFixed(2)}`).join(', ')}${title ? `; title alone ${title.title_score.toFixed(2)}, whole text ${title.text_score.toFixed(2)}` : ''}`);
    }
    const lifted = codeFirstLiftedFrom(r.metadata.explain.hit_reason);
    if (lifted) lines.push(`   code first: the query reads as a problem report; this code file was #${lifted}, behind tests or docs`);
    const routine = routineHit(r.metadata.explain.hit_reason);
    if (routine) lines.push(`   ${describeRoutineHit(routine)}`);
    const definition = definitionHit(r.metadata.explain.hit_reason);
    if (definition) lines.push(`   ${describeDefinitionHit(definition)}`);
    lines.push(...firstLines(r.snippet, 4).split('\n').map((l) => `   | ${l}`), '');
  });
  if (out.external?.length) {
    lines.push(`${out.external.length} result(s) from external MCP sources (not in the index; read them at their URL):`, '');
    for (const e of out.external) {
      const band = e.rerank ? `, ${e.rerank.band} ${e.rerank.score.toFixed(1)}/4` : '';
      lines.push(`E${e.rank}. ${e.title}  [via ${e.search_source} (${e.metadata.mcp_tool})${band}]`);
      if (e.source) lines.push(`   ${e.source}`);
      lines.push(...firstLines(e.text, 4).split('\n').map((l) => `   | ${l}`), '');
    }
  }
  if (out.limits.length) lines.push(`Limits: ${out.limits.join('; ')}`);
  lines.push(`search_id: ${searchId}`);
  return lines.join('\n');
}
