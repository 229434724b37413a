import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every Sextant key starts with this, so leaked keys are recognisable (as GitHub's `ghp_`). */
export const API_KEY_PREFIX = 'sxt_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40; // ~238 bits
const KEY_PATTERN = /^sxt_([0-9a-f]{8})_([0-9A-Za-z]{32,128})$/;

export interface GeneratedApiKey {
  /** The full key, shown once to its creator and never stored. */
  key: string;
  /** 8 hex characters; stored and indexed so a key is found without scanning. */
  prefix: string;
  /** Hex SHA-256 of the full key: the only form that is stored. */
  hash: string;
}

/**
 * Makes a new key `sxt_<8 hex prefix>_<40 base62 secret>`.
 *
 * @example
 * const { key, prefix, hash } = generateApiKey();
 * // store { prefix, hash }; show `key` once
 */
export function generateApiKey(): GeneratedApiKey {
  const prefix = randomBytes(4).toString('hex');
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(SECRET_LENGTH)) {
      // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  const key = `${API_KEY_PREFIX}${prefix}_${secret}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** The prefix of a well-formed key, or undefined for anything that is not shaped like one. */
export function parseApiKey(token: string): { prefix: string } | undefined {
  const match = KEY_PATTERN.exec(token);
  return match ? { prefix: match[1] } : undefined;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares a presented key with a stored hash in constant time. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
