import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { apiKeyMatches, hashApiKey, parseApiKey } from './api-key-format';
import { ApiKeysRepository } from './api-keys.repository';
import type { AuthContext } from './auth-context';
import { isLocalMode } from './auth-mode';

/** How often `last_used_at` is written per key: often enough to audit, rarely enough not to write on every request. */
const TOUCH_INTERVAL_MS = 60_000;
const DUMMY_HASH = hashApiKey('sxt_00000000_not-a-key');

export const CREATE_KEY_HINT = 'create one with `sextant keys create --workspace default --role admin --name <name>`';

/**
 * Turns a presented credential into an AuthContext. Every surface calls it: the REST
 * guard, the socket.io handshake and the MCP endpoint.
 *
 * @example
 * const auth = await authService.authenticate(bearerToken, { ip: req.ip });
 * await repos.list(auth.workspaceId);
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  /** Decided once at start-up from HOST and SEXTANT_AUTH. */
  readonly localMode: boolean;
  private defaultWorkspaceId?: string;
  private readonly lastTouched = new Map<string, number>();
  private operatorToken?: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeysRepository,
    private readonly workspaces: WorkspacesService,
  ) {
    this.localMode = isLocalMode(config);
  }

  /**
   * No token: admin of `default` in local mode (unless the request was forwarded by a proxy), else Unauthenticated. A token is always
   * checked, even in local mode. Validity is read from the database on every call, so
   * a revocation holds from the next request on, in every process.
   */
  async authenticate(token: string | undefined, source: { ip?: string; forwarded?: boolean; workspaceSlug?: string }): Promise<AuthContext> {
    if (token === undefined || token === '') {
      // Behind a reverse proxy on this machine every remote client would arrive from loopback.
      if (this.localMode && source.forwarded) {
        throw new DomainError(DomainErrorCode.Unauthenticated, `This request came through a proxy (X-Forwarded-For/Forwarded), so local mode does not apply: send "Authorization: Bearer sxt_…" (an admin can ${CREATE_KEY_HINT})`);
      }
      if (this.localMode) return { workspaceId: await this.defaultWorkspace(), role: 'admin', principal: 'local' };
      throw new DomainError(DomainErrorCode.Unauthenticated, `An API key is required: send "Authorization: Bearer sxt_…" (an admin can ${CREATE_KEY_HINT})`);
    }
    if (this.operatorToken && safeEqual(token, this.operatorToken)) {
      // CLI commands and stdio MCP sessions of this machine's operator, acting through the server.
      const workspaceId = source.workspaceSlug ? (await this.workspaces.getBySlug(source.workspaceSlug)).id : await this.defaultWorkspace();
      return { workspaceId, role: 'admin', principal: 'operator' };
    }
    const parsed = parseApiKey(token);
    if (!parsed) {
      this.logger.warn({ ip: source.ip, reason: 'malformed' }, 'Rejected a credential');
      throw new DomainError(DomainErrorCode.Unauthenticated, 'Malformed API key: Sextant keys look like sxt_<8 hex characters>_<secret>');
    }
    const row = await this.keys.findByPrefix(parsed.prefix);
    const matches = apiKeyMatches(token, row?.hash ?? DUMMY_HASH);
    if (!row || !matches) {
      this.logger.warn({ ip: source.ip, reason: 'unknown' }, 'Rejected a credential');
      throw new DomainError(DomainErrorCode.Unauthenticated, 'Invalid API key');
    }
    if (row.revokedAt) {
      this.logger.warn({ ip: source.ip, reason: 'revoked', keyId: row.id }, 'Rejected a credential');
      throw new DomainError(DomainErrorCode.Unauthenticated, `This API key was revoked at ${row.revokedAt.toISOString()}`);
    }
    await this.touch(row.id);
    return { workspaceId: row.workspaceId, role: row.role, principal: `key:${row.id}`, name: row.name };
  }

  /**
   * Refuses to serve a non-loopback address (or `SEXTANT_AUTH=required`) while no
   * active key exists, because nobody could use the server or everybody could.
   */
  async assertReadyToServe(): Promise<void> {
    if (this.localMode) return;
    if ((await this.keys.countActive()) > 0) return;
    const why =
      this.config.auth.mode === 'required'
        ? 'SEXTANT_AUTH=required but no API key exists, so no request could succeed.'
        : `Refusing to listen on ${this.config.http.host} without API keys: that address is reachable from other machines, so every request needs a key, and none exists yet.`;
    throw new DomainError(
      DomainErrorCode.Unauthenticated,
      `${why} First ${CREATE_KEY_HINT} (with the same SEXTANT_DATA_DIR / DATABASE_URL), then start again; or bind to 127.0.0.1 for local use without keys.`,
    );
  }

  /**
   * The token `sextant serve` writes to the data dir's writer file (readable by the same user
   * only): CLI commands present it, with `X-Sextant-Workspace: <slug>`, to act as admin of
   * that workspace through the server instead of writing behind its back.
   */
  setOperatorToken(token: string | undefined): void {
    this.operatorToken = token;
  }

  private async defaultWorkspace(): Promise<string> {
    this.defaultWorkspaceId ??= (await this.workspaces.ensureDefault()).id;
    return this.defaultWorkspaceId;
  }

  /**
   * Awaited (at most once a minute per key) so that a key listing made right after a request
   * shows it; a failed write is logged and never fails the request.
   */
  private async touch(id: string): Promise<void> {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(id, now);
    await this.keys.touch(id, new Date(now)).catch((err: Error) => this.logger.warn(`Could not record last use of key ${id}: ${err.message}`));
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
