import { Inject, Injectable } from '@nestjs/common';
import { McpDocsInputSchema, McpDocsOutputSchema, type McpDocsOutput } from '@sextant/contracts';
import { applyPriors, CHUNK_INDEX, type ChunkIndex, type KeywordMode, type StructuralPriors } from '@sextant/retrieval';
import { STRUCTURAL_PRIORS } from '../../fusion/structural-priors.provider';
import type { z } from 'zod';
import { IndexingService } from '../../indexing/services/indexing.service';
import type { McpCallContext, McpTool, McpToolOutcome } from '../mcp-tool';
import { chunkUrl, firstLines, round } from './tool-format';

/** What counts as documentation: Markdown (chunked by headings) and plain-text docs (line windows). */
export const DOC_GLOBS = ['**/*.{md,markdown,mdx,rst,adoc,txt}'];

const DEFAULT_DOCS_TOP_K = 10;

/**
 * `search_docs` (seed 001): BM25 keyword search over documentation chunks with an explicit
 * AND / OR / PHRASE mode, ranked by BM25 times the structural path prior (core docs above
 * archived ones).
 */
@Injectable()
export class SearchDocsTool implements McpTool<typeof McpDocsInputSchema, typeof McpDocsOutputSchema> {
  readonly name = 'search_docs' as const;
  readonly title = 'Search documentation';
  readonly description = [
    'Keyword search over the documentation (Markdown, reStructuredText, AsciiDoc, text files): READMEs, guides, ADRs, runbooks.',
    'mode AND (default) needs every word — precise; OR needs any word — broad, use it when AND finds nothing; PHRASE needs the',
    'words consecutively in order — for exact wording. Returns sections best first with path, heading path (section),',
    'a snippet, a score and 0-based line bounds; `fetch` an id for the whole section.',
  ].join(' ');
  readonly input = McpDocsInputSchema;
  readonly output = McpDocsOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };

  constructor(
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
    private readonly indexing: IndexingService,
    @Inject(STRUCTURAL_PRIORS) private readonly priors: StructuralPriors,
  ) {}

  async run(args: z.output<typeof McpDocsInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpDocsOutput>> {
    const mode = args.mode.toLowerCase() as KeywordMode;
    const topK = args.top_k ?? args.limit ?? DEFAULT_DOCS_TOP_K;
    const query = args.mode === 'PHRASE' ? args.query.replace(/^["'“]+|["'”]+$/g, '') : args.query;
    const [hits, repos] = await Promise.all([
      this.chunks.searchKeyword(query, { workspaceId: ctx.auth.workspaceId, include: DOC_GLOBS }, topK * 3, { mode }),
      this.indexing.list(ctx.auth.workspaceId),
    ]);
    const names = new Map(repos.map((r) => [r.id, r.name]));
    const ranked = applyPriors(hits, this.priors, (h) => h.payload.path).slice(0, topK);
    const structured: McpDocsOutput = {
      query: args.query,
      mode: args.mode,
      results: ranked.map((h) => {
        const p = h.payload;
        const repository = names.get(p.repoId) ?? null;
        return {
          id: h.id,
          repository,
          path: p.path,
          section: p.chunkType === 'section' ? sectionPath(p.symbol ?? p.name ?? p.path, p.path) : p.path,
          url: chunkUrl(repository, p.path, p.startLine, p.endLine),
          snippet: firstLines(p.content, 12),
          score: round(h.score),
          start_line: p.startLine,
          end_line: p.endLine,
        };
      }),
    };
    return { structured, text: render(structured), resultCount: structured.results.length };
  }
}

/** Section symbols are qualified by their file (`docs/guide.md:Guide > Sessions`); the heading path is the part after it. */
function sectionPath(symbol: string, path: string): string {
  return symbol.startsWith(`${path}:`) ? symbol.slice(path.length + 1) : symbol;
}

function render(out: McpDocsOutput): string {
  if (!out.results.length) {
    const hint = out.mode === 'AND' ? 'No document section contains every word; try mode OR, or fewer words.' : out.mode === 'PHRASE' ? 'No section contains that exact phrase; try mode AND.' : 'No documentation matches any of these words.';
    return `No documentation found for "${out.query}" (mode ${out.mode}). ${hint}`;
  }
  const lines = [`${out.results.length} documentation section(s) for "${out.query}" (mode ${out.mode}):`, ''];
  out.results.forEach((r, i) => {
    lines.push(`${i + 1}. ${r.path} — ${r.section}  (score ${r.score})`, `   id: ${r.id}   ${r.url}`);
    lines.push(...firstLines(r.snippet, 4).split('\n').map((l) => `   | ${l}`), '');
  });
  return lines.join('\n');
}
