import { McpSearchInputSchema, McpSearchOutputSchema, type SearchResponse, type SearchResult } from '@sextant/contracts';
import type { SearchService } from '../../fusion/search.service';
import { SearchTool } from './search.tool';

const chunk = { id: 'c-1', chunk_type: 'function', symbol: 'parse_cookie', start_line: 3, end_line: 9, start_byte: 40, end_byte: 180, score: 0.8, snippet: 'def parse_cookie(header):\n    return header.split(";")' };

function result(explain: Partial<SearchResult['explain']>): SearchResult {
  return {
    id: 'c-1',
    kind: 'chunk',
    rank: 1,
    score: 0.42,
    repo_id: 'r',
    repo_name: 'shop',
    path: 'src/cookies.py',
    lang: 'python',
    chunk,
    evidence: [chunk],
    explain: { sources: [{ source: 'file.keyword', rank: 1, score: 3.2, share: 1 }], hit_reasons: ['keyword:cookie'], related_tasks: [], prior: 1, score_before_prior: 0.42, ...explain },
  };
}

async function searchWith(r: SearchResult, match: Pick<SearchResponse, 'match' | 'match_reason' | 'unknown_terms'> = { match: 'strong' }) {
  const response = { search_id: 's-1', query: 'q', query_class: 'conceptual', strategy: 'weighted', granularity: 'chunk', weights: {}, weights_version: 1, ...match, results: [r], limits: [], timings_ms: {}, cached: false } as SearchResponse;
  const tool = new SearchTool({ search: async () => response } as unknown as SearchService);
  return tool.run(McpSearchInputSchema.parse({ query: 'Cookies vanish\n\nthe second Cookie header is lost' }), { auth: { workspaceId: 'w', role: 'reader', principal: 'local' }, transport: 'http', callId: '1' });
}

describe('MCP search tool', () => {
  it('tells an agent why the learned ranker placed a result, and what the title search gave it', async () => {
    const ranker = { model_version: 3, rank_score: 1.9, contributions: [{ feature: 'bm25.task.vote', value: 0.81 }, { feature: 'path.stem', value: 0.4 }, { feature: 'kind.test', value: -0.22 }, { feature: 'prior', value: 0.01 }] };
    const title_search = { title_score: 0.41, text_score: 0.22, title_weight: 0.5 };
    const out = await searchWith(result({ ranker, title_search }));
    const structured = McpSearchOutputSchema.parse(out.structured);
    expect(structured.results[0].metadata.explain).toMatchObject({ ranker, title_search });
    expect(out.text).toContain('   ranked by: bm25.task.vote +0.81, path.stem +0.40, kind.test -0.22; title alone 0.41, whole text 0.22');
  });

  it('says nothing about a ranker that did not order the search', async () => {
    const out = await searchWith(result({}));
    expect(out.structured.results[0].metadata.explain.ranker).toBeUndefined();
    expect(out.text).not.toContain('ranked by');
    expect(out.text).not.toContain('code first');
  });

  it('tells an agent when a code file was put ahead of tests because the query is a problem report', async () => {
    const out = await searchWith(result({ hit_reasons: ['keyword:cookie', 'report:code-first:3'] }));
    expect(out.structured.results[0].metadata.explain.hit_reason).toContain('report:code-first:3');
    expect(out.text).toContain('   code first: the query reads as a problem report; this code file was #3, behind tests or docs');
  });

  it('tells an agent why a match is weak: only embeddings, or words that matched a file the ranker finds unlikely', async () => {
    const embeddings = await searchWith(result({}), { match: 'weak', match_reason: 'embedding_only' });
    expect(embeddings.structured).toMatchObject({ match: 'weak', match_reason: 'embedding_only' });
    expect(embeddings.text).toContain('Weak match: no keyword, symbol or past-task hit; these are only the nearest embeddings.');

    const unlikely = await searchWith({ ...result({}), score: 0.031 }, { match: 'weak', match_reason: 'low_relevance' });
    expect(McpSearchOutputSchema.parse(unlikely.structured).match_reason).toBe('low_relevance');
    expect(unlikely.text).toContain('Weak match: words matched, but the learned ranker gives the best result only a 3.1 % chance');
    expect(unlikely.text).not.toContain('no keyword');

    const unknown = await searchWith(result({}), { match: 'weak', match_reason: 'unknown_terms', unknown_terms: ['kubernetes', 'helm'] });
    expect(unknown.structured).toMatchObject({ match_reason: 'unknown_terms', unknown_terms: ['kubernetes', 'helm'] });
    expect(unknown.text).toContain("Weak match: most of the query's words (kubernetes, helm) appear nowhere in the indexed code or its history");

    const strong = await searchWith(result({}));
    expect(strong.text).not.toContain('Weak match');
    expect(strong.structured.match_reason).toBeUndefined();
  });
});
