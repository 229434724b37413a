import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';

const MAGIC = 'SXSNAP01';
/** Largest single read/write (fs calls take at most 2 GiB). */
const IO_STEP = 1 << 30;
/** Bytes of the old log read at a time while compacting, and of the new one written at a time. */
const COMPACT_WINDOW = 32 << 20;

/** The in-memory mirror of a collection as a snapshot holds it (everything `load()` would rebuild from rows). */
export interface SnapshotState {
  token: string;
  dims: number;
  /** One past the highest slot. */
  high: number;
  /** Per key column, the dictionary values in code order (code 1 first). */
  keyDicts: string[][];
  /** Interned paths, code 1 first. */
  paths: string[];
  /** JSON (UTF-8) of the id per slot (null for free slots); decoded only when first needed. */
  idsJson: Uint8Array;
  /** JSON (UTF-8) of `[slot, tags]` for slots with tags; decoded only when first needed. */
  tagsJson: Uint8Array;
  /** Keyword vocabulary: ids and terms, as the `<collection>_terms` table holds them. */
  termIds: Int32Array;
  terms: string[];
  /** Bytes of the keyword log the offsets refer to. */
  logBytes: number;
  live: Uint8Array;
  keyCols: Int32Array[];
  pathCol: Int32Array;
  vectors: Int8Array;
  /** Per slot: byte offset and length of its keyword record in the log (length 0: none). */
  kwOffset: Float64Array;
  kwLength: Int32Array;
}

type Meta = Omit<SnapshotState, 'live' | 'keyCols' | 'pathCol' | 'vectors' | 'kwOffset' | 'kwLength' | 'termIds' | 'idsJson' | 'tagsJson'>;

/**
 * Writes `state` to `path` (through a temporary file, fsync'd and renamed), so a restart reads
 * the mirror back with a few large reads instead of decoding every SQLite row. The caller stores
 * `state.token` in SQLite afterwards; a snapshot is trusted only when the tokens match.
 */
export function writeSnapshot(path: string, state: SnapshotState): void {
  const meta: Meta = { token: state.token, dims: state.dims, high: state.high, keyDicts: state.keyDicts, paths: state.paths, terms: state.terms, logBytes: state.logBytes };
  const sections: ArrayBufferView[] = [state.live, ...state.keyCols, state.pathCol, state.vectors, state.kwOffset, state.kwLength, state.termIds, state.idsJson, state.tagsJson];
  const json = Buffer.from(JSON.stringify({ ...meta, sections: sections.map((s) => s.byteLength) }), 'utf8');
  const head = Buffer.alloc(align8(12 + json.length));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, 8);
  json.copy(head, 12);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let at = writeAll(fd, head, 0);
    const pad = Buffer.alloc(8);
    for (const s of sections) {
      at = writeAll(fd, Buffer.from(s.buffer, s.byteOffset, s.byteLength), at);
      const extra = align8(s.byteLength) - s.byteLength;
      if (extra) at = writeAll(fd, pad.subarray(0, extra), at);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/**
 * Reads a snapshot written by {@link writeSnapshot}; null when missing, from another token, or
 * malformed. `vectorsInto` may supply where the vectors go (read in place: no second copy of the
 * largest section).
 */
export function readSnapshot(path: string, token: string, keyCount: number, vectorsInto?: (high: number, dims: number) => Int8Array): SnapshotState | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const first = Buffer.alloc(12);
    if (readSync(fd, first, 0, 12, 0) !== 12 || first.toString('latin1', 0, 8) !== MAGIC) return null;
    const jsonBytes = first.readUInt32LE(8);
    if (12 + jsonBytes > size) return null;
    const json = Buffer.alloc(jsonBytes);
    readAll(fd, json, 12);
    const meta = JSON.parse(json.toString('utf8')) as Meta & { sections: number[] };
    if (meta.token !== token) return null;
    const { high, dims } = meta;
    const expected = [high, ...Array.from({ length: keyCount }, () => high * 4), high * 4, high * dims, high * 8, high * 4, meta.terms.length * 4];
    // The two JSON sections (ids, tags) come last, with any length.
    if (meta.sections.length !== expected.length + 2 || expected.some((b, i) => b !== meta.sections[i])) return null;
    let at = align8(12 + jsonBytes);
    if (at + meta.sections.reduce((sum, b) => sum + align8(b), 0) > size) return null;
    const read = <T extends ArrayBufferView>(make: (bytes: number) => T): T => {
      const bytes = meta.sections.length ? meta.sections[sectionIndex++] : 0;
      const out = make(bytes);
      readAll(fd, Buffer.from(out.buffer, out.byteOffset, out.byteLength), at);
      at += align8(bytes);
      return out;
    };
    let sectionIndex = 0;
    const live = read((b) => new Uint8Array(b));
    const keyCols = Array.from({ length: keyCount }, () => read((b) => new Int32Array(b / 4)));
    const pathCol = read((b) => new Int32Array(b / 4));
    const vectors = read((b) => vectorsInto?.(high, dims) ?? new Int8Array(b));
    if (vectors.byteLength !== high * dims) return null;
    const kwOffset = read((b) => new Float64Array(b / 8));
    const kwLength = read((b) => new Int32Array(b / 4));
    const termIds = read((b) => new Int32Array(b / 4));
    const idsJson = read((b) => Buffer.allocUnsafe(b));
    const tagsJson = read((b) => Buffer.allocUnsafe(b));
    return { ...meta, live, keyCols, pathCol, vectors, kwOffset, kwLength, termIds, idsJson, tagsJson };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The ids of a restored snapshot (`idsJson`, `[id | null, …]` by slot), read one at a time
 * without decoding them all: 4 bytes per slot instead of a string per point (plus a map for
 * lookups by id), for search hits while nothing needs the decoded identity yet.
 */
export class SnapshotIds {
  private constructor(
    private readonly json: Buffer,
    /** Per slot: where its id's characters start (0: no id). */
    private readonly starts: Int32Array,
  ) {}

  /** Null when the JSON holds escapes (then only a full decode reads it right) or is not the expected shape. */
  static index(json: Uint8Array, slots: number): SnapshotIds | null {
    const buf = Buffer.from(json.buffer, json.byteOffset, json.byteLength);
    if (buf.indexOf(0x5c) !== -1) return null; // a backslash: some id has escapes
    const starts = new Int32Array(slots);
    let at = 1; // after '['
    for (let s = 0; s < slots; s++) {
      if (buf[at] === 0x6e) at += 4; // null
      else if (buf[at] === 0x22) {
        const end = buf.indexOf(0x22, at + 1);
        if (end < 0) return null;
        starts[s] = at + 1;
        at = end + 1;
      } else return null;
      if (buf[at] !== (s === slots - 1 ? 0x5d : 0x2c)) return null;
      at++;
    }
    return at === buf.length ? new SnapshotIds(buf, starts) : null;
  }

  get(slot: number): string | null {
    const start = slot < this.starts.length ? this.starts[slot] : 0;
    return start ? this.json.toString('utf8', start, this.json.indexOf(0x22, start)) : null;
  }
}

/** Removes a snapshot or log file (missing is fine). */
export function removeSnapshot(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}

/**
 * Append-only file of keyword records (the `kw` column's bytes), so a snapshot can point at each
 * slot's record instead of copying them all at close. Replaced records stay as garbage until
 * {@link KeywordLog.compact}. Like the snapshot it is a cache: SQLite remains the durable store.
 */
export class KeywordLog {
  private batch = Buffer.allocUnsafe(1 << 20);
  private batchUsed = 0;

  private constructor(
    private readonly path: string,
    private fd: number,
    /** Bytes in the file. */
    public size: number,
  ) {}

  /** Opens the log keeping its first `keep` bytes (pass 0 to start it over). */
  static open(path: string, keep: number): KeywordLog {
    // Started over as a new file: a connection still holding the old one cannot write into this one.
    if (keep === 0) removeSnapshot(path);
    const fd = openSync(path, 'a+');
    closeSync(fd);
    const rw = openSync(path, 'r+');
    if (fstatSync(rw).size !== keep) ftruncateSync(rw, keep);
    return new KeywordLog(path, rw, keep);
  }

  /** Queues `record`; returns the byte offset it will have once {@link flush}ed. */
  append(record: Uint8Array): number {
    if (this.batchUsed + record.byteLength > this.batch.length) {
      if (this.batchUsed) this.flush();
      if (record.byteLength > this.batch.length) this.batch = Buffer.allocUnsafe(2 * record.byteLength);
    }
    const offset = this.size + this.batchUsed;
    this.batch.set(record, this.batchUsed);
    this.batchUsed += record.byteLength;
    return offset;
  }

  /** Writes what {@link append} queued. */
  flush(): void {
    if (!this.batchUsed) return;
    writeAll(this.fd, this.batch.subarray(0, this.batchUsed), this.size);
    this.size += this.batchUsed;
    this.batchUsed = 0;
  }

  /** Drops anything queued but not flushed (its transaction rolled back). */
  discard(): void {
    this.batchUsed = 0;
  }

  /** The first `bytes` of the log in one buffer (4-byte aligned, so records can be viewed as int32). */
  readAll(bytes: number): Buffer {
    const out = Buffer.from(new ArrayBuffer(bytes));
    readAll(this.fd, out, 0);
    return out;
  }

  /**
   * Rewrites the log with only the records of live slots (when replaced records outweigh live
   * ones by more than `slack` bytes), updating `offset` once the new log is in place. The old log
   * is read once, in order, through a bounded window: no copy of it is held in memory.
   */
  compact(offset: Float64Array, length: Int32Array, slots: number, slack = 64 << 20, windowBytes = COMPACT_WINDOW): void {
    this.flush();
    let live = 0;
    let count = 0;
    for (let s = 0; s < slots; s++) {
      if (!length[s]) continue;
      live += length[s];
      count++;
    }
    if (this.size <= 2 * live + slack) return;
    const order = new Int32Array(count);
    for (let s = 0, i = 0; s < slots; s++) if (length[s]) order[i++] = s;
    order.sort((a, b) => offset[a] - offset[b]);
    const moved = new Float64Array(slots);
    const window = Buffer.allocUnsafe(Math.min(this.size, windowBytes));
    const out = Buffer.allocUnsafe(Math.min(live, windowBytes) || 1);
    let windowStart = 0;
    let windowEnd = 0;
    let used = 0;
    let at = 0;
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w+');
    try {
      for (const s of order) {
        const from = offset[s];
        const n = length[s];
        if (used + n > out.length && used) {
          at = writeAll(fd, out.subarray(0, used), at);
          used = 0;
        }
        if (n > out.length || n > window.length) {
          const big = Buffer.allocUnsafe(n);
          readAll(this.fd, big, from);
          moved[s] = at;
          at = writeAll(fd, big, at);
          continue;
        }
        if (from < windowStart || from + n > windowEnd) {
          windowStart = from;
          windowEnd = from + Math.min(window.length, this.size - from);
          readAll(this.fd, window.subarray(0, windowEnd - windowStart), from);
        }
        window.copy(out, used, from - windowStart, from - windowStart + n);
        moved[s] = at + used;
        used += n;
      }
      at = writeAll(fd, out.subarray(0, used), at);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    closeSync(this.fd);
    renameSync(tmp, this.path);
    this.fd = fd;
    this.size = at;
    for (const s of order) offset[s] = moved[s];
  }

  sync(): void {
    this.flush();
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

function writeAll(fd: number, data: Uint8Array, position: number): number {
  let done = 0;
  while (done < data.byteLength) {
    done += writeSync(fd, data, done, Math.min(IO_STEP, data.byteLength - done), position + done);
  }
  return position + data.byteLength;
}

function readAll(fd: number, into: Uint8Array, position: number): void {
  let done = 0;
  while (done < into.byteLength) {
    const n = readSync(fd, into, done, Math.min(IO_STEP, into.byteLength - done), position + done);
    if (n === 0) throw new Error('snapshot file is shorter than its header says');
    done += n;
  }
}
