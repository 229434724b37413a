import { MASKED_SECRET, type McpSource, type McpSourceTransport } from '@sextant/contracts';
import type { McpSourceEntity } from './mcp-source.entity';

/** The configured source with its stored (secret) transport settings, for the connection pool. */
export interface McpSourceConfig {
  id: string;
  workspaceId: string;
  name: string;
  /** `mcp.<name>`: the search source id. */
  source: string;
  transport: McpSourceTransport;
  enabled: boolean;
  priority: number;
  resultLimit: number;
  timeoutMs: number;
  updatedAt: Date;
}

export const searchSourceOf = (name: string) => `mcp.${name}`;

/** `open` decrypts the stored transport (see SourceSecrets). */
export function toSourceConfig(row: McpSourceEntity, open: (stored: string) => string): McpSourceConfig {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    source: searchSourceOf(row.name),
    transport: JSON.parse(open(row.transport)) as McpSourceTransport,
    enabled: Boolean(row.enabled),
    priority: Number(row.priority),
    resultLimit: row.resultLimit,
    timeoutMs: row.timeoutMs,
    updatedAt: row.updatedAt,
  };
}

/** What the API shows: every env and header value masked (they hold tokens). */
export function mapMcpSource(row: McpSourceEntity, open: (stored: string) => string): McpSource {
  const c = toSourceConfig(row, open);
  return {
    id: c.id,
    name: c.name,
    source: c.source,
    transport: maskTransport(c.transport),
    enabled: c.enabled,
    priority: c.priority,
    result_limit: c.resultLimit,
    timeout_ms: c.timeoutMs,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

function maskTransport(t: McpSourceTransport): McpSourceTransport {
  const mask = (m: Record<string, string>) => Object.fromEntries(Object.keys(m).map((k) => [k, MASKED_SECRET]));
  return t.type === 'stdio' ? { ...t, env: mask(t.env) } : { ...t, headers: mask(t.headers) };
}
