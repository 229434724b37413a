import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { AuthContext } from './auth-context';
import { ApiKeysRepository } from './api-keys.repository';

/** How often keys behind open connections are re-checked; revocations in this process are seen at once. */
export const REVOCATION_POLL_MS = 1000;

type OnRevoked = () => void;

/**
 * Ends long-lived connections (sockets, SSE streams) whose API key was revoked or deleted.
 * A revoke through this process (`DELETE /v1/keys/:id`) ends them at once; one made by another
 * process on the same database (`sextant keys revoke`) within {@link REVOCATION_POLL_MS}, by
 * re-reading the keys that have open connections. Local-mode callers have no key to revoke.
 */
@Injectable()
export class KeyRevocations implements OnModuleDestroy {
  private readonly logger = new Logger(KeyRevocations.name);
  private readonly watchers = new Map<string, Set<OnRevoked>>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(private readonly keys: ApiKeysRepository) {}

  /** Calls `onRevoked` once if the caller's key stops being valid; returns the function that stops watching. */
  watch(auth: AuthContext, onRevoked: OnRevoked): () => void {
    const keyId = keyIdOf(auth);
    if (!keyId) return () => undefined;
    let set = this.watchers.get(keyId);
    if (!set) this.watchers.set(keyId, (set = new Set()));
    const once: OnRevoked = () => {
      unwatch();
      onRevoked();
    };
    set.add(once);
    const unwatch = () => {
      const current = this.watchers.get(keyId);
      current?.delete(once);
      if (current && !current.size) this.watchers.delete(keyId);
      if (!this.watchers.size) this.stop();
    };
    this.start();
    return unwatch;
  }

  /** The key `keyId` is no longer valid: end everything open with it now. */
  revoked(keyId: string): void {
    const set = this.watchers.get(keyId);
    if (!set) return;
    this.logger.log(`Closing ${set.size} open connection(s) of revoked key ${keyId}`);
    for (const onRevoked of [...set]) {
      try {
        onRevoked();
      } catch (err) {
        this.logger.warn({ err }, 'Closing a connection of a revoked key failed');
      }
    }
  }

  /** Re-reads the watched keys; exported for tests that cannot wait for the timer. */
  async poll(): Promise<void> {
    if (this.polling || !this.watchers.size) return;
    this.polling = true;
    try {
      const watched = [...this.watchers.keys()];
      const active = new Set(await this.keys.activeAmong(watched));
      for (const keyId of watched) if (!active.has(keyId)) this.revoked(keyId);
    } catch (err) {
      // The database may be briefly unavailable; connections stay open until the next poll can tell.
      this.logger.warn({ err }, 'Could not re-check API keys of open connections');
    } finally {
      this.polling = false;
    }
  }

  onModuleDestroy(): void {
    this.stop();
    this.watchers.clear();
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), REVOCATION_POLL_MS);
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function keyIdOf(auth: AuthContext): string | null {
  return auth.principal.startsWith('key:') ? auth.principal.slice('key:'.length) : null;
}
