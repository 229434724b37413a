import type { Command } from 'commander';
import { HISTORY_ONLY_NOTE, HISTORY_ONLY_REASON, MAX_QUERY_CHARS, SearchRequestSchema, codeFirstLiftedFrom, definitionHit, describeDefinitionHit, describeRoutineHit, describeWeakMatch, routineHit, type SearchResponse } from '@sextant/contracts';
import { DomainError } from '../../common/domain-error';
import { SearchService } from '../../modules/fusion/search.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';
import { ServerClient, viaServer } from '../server-client';
import { readTextFile, TextFileError } from '../text-file';

const SOURCE_ABBREV: Record<string, string> = { 'file.dense': 'dense', 'file.keyword': 'kw', 'file.symbol': 'sym', 'task.dense': 'task~', 'task.keyword': 'task#', 'file.graph': 'graph' };

/** A readable table: rank, score, location, which sources found it (and at which rank), why. */
export function formatSearchTable(res: SearchResponse): string {
  const flat = res.query.replace(/\s+/g, ' ').trim();
  const query = flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
  const lines = [`${res.results.length} result(s) for "${query}" (${res.query_class}, ${res.strategy}, weights v${res.weights_version}) in ${res.timings_ms.total} ms${res.cached ? ' [cached]' : ''}`];
  if (res.match === 'weak') lines.push(describeWeakMatch(res.match_reason, res.results[0]?.score, res.unknown_terms));
  for (const r of res.results) {
    const where = r.chunk ? `${r.path}:${r.chunk.start_line + 1}-${r.chunk.end_line + 1}` : r.path;
    const sources = r.explain.sources.map((s) => `${SOURCE_ABBREV[s.source] ?? s.source}#${s.rank}`).join(' ');
    const band = r.rerank ? `  [${r.rerank.band} ${r.rerank.score.toFixed(1)}/4${r.rerank.below_threshold ? ', below threshold' : ''}]` : '';
    lines.push(`${String(r.rank).padStart(3)}. ${r.score.toFixed(4)}  ${r.repo_name ? `${r.repo_name}/` : ''}${where}${band}`);
    lines.push(`      sources: ${sources}${r.chunk?.symbol ? `   symbol: ${r.chunk.symbol}` : ''}`);
    const lifted = codeFirstLiftedFrom(r.explain.hit_reasons);
    const named = [...r.explain.hit_reasons.filter((h) => h.startsWith('mention:')), ...(lifted ? [`code first for a problem report (was #${lifted}, behind tests or docs)`] : [])];
    if (named.length) lines.push(`      query evidence: ${named.join('; ')}`);
    const routine = routineHit(r.explain.hit_reasons);
    if (routine) lines.push(`      ${describeRoutineHit(routine)}`);
    const definition = definitionHit(r.explain.hit_reasons);
    if (definition) lines.push(`      ${describeDefinitionHit(definition)}`);
    if (r.explain.hit_reasons.includes(HISTORY_ONLY_REASON)) lines.push(`      ${HISTORY_ONLY_NOTE}`);
    if (r.explain.related_tasks.length) lines.push(`      past work: ${r.explain.related_tasks.slice(0, 2).map((t) => `${t.task_id} "${t.title.slice(0, 60)}"`).join('; ')}`);
    if (r.explain.ranker) {
      const why = r.explain.ranker.contributions.slice(0, 3).map((c) => `${c.feature} ${c.value >= 0 ? '+' : ''}${c.value.toFixed(2)}`).join(', ');
      const title = r.explain.title_search ? `; title alone ${r.explain.title_search.title_score.toFixed(2)}, whole text ${r.explain.title_search.text_score.toFixed(2)}` : '';
      lines.push(`      ranker v${r.explain.ranker.model_version}: ${why}${title}`);
    }
  }
  for (const e of res.external ?? []) {
    const band = e.rerank ? `  [${e.rerank.band} ${e.rerank.score.toFixed(1)}/4]` : '';
    lines.push(`  E${e.rank}. ${e.title}  (external, ${e.search_source})${band}`);
    if (e.source) lines.push(`      ${e.source}`);
  }
  if (res.limits.length) lines.push(`limits: ${res.limits.join('; ')}`);
  const timings = Object.entries(res.timings_ms).map(([k, v]) => `${k} ${v}`).join(', ');
  lines.push(`timings (ms): ${timings}`, `search id: ${res.search_id}`);
  return lines.join('\n');
}

export function registerSearch(program: Command): void {
  program
    .command('search [query]')
    .description('Search code and task history; prints a table of fused results with their sources and scores')
    .option('-k, --top-k <n>', 'number of results (1-100)', '10')
    .option('--query-file <file>', `read the query from a file (an issue report, a traceback; "-" for stdin), up to ${MAX_QUERY_CHARS.toLocaleString('en-US')} characters`)
    .option('-s, --strategy <name>', 'fusion strategy: weighted | rrf | cascade | vote | concat', 'weighted')
    .option('--sources <list>', 'comma-separated sources (file.dense,file.keyword,file.symbol,task.dense,task.keyword,file.graph)')
    .option('--chunks', 'return chunks instead of files')
    .option('--rerank', 'score results 0-4 with the reranker (RERANK_URL, else local) and show their band')
    .option('--rerank-threshold <n>', 'drop or flag results under this score (default RERANK_THRESHOLD, 2.5)')
    .option('--rerank-mode <mode>', 'drop | flag results under the threshold (default RERANK_MODE)')
    .option('--lang <list>', 'comma-separated languages')
    .option('--include <glob...>', 'only paths matching these globs')
    .option('--exclude <glob...>', 'skip paths matching these globs')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'print the full response as JSON')
    .action(async (queryArg: string | undefined, opts: { topK: string; strategy: string; queryFile?: string; sources?: string; chunks?: boolean; rerank?: boolean; rerankThreshold?: string; rerankMode?: string; lang?: string; include?: string[]; exclude?: string[]; workspace: string; json?: boolean }) => {
      if (queryArg !== undefined && opts.queryFile) fail('give the query as an argument or with --query-file, not both', ExitCode.BadInput);
      let query = queryArg;
      if (opts.queryFile) {
        try {
          query = readTextFile(opts.queryFile === '-' ? 0 : opts.queryFile);
        } catch (e) {
          fail(e instanceof TextFileError ? `--query-file ${(e as Error).message}` : `--query-file ${opts.queryFile}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, ExitCode.BadInput);
        }
      }
      if (query === undefined) fail('search needs a query (an argument, or --query-file FILE)', ExitCode.BadInput);
      const request = {
        query,
        top_k: Number(opts.topK),
        strategy: opts.strategy,
        ...(opts.sources ? { sources: opts.sources.split(',').map((s) => s.trim()) } : {}),
        granularity: opts.chunks ? 'chunk' : 'file',
        ...(opts.rerank ? { rerank: true } : {}),
        ...(opts.rerankThreshold !== undefined ? { rerank_threshold: Number(opts.rerankThreshold) } : {}),
        ...(opts.rerankMode !== undefined ? { rerank_mode: opts.rerankMode } : {}),
        ...(opts.lang || opts.include || opts.exclude ? { filters: { ...(opts.lang ? { langs: opts.lang.split(',') } : {}), ...(opts.include ? { include: opts.include } : {}), ...(opts.exclude ? { exclude: opts.exclude } : {}) } } : {}),
      };
      const parsed = SearchRequestSchema.safeParse(request);
      if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; '), ExitCode.BadInput);
      const config = loadConfigOrExit();
      const print = (res: SearchResponse) => void process.stdout.write(`${opts.json ? JSON.stringify(res) : formatSearchTable(res)}\n`);
      // A running server owns the data dir: it has the newest index in memory and warm caches, and records the search.
      const server = ServerClient.find(config, opts.workspace);
      if (server) {
        process.stderr.write(`Searching through the server at ${server.url} (it owns this data dir)\n`);
        print(await viaServer(() => server.request<SearchResponse>('POST', '/v1/search', request)));
        return;
      }
      const ctx = await createCliContext(config);
      try {
        const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace);
        print(await ctx.get(SearchService).search(ws.id, parsed.data, { principal: 'cli' }));
      } catch (err) {
        if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
        throw err;
      } finally {
        await ctx.close();
      }
    });
}
