import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;
/** Random bytes drawn 4 KB at a time (one system call per 512 ids, not per id). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/**
 * A UUID with the version 7 layout (RFC 9562): 48-bit Unix milliseconds, then a 12-bit counter
 * that keeps ids of the same millisecond in creation order, then 62 random bits. Rows keyed by
 * these ids land at the right edge of the primary-key index instead of at random leaf pages: for
 * the 250 pool rows of one search that is a few dirty pages per commit instead of ~250 (≈ 1 MB of
 * WAL and a checkpoint every few searches with random v4 ids on SQLite).
 *
 * @example
 * timeOrderedId(); // '019aab3c-5e21-7000-9f3b-2c81d04e6a17'
 */
export function timeOrderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // More than 4096 ids in one millisecond: borrow the next millisecond (ids stay unique and ordered).
    lastMs++;
    counter = 0;
  }
  const ms = lastMs.toString(16).padStart(12, '0');
  if (poolAt + 8 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  pool[poolAt] = (pool[poolAt] & 0x3f) | 0x80; // RFC 4122 variant
  const tail = pool.toString('hex', poolAt, poolAt + 8);
  poolAt += 8;
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${counter.toString(16).padStart(3, '0')}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}
