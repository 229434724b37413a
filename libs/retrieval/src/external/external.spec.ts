import { chooseSearchTool } from './choose-search-tool';
import { cosine, mergeByPriority, type MergeEntry } from './merge-by-priority';
import { normalizeToolResult, textOf } from './normalize-tool-result';

const tool = (name: string, props: Record<string, unknown> = { query: { type: 'string' } }) => ({ name, inputSchema: { type: 'object', properties: props } });

describe('chooseSearchTool', () => {
  it('prefers search_code over search_issues over search_repositories, whatever the listed order', () => {
    expect(chooseSearchTool([tool('search_repositories'), tool('search_issues'), tool('search_code', { query: { type: 'string' }, perPage: { type: 'number' } })])).toEqual({ name: 'search_code', queryArgument: 'query', limitArgument: 'perPage' });
    expect(chooseSearchTool([tool('search_repositories'), tool('get_me', {}), tool('search_issues')])?.name).toBe('search_issues');
  });
  it('falls back to the first tool whose schema takes a query-like string, and to none', () => {
    expect(chooseSearchTool([tool('get_file_contents', { path: { type: 'string' } }), tool('lookup', { q: { type: 'string' }, limit: { type: 'integer' } })])).toEqual({ name: 'lookup', queryArgument: 'q', limitArgument: 'limit' });
    expect(chooseSearchTool([tool('get_file_contents', { path: { type: 'string' } }), tool('count', { query: { type: 'number' } })])).toBeNull();
  });
});

describe('normalizeToolResult', () => {
  it('reads a GitHub search_code body (JSON text) into file items with repository, path and URL', () => {
    const body = { total_count: 1, items: [{ name: 'retry.py', path: 'src/retry.py', html_url: 'https://github.com/acme/flow/blob/main/src/retry.py', repository: { full_name: 'acme/flow' }, text_matches: [{ fragment: 'def retry(' }] }] };
    const [item] = normalizeToolResult({ content: [{ type: 'text', text: JSON.stringify(body) }] }, 'search_code');
    expect(item).toMatchObject({ title: 'acme/flow/src/retry.py', text: 'def retry(', url: 'https://github.com/acme/flow/blob/main/src/retry.py', repository: 'acme/flow', path: 'src/retry.py' });
  });
  it('takes plain text as one item and raises on tool errors', () => {
    expect(normalizeToolResult({ content: [{ type: 'text', text: 'just words' }] }, 'lookup')).toEqual([{ title: 'lookup', text: 'just words', url: null, item: 'just words' }]);
    expect(() => normalizeToolResult({ isError: true, content: [{ type: 'text', text: 'rate limited' }] }, 'x')).toThrow('tool error: rate limited');
  });
  it('decodes base64 file contents', () => {
    expect(textOf({ content: [{ type: 'text', text: JSON.stringify({ content: Buffer.from('hello').toString('base64'), encoding: 'base64' }) }] })).toBe('hello');
  });
});

describe('mergeByPriority', () => {
  const v = (...xs: number[]) => Float32Array.from(xs);
  const entry = (value: string, priority: number, rank: number, vector: Float32Array): MergeEntry<string> => ({ value, priority, rank, vector });

  it('puts higher priority first and keeps the higher-priority copy of a duplicate', () => {
    const out = mergeByPriority([entry('index-1', 1, 1, v(1, 0, 0)), entry('mcp-1', 2, 1, v(1, 0.01, 0)), entry('mcp-2', 2, 2, v(0, 1, 0))], { dedup: true, dedupThreshold: 0.95, max: 15 });
    expect(out.kept.map((k) => k.value)).toEqual(['mcp-1', 'mcp-2']);
    expect(out.duplicates.map((d) => [d.dropped.value, d.keptAs.value])).toEqual([['index-1', 'mcp-1']]);
  });
  it('dedups exactly at the threshold, not below it', () => {
    // cos = 0.95 exactly vs just under.
    const a = v(1, 0);
    const at = v(0.95, Math.sqrt(1 - 0.95 ** 2));
    const below = v(0.949, Math.sqrt(1 - 0.949 ** 2));
    expect(cosine(a, at)).toBeCloseTo(0.95, 6);
    expect(mergeByPriority([entry('a', 2, 1, a), entry('b', 1, 1, at)], { dedup: true, dedupThreshold: 0.95 - 1e-9, max: 15 }).kept.map((k) => k.value)).toEqual(['a']);
    expect(mergeByPriority([entry('a', 2, 1, a), entry('b', 1, 1, below)], { dedup: true, dedupThreshold: 0.95, max: 15 }).kept.map((k) => k.value)).toEqual(['a', 'b']);
  });
  it('caps the merged list and can leave duplicates in when dedup is off', () => {
    const many = Array.from({ length: 20 }, (_, i) => entry(`m${i}`, 2, i + 1, v(1, 0)));
    expect(mergeByPriority(many, { dedup: false, dedupThreshold: 0.95, max: 15 }).kept).toHaveLength(15);
    expect(mergeByPriority(many, { dedup: true, dedupThreshold: 0.95, max: 15 }).kept).toHaveLength(1);
  });
});
