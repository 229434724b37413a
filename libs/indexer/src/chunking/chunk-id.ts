import * as crypto from 'node:crypto';

// One-shot `crypto.hash` (Node >= 20.12) is several times cheaper than createHash for short inputs.
const oneShot = (crypto as unknown as { hash?: (algorithm: string, data: string | Buffer, encoding: 'hex' | 'buffer') => string | Buffer }).hash;

function digest(algorithm: 'sha1' | 'sha256', data: string | Buffer, encoding: 'hex' | 'buffer'): string | Buffer {
  if (oneShot) return oneShot(algorithm, data, encoding);
  const h = crypto.createHash(algorithm).update(data);
  return encoding === 'hex' ? h.digest('hex') : h.digest();
}

/** Namespace for every Sextant chunk id (a fixed random UUID). */
export const SEXTANT_CHUNK_NAMESPACE = '6f1c3f0e-5a8b-4c1e-9d7a-2b4e8f0c1a37';

const namespaceBytes = Buffer.from(SEXTANT_CHUNK_NAMESPACE.replace(/-/g, ''), 'hex');

/**
 * RFC 4122 version-5 (SHA-1, name-based) UUID.
 *
 * @example uuidV5('hello', SEXTANT_CHUNK_NAMESPACE) // same string every time
 */
export function uuidV5(name: string, namespace: Buffer = namespaceBytes): string {
  if (namespace !== namespaceBytes || !oneShot) return uuidFromDigest(digest('sha1', Buffer.concat([namespace, Buffer.from(name, 'utf8')]), 'buffer') as Buffer);
  // Hot path (one id per chunk): namespace + name written into a reused buffer, hex digest, and the
  // version/variant bits set on the hex string, instead of two Buffer allocations and a concat.
  const needed = 16 + name.length * 3;
  if (scratch.length < needed) {
    scratch = Buffer.allocUnsafe(Math.max(needed, scratch.length * 2));
    namespaceBytes.copy(scratch, 0);
  }
  const length = scratch.write(name, 16, 'utf8');
  const hex = oneShot('sha1', scratch.subarray(0, 16 + length), 'hex') as string;
  const variant = VARIANT_DIGITS[parseInt(hex[16], 16) & 3];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const VARIANT_DIGITS = '89ab';
let scratch = Buffer.allocUnsafe(1024);
namespaceBytes.copy(scratch, 0);

function uuidFromDigest(hash: Buffer): string {
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Deterministic chunk id: the same workspace/repo/path/kind/symbol/content always gives the same id. */
export function chunkId(parts: {
  workspaceId: string;
  repoId: string;
  path: string;
  chunkType: string;
  symbol: string;
  contentHash: string;
  occurrence?: number;
}): string {
  const name = `${parts.workspaceId}\u0000${parts.repoId}\u0000${parts.path}\u0000${parts.chunkType}\u0000${parts.symbol}\u0000${parts.contentHash}`;
  return uuidV5(parts.occurrence ? `${name}\u0000${parts.occurrence}` : name);
}

export function sha256Hex(text: string): string {
  return digest('sha256', text, 'hex') as string;
}
