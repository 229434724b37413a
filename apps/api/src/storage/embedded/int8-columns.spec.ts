import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { ChunkPayload } from '@sextant/retrieval';
import { chunkFacts } from './embedded-chunk-index';
import { EmbeddedCollection } from './embedded-collection';
import { Int8Columns } from './int8-columns';

/** The reference: every masked slot's integer inner product, best first, ties by slot. */
function bruteForce(rows: Int8Array, dims: number, query: Int8Array, mask: Uint8Array, want: number) {
  const all: { slot: number; score: number }[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s]) continue;
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += rows[s * dims + d] * query[d];
    all.push({ slot: s, score: dot });
  }
  return all.sort((a, b) => b.score - a.score || a.slot - b.slot).slice(0, want);
}

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('Int8Columns (column-major int8 scan for sparse queries)', () => {
  it('returns exactly the brute-force top slots, across blocks, after writes and clears', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 140_000 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 50 }), fc.integer(), (slots, dims, want, seed) => {
        const rnd = seeded(seed);
        const rows = new Int8Array(slots * dims);
        // Few distinct values, so ties happen and their order is checked too.
        for (let i = 0; i < rows.length; i++) rows[i] = Math.floor(rnd() * 7) - 3;
        const columns = new Int8Columns(dims);
        // Writes reach the copy the way the collection sends them: also while it is being built.
        const edit = () => {
          const slot = Math.floor(rnd() * slots);
          const row = rows.subarray(slot * dims, (slot + 1) * dims);
          if (rnd() < 0.3) {
            row.fill(0);
            columns.clear(slot);
          } else {
            for (let d = 0; d < dims; d++) row[d] = Math.floor(rnd() * 255) - 127;
            columns.write(slot, row);
          }
        };
        while (columns.buildNext(rows, slots)) for (let e = 0; e < 3; e++) edit();
        expect(columns.covers(slots)).toBe(true);
        for (let e = 0; e < 20; e++) edit();
        const query = new Int8Array(dims);
        for (let d = 0; d < dims; d++) if (rnd() < 0.4) query[d] = Math.floor(rnd() * 255) - 127;
        const mask = new Uint8Array(slots);
        for (let s = 0; s < slots; s++) mask[s] = rnd() < 0.7 ? 1 : 0;
        expect(columns.search(query, mask, slots, want)).toEqual(bruteForce(rows, dims, query, mask, want));
      }),
      { numRuns: 12 },
    );
  });

  it('a reset copy is rebuilt from the rows as they are now', () => {
    const dims = 4;
    const rows = Int8Array.from({ length: 40 }, (_, i) => (i % 9) - 4);
    const columns = new Int8Columns(dims);
    while (columns.buildNext(rows, 10));
    rows.fill(1);
    columns.reset();
    expect(columns.covers(10)).toBe(false);
    while (columns.buildNext(rows, 10));
    const mask = new Uint8Array(10).fill(1);
    const query = Int8Array.from([1, 0, 0, 0]);
    expect(columns.search(query, mask, 10, 3)).toEqual(bruteForce(rows, dims, query, mask, 3));
  });
});

describe('EmbeddedCollection dense search with the column scan', () => {
  const dims = 64;
  const open = (columnScanMinSlots: number) => new EmbeddedCollection<ChunkPayload>(new Database(':memory:'), { name: 'chunks', keyCount: 4, facts: chunkFacts, dims, columnScanMinSlots });
  const point = (i: number, rnd: () => number, lang = i % 3 === 0 ? 'go' : 'ts') => ({
    id: `c${i}`,
    vector: Array.from({ length: dims }, () => rnd() * 2 - 1),
    text: '',
    payload: { workspaceId: 'ws', repoId: 'r', path: `src/f${i % 50}.${lang}`, lang, chunkType: 'function', symbol: null, symbols: [], startLine: 1, endLine: 2, startByte: 0, endByte: 1, content: '' } as unknown as ChunkPayload,
  });
  const sparseQuery = (rnd: () => number) => {
    const v = new Float32Array(dims);
    for (let n = 0; n < 5; n++) v[Math.floor(rnd() * dims)] = rnd() * 2 - 1;
    return v;
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('finds the same chunks with the same scores as the row-major scan, before and after writes', async () => {
    const rnd = seeded(7);
    const scans = jest.spyOn(Int8Columns.prototype, 'search');
    const columnar = open(1);
    const rowMajor = open(Number.POSITIVE_INFINITY);
    const points = Array.from({ length: 3000 }, (_, i) => point(i, rnd));
    columnar.upsert(points);
    rowMajor.upsert(points);
    const compare = async () => {
      for (let q = 0; q < 10; q++) {
        const v = sparseQuery(rnd);
        for (const filter of [{ keyValues: [['ws'], undefined, undefined, undefined] }, { keyValues: [['ws'], undefined, ['ts'], undefined] }]) {
          columnar.searchDense(v, filter, 20); // the first search starts the copy in the background
          await settle();
          // Equal int8 scores come back in either order; above the last score the chunks are the same.
          const byScore = (hits: Array<{ id: string; score: number }>) => {
            const last = hits[hits.length - 1].score;
            return { scores: hits.map((h) => h.score), ids: hits.filter((h) => h.score > last).map((h) => h.id).sort() };
          };
          expect(byScore(columnar.searchDense(v, filter, 20, { rescore: false }))).toEqual(byScore(rowMajor.searchDense(v, filter, 20, { rescore: false })));
          expect(byScore(columnar.searchDense(v, filter, 20))).toEqual(byScore(rowMajor.searchDense(v, filter, 20)));
        }
      }
    };
    await compare();
    const edits = Array.from({ length: 200 }, (_, i) => point(i * 7, rnd, 'ts'));
    columnar.upsert(edits);
    rowMajor.upsert(edits);
    columnar.deleteWhere({ keyValues: [['ws'], undefined, undefined, undefined], ids: ['c1', 'c2', 'c5'] });
    rowMajor.deleteWhere({ keyValues: [['ws'], undefined, undefined, undefined], ids: ['c1', 'c2', 'c5'] });
    await compare();
    // Enough new points to outgrow the arrays: the copy is made again from the grown vectors.
    const more = Array.from({ length: 3000 }, (_, i) => point(5000 + i, rnd));
    columnar.upsert(more);
    rowMajor.upsert(more);
    await compare();
    expect(scans).toHaveBeenCalled();
  });

  it('keeps answering from the row-major scan when the copy cannot be made', async () => {
    const rnd = seeded(11);
    const grow = jest.spyOn(Int8Columns.prototype, 'buildNext').mockImplementation(() => {
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    });
    try {
      const columnar = open(1);
      const rowMajor = open(Number.POSITIVE_INFINITY);
      const points = Array.from({ length: 500 }, (_, i) => point(i, rnd));
      columnar.upsert(points);
      rowMajor.upsert(points);
      const v = sparseQuery(rnd);
      const filter = { keyValues: [['ws'], undefined, undefined, undefined] };
      for (let i = 0; i < 3; i++) {
        expect(columnar.searchDense(v, filter, 10).map((h) => h.score)).toEqual(rowMajor.searchDense(v, filter, 10).map((h) => h.score));
        await settle();
      }
      expect(grow).toHaveBeenCalledTimes(1);
    } finally {
      grow.mockRestore();
    }
  });
});
