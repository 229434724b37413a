/** An MCP `tools/call` result (only the parts read here). */
export interface ToolCallResult {
  content?: Array<{ type: string; text?: string; resource?: { uri?: string; text?: string; blob?: string } }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/** One external hit before it becomes a search result. */
export interface ExternalItem {
  title: string;
  text: string;
  /** The item's URL on the server's side (GitHub's html_url), when it has one. */
  url: string | null;
  /** `owner/name` when the item belongs to a repository. */
  repository?: string;
  /** Path inside the repository for file hits (what `get_file_contents` hydrates). */
  path?: string;
  /** The server's own item. */
  item: unknown;
}

/**
 * A search tool's answer -> items. Understands GitHub-style bodies (`{items: [...]}` in
 * structured content or as JSON text), plain arrays, single objects and plain text (one item).
 */
export function normalizeToolResult(result: ToolCallResult, fallbackTitle: string): ExternalItem[] {
  if (result.isError) throw new Error(`tool error: ${textOf(result).slice(0, 300) || 'no message'}`);
  const bodies: unknown[] = [];
  if (result.structuredContent !== undefined && result.structuredContent !== null) bodies.push(result.structuredContent);
  else
    for (const c of result.content ?? []) {
      const text = c.type === 'text' ? c.text : c.type === 'resource' ? c.resource?.text : undefined;
      if (text === undefined) continue;
      bodies.push(parseJson(text) ?? text);
    }
  const items: ExternalItem[] = [];
  for (const body of bodies) {
    const list = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.items) ? body.items : isObject(body) && Array.isArray(body.results) ? body.results : [body];
    for (const entry of list) items.push(typeof entry === 'string' ? { title: fallbackTitle, text: entry, url: null, item: entry } : toItem(entry, fallbackTitle));
  }
  return items.filter((i) => i.text.trim() || i.url);
}

function toItem(entry: unknown, fallbackTitle: string): ExternalItem {
  if (!isObject(entry)) return { title: fallbackTitle, text: String(entry), url: null, item: entry };
  const repo = isObject(entry.repository) ? str(entry.repository.full_name) ?? str(entry.repository.name) : str(entry.repository) ?? str(entry.full_name);
  const path = str(entry.path);
  const fragments = Array.isArray(entry.text_matches) ? entry.text_matches.map((m) => (isObject(m) ? str(m.fragment) : undefined)).filter(Boolean).join('\n…\n') : undefined;
  const text = str(entry.text) ?? str(entry.content) ?? fragments ?? str(entry.snippet) ?? str(entry.body) ?? str(entry.description) ?? JSON.stringify(entry);
  return {
    title: str(entry.title) ?? (path && repo ? `${repo}/${path}` : undefined) ?? path ?? str(entry.full_name) ?? str(entry.name) ?? fallbackTitle,
    text,
    url: str(entry.html_url) ?? str(entry.url) ?? str(entry.link) ?? null,
    ...(repo ? { repository: repo } : {}),
    ...(path ? { path } : {}),
    item: entry,
  };
}

/** The text of a tool result (text parts and embedded text resources; base64 `content` JSON decoded). */
export function textOf(result: ToolCallResult): string {
  const parts: string[] = [];
  for (const c of result.content ?? []) {
    const text = c.type === 'text' ? c.text : c.type === 'resource' ? c.resource?.text : undefined;
    if (text === undefined) continue;
    const json = parseJson(text);
    if (isObject(json) && typeof json.content === 'string') parts.push(json.encoding === 'base64' ? Buffer.from(json.content, 'base64').toString('utf8') : json.content);
    else parts.push(text);
  }
  return parts.join('\n');
}

function parseJson(text: string): unknown {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v.length ? v : undefined);
