import { createHash } from 'node:crypto';

/**
 * SHA-256 (hex) of the exact text that gets embedded. The embedding cache is keyed by
 * (model id, content hash), so a chunk whose text is unchanged is never embedded again,
 * whatever branch, clone or path it came from.
 *
 * @example
 * contentHash('function a() {}') // '5e3b…' (64 hex chars)
 */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
