import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { checkNetworkTarget } from '../indexing/services/clone-target';

/**
 * The SSRF rule of git clones applied to an MCP server URL: hosts that resolve to loopback,
 * private or link-local addresses are refused unless listed in SEXTANT_CLONE_ALLOWED_HOSTS.
 */
export async function checkOutboundUrl(url: string, allowedHosts: readonly string[]): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DomainError(DomainErrorCode.InvalidInput, `Not a valid URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new DomainError(DomainErrorCode.InvalidInput, `MCP server URLs must be http(s): ${url}`);
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const protocol = parsed.protocol === 'https:' ? 'https' : 'http';
  try {
    await checkNetworkTarget({ kind: 'network', protocol, host, port: parsed.port ? Number(parsed.port) : protocol === 'https' ? 443 : 80 }, allowedHosts);
  } catch (err) {
    if (err instanceof DomainError) throw new DomainError(err.code, err.message.replace(/^Cloning from/, 'Connecting to').replace('git host', 'MCP server host'), err.details);
    throw err;
  }
}
