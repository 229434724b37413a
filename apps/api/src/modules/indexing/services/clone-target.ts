import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DomainError, DomainErrorCode } from '../../../common/domain-error';

/** Where a `git_url` points: a local path (`file://`) or a host on the network. */
export type CloneTarget =
  | { kind: 'file'; path: string }
  | { kind: 'network'; protocol: 'https' | 'http' | 'ssh' | 'git'; host: string; port: number };

const DEFAULT_PORTS = { https: 443, http: 80, ssh: 22, git: 9418 } as const;

/**
 * Reads a git URL already checked by `validateGitUrl`: `file:///abs/path`, `https://host[:port]/…`,
 * `http://…`, `ssh://[user@]host[:port]/…`, `git://host/…` or scp-like `user@host:path`.
 *
 * @example
 * parseCloneTarget('git@github.com:acme/shop.git') // { kind: 'network', protocol: 'ssh', host: 'github.com', port: 22 }
 */
export function parseCloneTarget(url: string): CloneTarget {
  if (/^file:\/\//i.test(url)) {
    try {
      return { kind: 'file', path: fileURLToPath(url) };
    } catch {
      throw new DomainError(DomainErrorCode.InvalidInput, `Not a valid file:// URL: ${url} (use file:///absolute/path)`, { git_url: url });
    }
  }
  const scp = /^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):/.exec(url);
  if (scp) return { kind: 'network', protocol: 'ssh', host: scp[1].toLowerCase(), port: 22 };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DomainError(DomainErrorCode.InvalidInput, `Not a valid git URL: ${url}`, { git_url: url });
  }
  const protocol = parsed.protocol.replace(/:$/, '') as keyof typeof DEFAULT_PORTS;
  if (!(protocol in DEFAULT_PORTS)) throw new DomainError(DomainErrorCode.InvalidInput, `Unsupported git URL scheme ${parsed.protocol} in ${url}`, { git_url: url });
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!host) throw new DomainError(DomainErrorCode.InvalidInput, `The git URL ${url} names no host`, { git_url: url });
  return { kind: 'network', protocol, host, port: parsed.port ? Number(parsed.port) : DEFAULT_PORTS[protocol] };
}

const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv6');

/** Loopback, private, link-local, carrier-grade NAT, multicast or unspecified (IPv4-mapped IPv6 included). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Refuses network clones that would reach this machine or its private network (a blind
 * SSRF and port-scan oracle otherwise) unless the operator lists the host in
 * SEXTANT_CLONE_ALLOWED_HOSTS. Checked after DNS resolution, on every address the name has;
 * returns the address git must use (pinned for http(s), so a second lookup cannot differ).
 */
export async function checkNetworkTarget(target: Extract<CloneTarget, { kind: 'network' }>, allowedHosts: readonly string[], resolve: (host: string) => Promise<string[]> = resolveAll): Promise<string | null> {
  if (allowedHosts.includes(target.host)) return null;
  let addresses: string[];
  try {
    addresses = isIP(target.host) ? [target.host] : await resolve(target.host);
  } catch {
    throw new DomainError(DomainErrorCode.InvalidInput, `Cannot resolve the git host ${target.host}`, { host: target.host });
  }
  if (!addresses.length) throw new DomainError(DomainErrorCode.InvalidInput, `Cannot resolve the git host ${target.host}`, { host: target.host });
  const internal = addresses.filter(isInternalAddress);
  if (internal.length) {
    throw new DomainError(DomainErrorCode.Forbidden, `Cloning from ${target.host} is refused: it resolves to an internal address (${internal.join(', ')}); an operator can allow it with SEXTANT_CLONE_ALLOWED_HOSTS`, {
      host: target.host,
    });
  }
  return addresses[0];
}

/** A resolver that does not answer makes registration fail with a reason instead of hanging the request. */
const DNS_TIMEOUT_MS = 5000;

async function resolveAll(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), DNS_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([lookup(host, { all: true, verbatim: true }), timeout])).map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}
