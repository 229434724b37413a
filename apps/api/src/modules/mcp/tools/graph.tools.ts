import { Injectable } from '@nestjs/common';
import { McpGraphInputSchema, McpGraphOutputSchema, type McpGraphOutput, type McpGraphResult } from '@sextant/contracts';
import { detectLanguage } from '@sextant/indexer';
import type { z } from 'zod';
import { CodeGraphService, mapGraphSymbol, type SymbolEdgeDirection } from '../../code-graph/code-graph.service';
import { RepositoriesRepository } from '../../indexing/repositories/repositories.repository';
import type { GraphEdgeRow } from '../../indexing/repositories/code-graph.repository';
import { McpToolError, type McpCallContext, type McpTool, type McpToolOutcome } from '../mcp-tool';
import { chunkUrl, round } from './tool-format';

/** The shared use case of find_references, find_callers and find_callees. */
@Injectable()
export class GraphNavigationRunner {
  constructor(
    private readonly graph: CodeGraphService,
    private readonly repos: RepositoriesRepository,
  ) {}

  async run(direction: SymbolEdgeDirection, args: z.output<typeof McpGraphInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpGraphOutput>> {
    const ws = ctx.auth.workspaceId;
    const symbols = await this.graph.resolveSymbols(ws, args.symbol, args.repos);
    if (!symbols.length) {
      throw new McpToolError(
        `No definition named "${args.symbol}" in the code graph.`,
        'Pass a symbol id from an earlier result, a qualified name like "src/auth/session.ts:SessionStore.refresh", or a bare function/class name; search_functions finds definitions by what they do.',
      );
    }
    const names = new Map((await this.repos.list(ws)).map((r) => [r.id, r.name]));
    const limits: string[] = [];
    if (symbols.length > 1) limits.push(`"${args.symbol}" names ${symbols.length} definitions; sites of all of them are listed (pass a symbol id to narrow)`);
    const rows: Array<{ edge: GraphEdgeRow; target: string }> = [];
    for (const s of symbols) {
      for (const edge of await this.graph.edgeRows(ws, s.id, direction, args.top_k)) rows.push({ edge, target: s.qualified });
    }
    rows.sort((a, b) => b.edge.confidence - a.edge.confidence || a.edge.fromPath.localeCompare(b.edge.fromPath) || a.edge.line - b.edge.line);
    if (rows.length > args.top_k) limits.push(`showing ${args.top_k} of at least ${rows.length} sites; raise top_k for more`);
    const results = rows.slice(0, args.top_k).map(({ edge, target }) => toResult(direction, edge, target, names.get(edge.repositoryId) ?? null));
    const structured: McpGraphOutput = { symbols: symbols.map(mapGraphSymbol), results, queryEcho: args.symbol, top_k: args.top_k, limits };
    return { structured, text: render(direction, structured), resultCount: results.length };
  }
}

function toResult(direction: SymbolEdgeDirection, edge: GraphEdgeRow, target: string, repository: string | null): McpGraphResult {
  const other = edge.other;
  const short = (q: string | undefined) => (q ? q.slice(q.indexOf(':') + 1) : 'top-level code');
  if (direction === 'callees') {
    const callee = other!;
    return {
      id: callee.id,
      title: `${callee.path}: lines ${callee.startLine + 1}-${callee.endLine + 1}`,
      url: chunkUrl(repository, callee.path, callee.startLine, callee.endLine),
      snippet: `${callee.kind} ${short(callee.qualified)}, called by ${short(target)} at ${edge.fromPath}:${edge.line + 1}`,
      score: round(edge.confidence),
      source: 'file.graph',
      metadata: {
        uri: callee.path,
        start_line: callee.startLine,
        end_line: callee.endLine,
        start_byte: callee.startByte,
        end_byte: callee.endByte,
        lang: detectLanguage(callee.path),
        symbols: [callee.qualified],
        explain: { hit_reason: [`graph:callee${edge.confidence < 1 ? ':ambiguous' : ''}`], edge_kind: edge.kind as McpGraphResult['metadata']['explain']['edge_kind'], confidence: edge.confidence },
      },
    };
  }
  const verb = edge.kind === 'import' ? 'imports' : edge.kind === 'reference' ? 'references' : 'calls';
  return {
    id: other?.id ?? `${edge.fromPath}#L${edge.line + 1}`,
    title: `${edge.fromPath}: line ${edge.line + 1}`,
    url: chunkUrl(repository, edge.fromPath, edge.line, edge.line),
    snippet: `${short(other?.qualified)} ${verb} ${short(target)} at ${edge.fromPath}:${edge.line + 1}:${edge.column + 1}`,
    score: round(edge.confidence),
    source: 'file.graph',
    metadata: {
      uri: edge.fromPath,
      start_line: edge.line,
      end_line: edge.line,
      lang: detectLanguage(edge.fromPath),
      symbols: other ? [other.qualified] : [],
      explain: { hit_reason: [`graph:${edge.kind}${edge.confidence < 1 ? ':ambiguous' : ''}`], edge_kind: edge.kind as McpGraphResult['metadata']['explain']['edge_kind'], confidence: edge.confidence },
    },
  };
}

function render(direction: SymbolEdgeDirection, out: McpGraphOutput): string {
  const what = direction === 'callees' ? 'callee(s)' : direction === 'callers' ? 'call site(s)' : 'reference(s)';
  const lines = [`${out.results.length} ${what} of ${out.symbols.map((s) => s.qualified_name).join(', ')}:`, ''];
  out.results.forEach((r, i) => {
    lines.push(`${i + 1}. ${r.title}  (confidence ${r.score})`);
    lines.push(`   ${r.snippet}`, `   id: ${r.id}   ${r.url}`, '');
  });
  if (!out.results.length) lines.push(direction === 'callees' ? 'It calls nothing the index knows (calls into external libraries are not linked).' : 'Nothing in the indexed repositories uses it.');
  if (out.limits.length) lines.push(`Limits: ${out.limits.join('; ')}`);
  return lines.join('\n');
}

const INPUT_HINT = 'Give "symbol" as an id from an earlier result, a qualified name ("path:Class.method") or a bare name.';

@Injectable()
export class FindReferencesTool implements McpTool<typeof McpGraphInputSchema, typeof McpGraphOutputSchema> {
  readonly name = 'find_references' as const;
  readonly title = 'Find references to a symbol';
  readonly description = `Every place that calls, references or imports a function, method or class, across files (resolved through imports, aliases and re-exports; an ambiguous name is listed with a confidence below 1). Use it before changing a definition. Returns sites with 0-based lines. ${INPUT_HINT}`;
  readonly input = McpGraphInputSchema;
  readonly output = McpGraphOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };
  constructor(private readonly runner: GraphNavigationRunner) {}
  run(args: z.output<typeof McpGraphInputSchema>, ctx: McpCallContext) {
    return this.runner.run('references', args, ctx);
  }
}

@Injectable()
export class FindCallersTool implements McpTool<typeof McpGraphInputSchema, typeof McpGraphOutputSchema> {
  readonly name = 'find_callers' as const;
  readonly title = 'Find callers of a function';
  readonly description = `The functions and methods that call a given one, with each call site (0-based line and column) and a confidence. Use it to follow a traceback upwards or to see who depends on a behaviour. ${INPUT_HINT}`;
  readonly input = McpGraphInputSchema;
  readonly output = McpGraphOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };
  constructor(private readonly runner: GraphNavigationRunner) {}
  run(args: z.output<typeof McpGraphInputSchema>, ctx: McpCallContext) {
    return this.runner.run('callers', args, ctx);
  }
}

@Injectable()
export class FindCalleesTool implements McpTool<typeof McpGraphInputSchema, typeof McpGraphOutputSchema> {
  readonly name = 'find_callees' as const;
  readonly title = 'Find what a function calls';
  readonly description = `The definitions a function or method calls (inside the indexed repositories), each with its 0-based line range and a confidence. Use it to read down a call chain. ${INPUT_HINT}`;
  readonly input = McpGraphInputSchema;
  readonly output = McpGraphOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };
  constructor(private readonly runner: GraphNavigationRunner) {}
  run(args: z.output<typeof McpGraphInputSchema>, ctx: McpCallContext) {
    return this.runner.run('callees', args, ctx);
  }
}
