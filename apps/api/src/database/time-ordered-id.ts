import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;
// Random bytes drawn 4 KB at a time: one randomFillSync per id cost more than the rest of the id.
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

function randomBytes8(): Uint8Array {
  if (poolOffset + 8 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 8;
  return pool.subarray(poolOffset - 8, poolOffset);
}

/**
 * A UUIDv7 (RFC 9562): a 48-bit Unix-millisecond timestamp, a 12-bit counter (method 1, so ids
 * made in the same millisecond still increase) and 62 random bits. Rows written in a burst get
 * increasing keys, so a primary-key B-tree appends to its last page instead of dirtying a random
 * page per row — with random v4 ids, an index job's symbol inserts and commits slowed down in
 * proportion to the table's size. 62 random bits: fine for row keys, not for secrets.
 */
export function timeOrderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs += 1; // counter exhausted within one millisecond: borrow the next one, never go backwards
    counter = 0;
  }
  const random = randomBytes8();
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
  const time = hex(lastMs, 12);
  const variant = hex(0x80 | (random[0] & 0x3f), 2) + hex(random[1], 2);
  const tail = Buffer.from(random.buffer, random.byteOffset + 2, 6).toString('hex');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hex(counter, 3)}-${variant}-${tail}`;
}

/** Whether an id was made by {@link timeOrderedId} (a UUIDv7), so that sorting such ids gives the order they were made in. */
export function isTimeOrderedId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id);
}
