/** A tool as `tools/list` describes it (only what choosing needs). */
export interface ListedTool {
  name: string;
  inputSchema?: { type?: string; properties?: Record<string, unknown>; required?: string[] };
}

/** Seed 002's order for a GitHub-like server; any other tool that takes a query comes after. */
export const SEARCH_TOOL_PREFERENCE = ['search_code', 'search_issues', 'search_repositories'] as const;

const QUERY_PROPERTIES = ['query', 'q', 'search', 'search_query', 'searchQuery', 'text', 'keywords', 'term', 'question', 'prompt'];
const LIMIT_PROPERTIES = ['perPage', 'per_page', 'limit', 'top_k', 'max_results', 'maxResults', 'count', 'k'];

export interface ChosenSearchTool {
  name: string;
  /** The argument the query goes in. */
  queryArgument: string;
  /** The argument that caps results, when the tool has one. */
  limitArgument: string | null;
}

/**
 * The search tool of a server: `search_code` > `search_issues` > `search_repositories`, then the
 * first tool (in listed order) whose input schema has a query-like string property; null when
 * none takes a query.
 *
 * @example chooseSearchTool([{ name: 'search_issues', … }, { name: 'search_code', … }]) // { name: 'search_code', queryArgument: 'query', … }
 */
export function chooseSearchTool(tools: readonly ListedTool[]): ChosenSearchTool | null {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const name of SEARCH_TOOL_PREFERENCE) {
    const tool = byName.get(name);
    if (tool) return describe(tool, queryArgumentOf(tool) ?? 'query');
  }
  for (const tool of tools) {
    const arg = queryArgumentOf(tool);
    if (arg) return describe(tool, arg);
  }
  return null;
}

function describe(tool: ListedTool, queryArgument: string): ChosenSearchTool {
  const props = tool.inputSchema?.properties ?? {};
  return { name: tool.name, queryArgument, limitArgument: LIMIT_PROPERTIES.find((p) => isType(props[p], 'number') || isType(props[p], 'integer')) ?? null };
}

function queryArgumentOf(tool: ListedTool): string | null {
  const props = tool.inputSchema?.properties ?? {};
  return QUERY_PROPERTIES.find((p) => isType(props[p], 'string')) ?? null;
}

const isType = (schema: unknown, type: string) => typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === type;
