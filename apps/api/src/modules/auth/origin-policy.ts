import type { AppConfig } from '../../config/config.schema';
import { isLoopbackHost } from './auth-mode';

/** Which `Host` and `Origin` headers the server accepts (DNS-rebinding and cross-site request protection). */
export interface OriginPolicy {
  /** Lower-case host names (any port) or `host:port`; `*` accepts every host. */
  allowedHosts: string[];
  /** Normalised origins (`scheme://host[:port]`); `*` accepts every origin. */
  allowedOrigins: string[];
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The policy for every surface (REST, SSE, socket.io, MCP): loopback names on any port and
 * the bound HOST (unless it is a wildcard) plus SEXTANT_ALLOWED_HOSTS and
 * SEXTANT_MCP_ALLOWED_HOSTS; loopback origins on any port, the page's own origin, plus
 * SEXTANT_CORS_ORIGINS and SEXTANT_MCP_ALLOWED_ORIGINS.
 *
 * @example
 * const policy = originPolicy(config);
 * hostAllowed('localhost:3000', policy); // true
 */
export function originPolicy(config: Pick<AppConfig, 'http' | 'mcp'>): OriginPolicy {
  return buildPolicy(config.http.host, [...config.mcp.allowedHosts, ...config.http.allowedHosts], [...config.http.corsOrigins, ...config.mcp.allowedOrigins]);
}

function buildPolicy(boundHost: string, extraHosts: readonly string[], extraOrigins: readonly string[]): OriginPolicy {
  const bound = boundHost.trim().toLowerCase();
  const hosts = [...LOOPBACK_HOSTS, ...(WILDCARD_BINDS.has(bound) ? [] : [bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound]), ...extraHosts.map((h) => h.trim().toLowerCase())];
  const origins = extraOrigins.map((o) => (o.trim() === '*' ? '*' : normaliseOrigin(o))).filter((o): o is string => Boolean(o));
  return { allowedHosts: [...new Set(hosts)], allowedOrigins: [...new Set(origins)] };
}

/** True when the `Host` header names an allowed host; a missing Host is refused unless `*` is allowed. */
export function hostAllowed(hostHeader: string | undefined, policy: OriginPolicy): boolean {
  if (policy.allowedHosts.includes('*')) return true;
  if (!hostHeader) return false;
  const host = hostHeader.trim().toLowerCase();
  const name = hostName(host);
  return policy.allowedHosts.some((allowed) => allowed === host || allowed === name);
}

/**
 * True when the request has no `Origin` (non-browser clients: CLIs, IDE agents), comes from
 * the page's own origin (`hostHeader`: the dashboard served by this server), or from a
 * loopback or listed origin. A browser page on any other site is refused.
 */
export function originAllowed(originHeader: string | undefined, policy: OriginPolicy, hostHeader?: string): boolean {
  if (originHeader === undefined || originHeader === '') return true;
  if (policy.allowedOrigins.includes('*')) return true;
  const origin = normaliseOrigin(originHeader);
  if (!origin) return false;
  const url = new URL(origin);
  if (hostHeader && url.host === hostHeader.trim().toLowerCase() && (url.protocol === 'http:' || url.protocol === 'https:')) return true;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''))) return true;
  return policy.allowedOrigins.includes(origin);
}

function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon >= 0 && host.indexOf(':') === colon ? host.slice(0, colon) : host;
}

function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}
