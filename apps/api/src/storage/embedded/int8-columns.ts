/** Slots per block: each block holds its slots column by column, so growing never moves a block. */
const BLOCK = 65_536;
/** Slots copied per {@link Int8Columns.buildNext} call: ~20-40 ms of event-loop time at 384 dims. */
const BUILD_STEP = 16_384;
const PAGE = 65_536;
/** 4 GiB: the most a 32-bit WebAssembly memory can address. */
const MAX_PAGES = 65_536;

/**
 * `int8-columns.wat` assembled with wabt (`wat2wasm`). `score(columns, weights, pairs, n, out, floor,
 * groups)` writes `out[s] = Σ_j weight_j · column_j[s]` for `s < n` (n a multiple of 16), 16 slots
 * per step, two columns at a time (their bytes interleaved, then one int16 multiply-add per pair
 * into int32 sums), i.e. exactly the integer inner product, and lists the groups of 16 slots with
 * a score above `floor` (returns how many).
 */
const KERNEL = Buffer.from('AGFzbQEAAAABDAFgB39/f39/f38BfwISAQNlbnYGbWVtb3J5AgEBgIAEAwIBAAcJAQVzY29yZQAACqsDAagDAgN/CnsgBf0RIQ8CQANAIAcgA08NAf0MAAAAAAAAAAAAAAAAAAAAACEQ/QwAAAAAAAAAAAAAAAAAAAAAIRH9DAAAAAAAAAAAAAAAAAAAAAAhEv0MAAAAAAAAAAAAAAAAAAAAACETQQAhCAJAA0AgCCACTw0BIAAgCEEDdGooAgAgB2r9AAQAIQogACAIQQN0aigCBCAHav0ABAAhCyABIAhBAnRqKAIA/REhDCAKIAv9DQAQARECEgMTBBQFFQYWBxchDSAKIAv9DQgYCRkKGgsbDBwNHQ4eDx8hDiAQIA39hwEgDP26Af2uASEQIBEgDf2IASAM/boB/a4BIREgEiAO/YcBIAz9ugH9rgEhEiATIA79iAEgDP26Af2uASETIAhBAWohCAwACwsgBCAHQQJ0aiAQ/QsEACAEIAdBAnRqIBH9CwQQIAQgB0ECdGogEv0LBCAgBCAHQQJ0aiAT/QsEMCAQIA/9OyARIA/9O/1QIBIgD/07IBMgD/07/VD9UP1TBEAgBiAJQQJ0aiAHNgIAIAlBAWohCQsgB0EQaiEHDAALCyAJCw==', 'base64');

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
let kernelModule: object | null = null;

/**
 * A column-major copy of a collection's int8 vectors, for queries with few non-zero dimensions
 * (the hash embedder's queries have 10–40 of 384): the exact int8 inner product then reads only
 * those columns — m bytes per slot instead of all of them — in a WebAssembly SIMD kernel. Scores
 * are the same integers as the row-major scan's; only the amount of memory read changes.
 *
 * Costs one byte per dimension per slot (a second copy of the int8 vectors). Blocks are built
 * from the row-major vectors one at a time ({@link buildNext}) and kept in step by
 * {@link write} / {@link clear} afterwards.
 */
export class Int8Columns {
  private readonly memory: WasmMemory;
  private readonly score: (columns: number, weights: number, m: number, n: number, out: number, floor: number, groups: number) => number;
  private bytes: Int8Array;
  private ints: Int32Array;
  /** Byte addresses of the kernel's inputs and output, then the blocks. */
  private readonly columnsAt: number;
  private readonly weightsAt: number;
  private readonly outAt: number;
  private readonly groupsAt: number;
  private readonly blocksAt: number;
  private allocated = 0;
  /** Blocks [0, built) mirror the row-major vectors, and the first `partial` slots of block `built`. */
  private built = 0;
  private partial = 0;

  constructor(private readonly dims: number) {
    // Column addresses (one per dimension, plus one to pad an odd count), then the packed weights (one per pair).
    this.columnsAt = 0;
    this.weightsAt = (dims + 2) * 4;
    this.outAt = Math.ceil((this.weightsAt + (dims / 2 + 1) * 4) / 64) * 64;
    this.groupsAt = this.outAt + BLOCK * 4;
    this.blocksAt = Math.ceil((this.groupsAt + BLOCK / 4) / PAGE) * PAGE;
    this.memory = new wasm.Memory({ initial: this.blocksAt / PAGE, maximum: MAX_PAGES });
    kernelModule ??= new wasm.Module(KERNEL);
    const instance = new wasm.Instance(kernelModule, { env: { memory: this.memory } });
    this.score = instance.exports.score as Int8Columns['score'];
    this.bytes = new Int8Array(this.memory.buffer);
    this.ints = new Int32Array(this.memory.buffer);
  }

  /** Whether every slot below `high` is mirrored. */
  covers(high: number): boolean {
    return this.built * BLOCK + this.partial >= high;
  }

  /** Forget the mirrored contents (all vectors changed); blocks are rebuilt by {@link buildNext}. */
  reset(): void {
    this.built = 0;
    this.partial = 0;
  }

  /**
   * Copies the next slots (at most {@link BUILD_STEP}) from the row-major `rows` (`high` slots ×
   * dims). Returns false when every slot below `high` is already mirrored; throws when the memory
   * cannot grow.
   */
  buildNext(rows: Int8Array, high: number): boolean {
    const b = this.built;
    const blockStart = b * BLOCK;
    if (blockStart + this.partial >= high) return false;
    this.allocate(b + 1);
    const dims = this.dims;
    const bytes = this.bytes;
    const base = this.blockAt(b);
    // A block's slots past `high` must read as zero vectors (the memory may hold an older copy).
    if (this.partial === 0) bytes.fill(0, base, base + BLOCK * dims);
    const first = blockStart + this.partial;
    const end = Math.min(high, blockStart + BLOCK, first + BUILD_STEP);
    // Tiles of 256 rows: the rows being read stay in cache while each column is written in order.
    for (let s0 = first; s0 < end; s0 += 256) {
      const s1 = Math.min(end, s0 + 256);
      for (let d = 0; d < dims; d++) {
        const o = base + d * BLOCK - blockStart;
        for (let s = s0, r = s0 * dims + d; s < s1; s++, r += dims) bytes[o + s] = rows[r];
      }
    }
    this.partial = end - blockStart;
    // A block is complete once it holds every slot it can have now; later slots arrive by write().
    if (this.partial === BLOCK || end === high) {
      this.built = b + 1;
      this.partial = 0;
    }
    return true;
  }

  write(slot: number, row: Int8Array): void {
    if (slot >= this.built * BLOCK + this.partial) return;
    const b = Math.floor(slot / BLOCK);
    const o = this.blockAt(b) + (slot - b * BLOCK);
    for (let d = 0; d < this.dims; d++) this.bytes[o + d * BLOCK] = row[d];
  }

  clear(slot: number): void {
    if (slot >= this.built * BLOCK + this.partial) return;
    const b = Math.floor(slot / BLOCK);
    const o = this.blockAt(b) + (slot - b * BLOCK);
    for (let d = 0; d < this.dims; d++) this.bytes[o + d * BLOCK] = 0;
  }

  /**
   * The `want` slots with the highest integer inner product with `query` among those set in
   * `mask` (below `high`, which must be covered), best first; ties by slot.
   */
  search(query: Int8Array, mask: Uint8Array, high: number, want: number): { slot: number; score: number }[] {
    const dims: number[] = [];
    for (let d = 0; d < this.dims; d++) if (query[d] !== 0) dims.push(d);
    // An odd last dimension is paired with itself at weight 0.
    const pairs = (dims.length + 1) >> 1;
    for (let p = 0; p < pairs; p++) {
      const high = 2 * p + 1 < dims.length ? query[dims[2 * p + 1]] : 0;
      this.ints[(this.weightsAt >> 2) + p] = (query[dims[2 * p]] & 0xffff) | (high << 16);
    }
    const heap = new TopSlots(want);
    const ints = this.ints;
    const out = this.outAt >> 2;
    const groups = this.groupsAt >> 2;
    let floor = -Infinity;
    for (let b = 0; b * BLOCK < high; b++) {
      const base = this.blockAt(b);
      for (let j = 0; j < 2 * pairs; j++) ints[(this.columnsAt >> 2) + j] = base + dims[Math.min(j, dims.length - 1)] * BLOCK;
      const first = b * BLOCK;
      const n = Math.min(BLOCK, high - first);
      // Only groups with a score above the block's starting floor are read back.
      const found = this.score(this.columnsAt, this.weightsAt, pairs, (n + 15) & ~15, this.outAt, floor === -Infinity ? -0x80000000 : floor, this.groupsAt);
      for (let g = 0; g < found; g++) {
        const g0 = ints[groups + g];
        const g1 = Math.min(n, g0 + 16);
        for (let i = g0; i < g1; i++) {
          // Slots come in increasing order, so a score equal to the floor never displaces anything.
          if (mask[first + i] === 1 && ints[out + i] > floor) {
            heap.offer(ints[out + i], first + i);
            if (heap.full) floor = heap.min;
          }
        }
      }
    }
    return heap.sorted();
  }

  private blockAt(b: number): number {
    return this.blocksAt + b * BLOCK * this.dims;
  }

  private allocate(blocks: number): void {
    if (blocks <= this.allocated) return;
    const needed = this.blocksAt + blocks * BLOCK * this.dims;
    const pages = Math.ceil(needed / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) {
      this.memory.grow(pages);
      this.bytes = new Int8Array(this.memory.buffer);
      this.ints = new Int32Array(this.memory.buffer);
    }
    this.allocated = blocks;
  }
}

/** A bounded min-heap of (score, slot): keeps the `k` highest scores (lower slot wins a tie). */
class TopSlots {
  private readonly scores: Int32Array;
  private readonly slots: Int32Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.scores = new Int32Array(k);
    this.slots = new Int32Array(k);
  }

  offer(score: number, slot: number): void {
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(score, slot, this.scores[p], this.slots[p])) break;
        this.scores[i] = this.scores[p];
        this.slots[i] = this.slots[p];
        i = p;
      }
      this.scores[i] = score;
      this.slots[i] = slot;
      return;
    }
    if (this.k === 0 || !this.worse(this.scores[0], this.slots[0], score, slot)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.k) break;
      const r = l + 1;
      const c = r < this.k && this.worse(this.scores[r], this.slots[r], this.scores[l], this.slots[l]) ? r : l;
      if (!this.worse(this.scores[c], this.slots[c], score, slot)) break;
      this.scores[i] = this.scores[c];
      this.slots[i] = this.slots[c];
      i = c;
    }
    this.scores[i] = score;
    this.slots[i] = slot;
  }

  get full(): boolean {
    return this.size === this.k;
  }

  /** The lowest score kept (meaningful once full). */
  get min(): number {
    return this.scores[0];
  }

  /** Best first. */
  sorted(): { slot: number; score: number }[] {
    const out: { slot: number; score: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ slot: this.slots[i], score: this.scores[i] });
    return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }

  /** Whether (a, as) ranks below (b, bs). */
  private worse(a: number, as: number, b: number, bs: number): boolean {
    return a < b || (a === b && as > bs);
  }
}
