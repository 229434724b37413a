import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;
const random = new Uint8Array(10);

/**
 * A UUIDv7 (RFC 9562): a 48-bit Unix-millisecond timestamp, a 12-bit counter (method 1, so ids
 * made in the same millisecond still increase) and 62 random bits. Rows written in a burst get
 * increasing keys, so a primary-key B-tree appends to its last page instead of dirtying a random
 * page per row — with random v4 ids, an index job's symbol inserts and commits slowed down in
 * proportion to the table's size. Ids stay unguessable enough for row keys (not for secrets).
 */
export function timeOrderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs += 1; // counter exhausted within one millisecond: borrow the next one, never go backwards
    counter = 0;
  }
  randomFillSync(random);
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
  const time = hex(lastMs, 12);
  const variant = hex(0x80 | (random[0] & 0x3f), 2) + hex(random[1], 2);
  const tail = Array.from(random.subarray(2, 8), (b) => hex(b, 2)).join('');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hex(counter, 3)}-${variant}-${tail}`;
}
