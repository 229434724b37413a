/**
 * Stable unsigned 32-bit id of a term (FNV-1a over UTF-8 bytes). Stable across processes
 * and versions, so sparse vectors written today match queries encoded tomorrow.
 *
 * @example
 * termId('getuserbyid') // same number on every machine
 */
export function termId(term: string): number {
  let h = 0x811c9dc5;
  const bytes = Buffer.from(term, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
