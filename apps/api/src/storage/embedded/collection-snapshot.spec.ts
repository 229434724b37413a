import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeywordLog, SnapshotIds } from './collection-snapshot';

/** A record of `words` int32s, every byte derived from (slot, version) so a mix-up shows. */
function record(slot: number, version: number, words: number): Uint8Array {
  const out = new Int32Array(words);
  for (let i = 0; i < words; i++) out[i] = slot * 1_000_003 + version * 7919 + i;
  return new Uint8Array(out.buffer);
}

describe('KeywordLog', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sextant-kwlog-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['a window larger than the log', undefined],
    ['a 4 KB window (records straddle it, some are larger)', 4096],
  ])('keeps only the latest record of each live slot when compacted, at offsets it hands back (%s)', (_, windowBytes) => {
    const path = join(dir, 'log.kw');
    const log = KeywordLog.open(path, 0);
    const slots = 300;
    const offset = new Float64Array(slots);
    const length = new Int32Array(slots);
    const latest = new Map<number, Uint8Array>();
    // Several rewrites per slot, some slots deleted, a few records far larger than the others.
    for (let version = 0; version < 4; version++) {
      for (let s = version % 2; s < slots; s += 1 + (version % 3)) {
        const words = s % 97 === 0 ? 50_000 : 1 + ((s * 13 + version) % 60);
        const bytes = record(s, version, words);
        offset[s] = log.append(bytes);
        length[s] = bytes.byteLength;
        latest.set(s, bytes);
      }
      log.flush();
    }
    for (const s of [5, 17, 200]) {
      length[s] = 0;
      latest.delete(s);
    }
    const before = log.size;
    log.compact(offset, length, slots, 0, windowBytes);
    expect(log.size).toBeLessThan(before);
    expect(log.size).toBe([...latest.values()].reduce((n, r) => n + r.byteLength, 0));
    const all = log.readAll(log.size);
    for (const [s, bytes] of latest) expect(Buffer.compare(all.subarray(offset[s], offset[s] + length[s]), Buffer.from(bytes))).toBe(0);
    // Appends go on after the compacted records, and the file is what the log says it holds.
    const extra = record(7, 9, 3);
    const at = log.append(extra);
    log.sync();
    expect(at).toBe(all.length);
    expect(statSync(path).size).toBe(all.length + extra.byteLength);
    log.close();
  });

  it('leaves a log alone while replaced records do not outweigh live ones', () => {
    const log = KeywordLog.open(join(dir, 'log.kw'), 0);
    const offset = new Float64Array(2);
    const length = new Int32Array(2);
    for (let version = 0; version < 2; version++) {
      for (let s = 0; s < 2; s++) {
        const bytes = record(s, version, 8);
        offset[s] = log.append(bytes);
        length[s] = bytes.byteLength;
      }
    }
    const kept = Float64Array.from(offset);
    log.compact(offset, length, 2, 0);
    expect(log.size).toBe(4 * 32);
    expect([...offset]).toEqual([...kept]);
    log.close();
  });
});

describe('SnapshotIds', () => {
  const json = (ids: (string | null)[]) => Buffer.from(JSON.stringify(ids), 'utf8');

  it('reads each slot\'s id (none for free slots) without decoding the others', () => {
    const ids = ['3f1c0b7e-0000-5000-8000-000000000001', null, 'ümlaut-id', null, 'x'];
    const index = SnapshotIds.index(json(ids), ids.length)!;
    expect(ids.map((_, s) => index.get(s))).toEqual(ids);
  });

  it('declines JSON it cannot slice safely, so the caller decodes it instead', () => {
    expect(SnapshotIds.index(json(['a"b', 'c']), 2)).toBeNull();
    expect(SnapshotIds.index(json(['a', 'b']), 3)).toBeNull();
  });
});
