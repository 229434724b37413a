import type { AppConfig } from '../../config/config.schema';

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']);

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  return LOOPBACK_NAMES.has(h) || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Local mode: the server is reachable only from this machine and `SEXTANT_AUTH` is not
 * `required`, so a request without a key acts as admin of the `default` workspace.
 * Decided once at start-up; keys that are presented are still checked.
 */
export function isLocalMode(config: Pick<AppConfig, 'http' | 'auth'>): boolean {
  return config.auth.mode !== 'required' && isLoopbackHost(config.http.host);
}
