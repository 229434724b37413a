import type Database from 'better-sqlite3';
import { exactSearch, MetricKind } from 'usearch';
import {
  InvalidFilterError,
  tokenize,
  type IndexedPoint,
  type KeywordMode,
  type PathPredicate,
  type ScoredPoint,
  type StoredPoint,
} from '@sextant/retrieval';
import { randomUUID } from 'node:crypto';
import { fstatSync, openSync, closeSync } from 'node:fs';
import { KeywordLog, readSnapshot, removeSnapshot, SnapshotIds, writeSnapshot, type SnapshotState } from './collection-snapshot';
import { FloatVectorFile } from './float-vector-file';
import { Int8Columns } from './int8-columns';
import { absQuantile, INT8_QUANTILE, normalize, quantizeInto } from './int8-quantizer';
import { KeywordIndex, keywordQueryTerms } from './keyword-index';
import { lazyPayload, type PayloadOrigin } from './lazy-payload';

/**
 * A point may carry the tokenizer's output for its `text` (computed off this thread, e.g. by the
 * indexer's parse workers); it must equal `tokenize(text)`, as a list or joined by single spaces.
 */
export interface PreTokenized {
  tokens?: readonly string[] | string;
}

/** The filterable facts of one point, extracted by the typed index (chunk or task). */
export interface RowFacts {
  /** Fixed arity per collection; `keys[0]` is always the workspace id. */
  keys: (string | null)[];
  path: string | null;
  tags: string[];
}

/** A compiled filter over `RowFacts`. */
export interface CollectionQuery {
  /** Per key index: the allowed values, or undefined for no constraint. `[0]` is the workspace. */
  keyValues: (readonly string[] | undefined)[];
  pathPredicate?: PathPredicate | null;
  paths?: readonly string[];
  tags?: readonly string[];
  ids?: readonly string[];
}

export interface EmbeddedCollectionOptions<P> {
  /** Table prefix: `<name>_points` (and `<name>_fts` in files written before the in-memory keyword index). */
  name: string;
  keyCount: number;
  facts: (payload: P) => RowFacts;
  /** Vector dimension; when omitted it is fixed by the first upsert and persisted. */
  dims?: number;
  /** Slots from which sparse queries use the column-major copy (default {@link COLUMN_SCAN_MIN_SLOTS}). */
  columnScanMinSlots?: number;
  /**
   * Payload fields that hold exactly the value of a fact (an index into `RowFacts.keys`, or the
   * path) whenever that fact is not null: search hits answer them from memory and read the row
   * only when another field is used.
   */
  factFields?: Readonly<Record<string, number | 'path'>>;
}

export interface DenseSearchTuning {
  rescore?: boolean;
  oversampling?: number;
}

/** Re-quantise everything when a batch's 0.99 quantile exceeds the collection scale by this factor. */
const REQUANTIZE_FACTOR = 1.25;
/** Copy the candidate subset when it is at most this fraction of the slots; otherwise scan all and oversample. */
const SUBSET_FRACTION = 1 / 8;
const MAX_SEARCH_K = 1000;
/**
 * From this many slots on, dense queries with few non-zero dimensions scan a column-major copy of
 * the int8 vectors (`Int8Columns`): below it the full row-major SIMD scan takes a few ms anyway.
 */
const COLUMN_SCAN_MIN_SLOTS = 100_000;
/** A query uses the column scan when at most this fraction of its int8 dimensions is non-zero. */
const SPARSE_QUERY_FRACTION = 1 / 8;
/**
 * Rescoring reads candidates this many slots apart (or closer) in one `pread`: a skipped vector
 * costs ~0.2 µs of copying, a separate read ~2 µs of system call.
 */
const RESCORE_READ_GAP = 8;
/** Most slots one rescoring read spans. */
const RESCORE_READ_RUN = 256;
/** Candidate masks kept per collection (one per distinct key-only filter). */
const MASK_CACHE_SIZE = 8;
/**
 * A search hit's payload is read on first use of a field the collection does not keep in memory.
 * For this long after the search it is the payload as it was at search time, also when the point
 * was replaced or deleted since (writes copy such rows aside first); later, it is the point's
 * current payload.
 */
const HIT_PAYLOAD_GUARANTEE_MS = 120_000;
/** Granularity of the per-slot "returned by a search lately" marks (one byte per slot, wrapping). */
const WATCH_EPOCH_MS = 10_000;
const WATCH_EPOCHS = Math.ceil(HIT_PAYLOAD_GUARANTEE_MS / WATCH_EPOCH_MS) + 1;

function watchMark(now: number): number {
  return (Math.floor(now / WATCH_EPOCH_MS) % 255) + 1;
}

/** A row's payload as it was before a write replaced or deleted it while search hits may still read it. */
interface RescuedPayload {
  slot: number;
  /** The write's generation: hits returned before it read this copy. */
  generation: number;
  id: string;
  payload: string;
  at: number;
}

function f32View(blob: Buffer): Float32Array {
  return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
}

/** The slots of `hits` as a JSON array, for `json_each`. */
function slotList(hits: readonly { slot: number }[]): string {
  let s = '[';
  for (let i = 0; i < hits.length; i++) s += (i ? ',' : '') + hits[i].slot;
  return `${s}]`;
}

/**
 * One embedded collection: SQLite rows (payload, float32 + int8 vectors, filter facts, tokenizer
 * output) and an in-memory mirror for search: one contiguous Int8Array of vectors indexed by slot
 * (= SQLite rowid), dictionary-coded filter columns, and an inverted index (`KeywordIndex`) for
 * BM25, restored at open from the per-row keyword records (no re-tokenizing). Deleted slots go to a free list and are reused,
 * so slots are stable across restarts.
 *
 * All methods are synchronous (better-sqlite3); the typed indexes wrap them in promises.
 * Only one process may write a given file (the in-memory mirror is not shared).
 */
export class EmbeddedCollection<P extends { workspaceId: string }> {
  private readonly name: string;
  private readonly keyCount: number;
  private readonly facts: (payload: P) => RowFacts;
  private dims: number | undefined;
  private scale: number | undefined;

  private capacity = 0;
  /** One past the highest slot ever used. */
  private high = 0;
  private vectors = new Int8Array(0);
  private live = new Uint8Array(0);
  private keyCols: Int32Array[] = [];
  private keyDicts: Map<string, number>[] = [];
  /** Per key: code → value (code 0 = null), for payload fields answered from memory. */
  private keyValues: unknown[][] = [];
  private pathCol = new Int32Array(0);
  private pathDict = new Map<string, number>();
  private pathList: string[] = [''];
  private tagsOfSlot: (string[] | undefined)[] = [];
  private idOfSlot: (string | null | undefined)[] = [];
  private readonly slotOfId = new Map<string, number>();
  /**
   * Ids and tags of a mirror restored from a snapshot, as JSON, decoded on first use (a write, a
   * lookup by id, a symbol filter): a million strings, arrays and map entries cost seconds at open.
   */
  private pendingIdentity: { ids: Uint8Array; tags: Uint8Array } | null = null;
  /** Search hits' ids while the identity is still pending (indexed on the first search; false: cannot be, decode instead). */
  private pendingIds: SnapshotIds | false | null = null;
  private freeSlots: number[] = [];
  private liveCount = 0;
  private scratch = new Int8Array(0);
  private keyword = new KeywordIndex();
  private readonly recordScratch = { buffer: new Int32Array(1024) };
  /** Bumped by every write; cached candidate masks are only valid for the generation they were built in. */
  private generation = 0;
  /** Masks of plain key filters (workspace, repos, langs, …) for the current generation, most recent last. */
  private maskCache = new Map<string, { generation: number; mask: Uint8Array; count: number }>();
  /** Float originals for rescoring (`<db file>-<name>.f32`); null for in-memory databases or when it cannot be used. */
  private floatFile: FloatVectorFile | null = null;
  private readonly floatFilePath: string | null;
  private floatFileFailed = false;
  /**
   * Slots per path as doubly linked lists in typed arrays (values are slot + 1, 0 = none), so
   * deletes and counts by exact path skip the full scan without an object per path.
   */
  private pathHead = new Int32Array(1024);
  private pathNext = new Int32Array(0);
  private pathPrev = new Int32Array(0);
  /**
   * Restart snapshot (`<db file>-<name>.snap`) and the keyword-record log it points into
   * (`<db file>-<name>.kw`); null paths for in-memory databases. See {@link closeFiles}.
   */
  private readonly snapshotPath: string | null;
  private kwLog: KeywordLog | null = null;
  /** Per slot: where its keyword record sits in the log (length 0 = none). */
  private kwOffset = new Float64Array(0);
  private kwLength = new Int32Array(0);
  /** True once the mirror differs from the snapshot on disk (loaded from rows, or written since). */
  private snapshotStale = true;
  /** The log could not be written: no snapshot is taken by this process. */
  private snapshotFailed = false;
  /** SQLite's `data_version` after this connection's last load or write: another connection's commit changes it. */
  private dataVersion = 0;

  /**
   * Column-major copy of `vectors` for sparse queries, built in the background on the first
   * search of a large collection and kept in step by writes; `of` is the array it mirrors (a
   * replaced array, after a reload or growth, is copied again).
   */
  private columns: { of: Int8Array; index: Int8Columns } | null = null;
  private columnsBuilding = false;
  private columnsFailed = false;
  private readonly columnScanMinSlots: number;
  private readonly factFields: [field: string, fact: number | 'path'][];
  /**
   * Per slot: when a search last returned it (`watchMark`, 0 = never). A write to such a slot
   * copies the old payload aside first, so hits' lazy payloads stay what they were at search time.
   */
  private watched = new Uint8Array(0);
  private rescued = new Map<number, RescuedPayload[]>();
  private rescueQueue: RescuedPayload[] = [];
  private rescueHead = 0;
  private readonly loadHitPayload = (origin: PayloadOrigin) => this.hitPayload(origin);

  private readonly stmt: Record<string, Database.Statement>;

  constructor(private readonly db: Database.Database, options: EmbeddedCollectionOptions<P>) {
    if (!/^[a-z][a-z0-9_]*$/.test(options.name)) throw new Error(`invalid collection name "${options.name}"`);
    this.name = options.name;
    this.keyCount = options.keyCount;
    this.facts = options.facts;
    this.columnScanMinSlots = options.columnScanMinSlots ?? COLUMN_SCAN_MIN_SLOTS;
    this.factFields = Object.entries(options.factFields ?? {});
    const t = this.name;
    // `id` has no UNIQUE index (files created before it was dropped keep theirs): the mirror's
    // id → slot map decides which row an upsert replaces, and nothing looks rows up by id, while an
    // index over random UUIDs dirtied one random page per inserted row (~15 % of upsert CPU at 100k).
    db.exec(`
      CREATE TABLE IF NOT EXISTS sextant_vector_meta (collection TEXT PRIMARY KEY, dims INTEGER, scale REAL);
      CREATE TABLE IF NOT EXISTS ${t}_points (
        slot INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        keys TEXT NOT NULL,
        path TEXT,
        tags TEXT NOT NULL,
        payload TEXT NOT NULL,
        vec_i8 BLOB NOT NULL,
        vec_f32 BLOB NOT NULL,
        tokens TEXT,
        kw BLOB
      );
      CREATE TABLE IF NOT EXISTS ${t}_terms (id INTEGER PRIMARY KEY, term TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS sextant_vector_files (collection TEXT PRIMARY KEY, token TEXT NOT NULL);
    `);
    // Any change to the rows, by any connection or binary (also one that predates snapshots), removes
    // the restart snapshot's token: a snapshot can only ever be trusted for the rows it was taken of.
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TRIGGER IF NOT EXISTS ${t}_points_${event.toLowerCase()}_snapshot AFTER ${event} ON ${t}_points
        BEGIN DELETE FROM sextant_vector_files WHERE collection = '${t}#snapshot'; END`);
    }
    upgradeSchema(db, t);
    this.stmt = {
      meta: db.prepare(`SELECT dims, scale FROM sextant_vector_meta WHERE collection = ?`),
      setMeta: db.prepare(`INSERT INTO sextant_vector_meta (collection, dims, scale) VALUES (?, ?, ?)
        ON CONFLICT(collection) DO UPDATE SET dims = excluded.dims, scale = excluded.scale`),
      upsert: db.prepare(`INSERT INTO ${t}_points (slot, id, keys, path, tags, payload, vec_i8, vec_f32, tokens, kw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)
        ON CONFLICT(slot) DO UPDATE SET id = excluded.id, keys = excluded.keys, path = excluded.path, tags = excluded.tags,
        payload = excluded.payload, vec_i8 = excluded.vec_i8, vec_f32 = excluded.vec_f32, tokens = NULL, kw = excluded.kw`),
      // New term ids are consecutive, so a batch's terms go in as one JSON array: one statement, not thousands.
      insertTerms: db.prepare(`INSERT INTO ${t}_terms (id, term) SELECT ? + key, value FROM json_each(?)`),
      terms: db.prepare(`SELECT id, term FROM ${t}_terms`),
      setKw: db.prepare(`UPDATE ${t}_points SET kw = ?, tokens = NULL WHERE slot = ?`),
      delete: db.prepare(`DELETE FROM ${t}_points WHERE slot = ?`),
      payload: db.prepare(`SELECT id, payload FROM ${t}_points WHERE slot = ?`),
      // Batched reads for search hits: one statement per query instead of one per hit (a third of the cost).
      payloads: db.prepare(`SELECT slot, payload FROM ${t}_points WHERE slot IN (SELECT value FROM json_each(?))`).raw(true),
      f32s: db.prepare(`SELECT slot, vec_f32 FROM ${t}_points WHERE slot IN (SELECT value FROM json_each(?))`).raw(true),
      allF32: db.prepare(`SELECT slot, vec_f32 FROM ${t}_points`),
      allF32Raw: db.prepare(`SELECT slot, vec_f32 FROM ${t}_points`).raw(true),
      setI8: db.prepare(`UPDATE ${t}_points SET vec_i8 = ? WHERE slot = ?`),
      load: db.prepare(`SELECT slot, id, keys, path, tags, vec_i8, tokens, kw FROM ${t}_points ORDER BY slot`),
      maxSlot: db.prepare(`SELECT max(slot) AS slot FROM ${t}_points`),
      fileToken: db.prepare(`SELECT token FROM sextant_vector_files WHERE collection = ?`),
      setFileToken: db.prepare(`INSERT INTO sextant_vector_files (collection, token) VALUES (?, ?) ON CONFLICT(collection) DO UPDATE SET token = excluded.token`),
      clearFileToken: db.prepare(`DELETE FROM sextant_vector_files WHERE collection = ?`),
      count: db.prepare(`SELECT count(*) AS n FROM ${t}_points`),
    };
    const meta = this.stmt.meta.get(t) as { dims: number | null; scale: number | null } | undefined;
    this.dims = meta?.dims ?? options.dims;
    if (options.dims !== undefined && meta?.dims != null && meta.dims !== options.dims) {
      throw new Error(`collection "${t}" stores ${meta.dims}-dimensional vectors but ${options.dims} were configured; rebuild the index`);
    }
    this.floatFilePath = db.memory ? null : `${db.name}-${this.name}.f32`;
    this.snapshotPath = db.memory ? null : `${db.name}-${this.name}.snap`;
    if (!this.restoreSnapshot()) this.load();
    this.openFloatFile();
  }

  /**
   * Opens the float-vector file, rebuilding it from SQLite unless it was closed cleanly with the
   * token SQLite holds. Any failure leaves rescoring on SQLite reads.
   */
  private openFloatFile(): void {
    if (!this.floatFilePath || this.dims === undefined || this.floatFile || this.floatFileFailed) return;
    try {
      const token = (this.stmt.fileToken.get(this.name) as { token: string } | undefined)?.token ?? null;
      const { file, valid } = FloatVectorFile.open(this.floatFilePath, this.dims, token);
      this.floatFile = file;
      if (!valid) {
        for (const [slot, blob] of this.stmt.allF32Raw.iterate() as Iterable<[number, Buffer]>) file.write(slot, f32View(blob));
      }
    } catch {
      this.dropFloatFile();
    }
  }

  private dropFloatFile(): void {
    this.floatFileFailed = true;
    try {
      this.floatFile?.abandon();
    } catch {
      // already unusable
    }
    this.floatFile = null;
  }

  /**
   * Marks the float-vector file clean and writes the restart snapshot (the owning store calls
   * this before closing the database).
   */
  closeFiles(): void {
    this.closeSnapshot();
    if (!this.floatFile) return;
    try {
      const token = this.floatFile.close();
      this.floatFile = null;
      this.stmt.setFileToken.run(this.name, token);
    } catch {
      this.dropFloatFile();
    }
  }

  /** Key of the snapshot's token in `sextant_vector_files`. */
  private get snapshotKey(): string {
    return `${this.name}#snapshot`;
  }

  /**
   * Called by every write: the mirror now differs from the snapshot on disk. (The snapshot's token
   * in SQLite is removed by the rows' triggers, in the same transaction as the change, so it can
   * never be trusted for a database it does not mirror, whatever happens to the files afterwards.)
   */
  private invalidateSnapshot(): void {
    this.snapshotStale = true;
  }

  private currentDataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * Writes the mirror to the snapshot file when it changed since it was read: the keyword log is
   * compacted if mostly garbage and fsync'd, the snapshot written (temporary file, fsync, rename),
   * and only then its new token stored in SQLite. A crash anywhere before that leaves SQLite
   * without a matching token, i.e. the next open loads rows.
   */
  private closeSnapshot(): void {
    const log = this.kwLog;
    if (!log) return;
    this.kwLog = null;
    try {
      // A commit by another connection since our last write means this mirror may not be what SQLite holds.
      const sole = this.currentDataVersion() === this.dataVersion;
      if (this.snapshotStale && sole && !this.snapshotFailed && this.snapshotPath && this.dims !== undefined && this.high > 0) {
        const high = this.high;
        log.compact(this.kwOffset, this.kwLength, high);
        log.sync();
        const termIds: number[] = [];
        const terms: string[] = [];
        for (const { id, term } of this.stmt.terms.iterate() as Iterable<{ id: number; term: string }>) {
          termIds.push(id);
          terms.push(term);
        }
        const tags: [number, string[]][] = [];
        const ids: (string | null)[] = new Array(high);
        for (let s = 0; s < high; s++) {
          ids[s] = this.live[s] ? (this.idBySlot[s] ?? null) : null;
          const t = this.tagsBySlot[s];
          if (t && this.live[s]) tags.push([s, t]);
        }
        const dictValues = (dict: Map<string, number>) => {
          const values: string[] = new Array(dict.size);
          for (const [v, c] of dict) values[c - 1] = v;
          return values;
        };
        const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
        const state: SnapshotState = {
          token: randomUUID(),
          dims: this.dims,
          high,
          keyDicts: this.keyDicts.map(dictValues),
          paths: this.pathList.slice(1),
          idsJson: json(ids),
          tagsJson: json(tags),
          termIds: Int32Array.from(termIds),
          terms,
          logBytes: log.size,
          live: this.live.subarray(0, high),
          keyCols: this.keyCols.map((c) => c.subarray(0, high)),
          pathCol: this.pathCol.subarray(0, high),
          vectors: this.vectors.subarray(0, high * this.dims),
          kwOffset: this.kwOffset.subarray(0, high),
          kwLength: this.kwLength.subarray(0, high),
        };
        writeSnapshot(this.snapshotPath, state);
        this.stmt.setFileToken.run(this.snapshotKey, state.token);
        this.snapshotStale = false;
      }
    } catch {
      if (this.snapshotPath) removeSnapshot(this.snapshotPath);
    } finally {
      try {
        log.close();
      } catch {
        // nothing left to do
      }
    }
  }

  /** Opens the keyword log for a mirror loaded from rows (started over) or from a snapshot (kept up to `keep`). */
  private openKeywordLog(keep: number): void {
    this.kwLog = null;
    if (!this.snapshotPath) return;
    try {
      this.kwLog = KeywordLog.open(`${this.snapshotPath.slice(0, -'.snap'.length)}.kw`, keep);
      this.snapshotFailed = false;
    } catch {
      this.snapshotFailed = true;
    }
  }

  private dropKeywordLog(): void {
    this.snapshotFailed = true;
    try {
      this.kwLog?.close();
    } catch {
      // already unusable
    }
    this.kwLog = null;
  }

  /**
   * Restores the mirror from the snapshot when SQLite holds its token and the row count and
   * highest slot agree; false (nothing changed) otherwise. Keyword records are read back from the
   * log in one read and restored without re-tokenizing, exactly as from rows.
   */
  private restoreSnapshot(): boolean {
    if (!this.snapshotPath) return false;
    const token = (this.stmt.fileToken.get(this.snapshotKey) as { token: string } | undefined)?.token;
    if (!token) return false;
    const meta = this.stmt.meta.get(this.name) as { dims: number | null; scale: number | null } | undefined;
    // The vectors are read straight into the mirror's array (sized here; `load()` starts over if anything is off).
    const snap = readSnapshot(this.snapshotPath, token, this.keyCount, (high, dims) => {
      this.resetMirror(meta);
      if (this.dims !== dims) return new Int8Array(high * dims);
      this.ensureCapacity(high);
      return this.vectors.subarray(0, high * dims);
    });
    if (!snap) return false;
    const maxSlot = (this.stmt.maxSlot.get() as { slot: number | null }).slot;
    let lastLive = -1;
    let live = 0;
    for (let s = 0; s < snap.high; s++) {
      if (snap.live[s]) {
        lastLive = s;
        live++;
      }
    }
    if (meta?.dims !== snap.dims || (maxSlot ?? -1) !== lastLive || (this.stmt.count.get() as { n: number }).n !== live) return false;
    const logPath = `${this.snapshotPath.slice(0, -'.snap'.length)}.kw`;
    let logBytes: number;
    try {
      const fd = openSync(logPath, 'r');
      logBytes = fstatSync(fd).size;
      closeSync(fd);
    } catch {
      return false;
    }
    if (logBytes < snap.logBytes) return false;
    try {
      this.openKeywordLog(snap.logBytes);
      if (!this.kwLog) return false;
      const records = this.kwLog.readAll(snap.logBytes);
      const dims = snap.dims;
      if (this.vectors.buffer !== snap.vectors.buffer || this.high !== snap.high) throw new Error('snapshot not read into the mirror');
      this.live.set(snap.live);
      for (let i = 0; i < this.keyCount; i++) {
        this.keyCols[i].set(snap.keyCols[i]);
        this.keyDicts[i] = new Map(snap.keyDicts[i].map((v, c) => [v, c + 1]));
        this.keyValues[i] = [null, ...snap.keyDicts[i]];
      }
      this.pathCol.set(snap.pathCol);
      this.pathList = ['', ...snap.paths];
      this.pathDict = new Map(snap.paths.map((p, c) => [p, c + 1]));
      this.pathHead = new Int32Array(Math.max(1024, this.pathList.length));
      this.kwOffset.set(snap.kwOffset);
      this.kwLength.set(snap.kwLength);
      for (let i = 0; i < snap.termIds.length; i++) this.keyword.defineTerm(snap.termIds[i], snap.terms[i]);
      for (let s = 0; s < snap.high; s++) {
        if (!snap.live[s]) continue;
        this.liveCount++;
        const pc = this.pathCol[s];
        if (pc !== 0) {
          const next = this.pathHead[pc];
          this.pathNext[s] = next;
          if (next) this.pathPrev[next - 1] = s + 1;
          this.pathHead[pc] = s + 1;
        }
        const off = snap.kwOffset[s];
        this.keyword.restore(s, records.subarray(off, off + snap.kwLength[s]));
      }
      this.keyword.finishRestore();
      this.pendingIdentity = { ids: snap.idsJson, tags: snap.tagsJson };
      for (let s = this.high - 1; s >= 0; s--) if (!this.live[s]) this.freeSlots.push(s);
      if (this.vectors.length !== this.capacity * dims) throw new Error('snapshot dims disagree');
      this.snapshotStale = false;
      this.dataVersion = this.currentDataVersion();
      return true;
    } catch {
      this.kwLog?.close();
      this.kwLog = null;
      this.snapshotStale = true;
      return false;
    }
  }

  /** Points across all workspaces. */
  get size(): number {
    return this.liveCount;
  }

  get dimensions(): number | undefined {
    return this.dims;
  }

  /** The int8 matrix exactly as searched (slots × dims, holes are zero); for benchmarks and diagnostics only. */
  int8Matrix(): { data: Int8Array; dims: number; slots: number } {
    return { data: this.vectors.subarray(0, this.high * (this.dims ?? 0)), dims: this.dims ?? 0, slots: this.high };
  }

  private get idBySlot(): (string | null | undefined)[] {
    if (this.pendingIdentity) this.decodeIdentity();
    return this.idOfSlot;
  }

  private set idBySlot(ids: (string | null | undefined)[]) {
    this.pendingIdentity = null;
    this.pendingIds = null;
    this.idOfSlot = ids;
  }

  private get slotById(): Map<string, number> {
    if (this.pendingIdentity) this.decodeIdentity();
    return this.slotOfId;
  }

  private get tagsBySlot(): (string[] | undefined)[] {
    if (this.pendingIdentity) this.decodeIdentity();
    return this.tagsOfSlot;
  }

  private set tagsBySlot(tags: (string[] | undefined)[]) {
    this.pendingIdentity = null;
    this.tagsOfSlot = tags;
  }

  /** The id at a live slot, without decoding every id of a restored snapshot. */
  private idAt(slot: number): string {
    const pending = this.pendingIdentity;
    if (pending) {
      if (this.pendingIds === null) this.pendingIds = SnapshotIds.index(pending.ids, this.high) ?? false;
      if (this.pendingIds) return this.pendingIds.get(slot)!;
    }
    return this.idBySlot[slot]!;
  }

  private decodeIdentity(): void {
    const pending = this.pendingIdentity!;
    this.pendingIdentity = null;
    this.pendingIds = null;
    const ids = JSON.parse(Buffer.from(pending.ids.buffer, pending.ids.byteOffset, pending.ids.byteLength).toString('utf8')) as (string | null)[];
    this.idOfSlot = ids;
    for (let s = 0; s < ids.length; s++) {
      const id = ids[s];
      if (id !== null && this.live[s]) this.slotOfId.set(id, s);
    }
    const tags = JSON.parse(Buffer.from(pending.tags.buffer, pending.tags.byteOffset, pending.tags.byteLength).toString('utf8')) as [number, string[]][];
    for (const [s, t] of tags) this.tagsOfSlot[s] = t;
  }

  /** Empties the mirror (dims and scale from the meta row). */
  private resetMirror(meta: { dims: number | null; scale: number | null } | undefined): void {
    this.generation++;
    if (meta?.dims != null) this.dims = meta.dims;
    this.scale = meta?.scale ?? undefined;
    this.capacity = 0;
    this.high = 0;
    this.vectors = new Int8Array(0);
    this.live = new Uint8Array(0);
    this.keyCols = Array.from({ length: this.keyCount }, () => new Int32Array(0));
    this.keyDicts = Array.from({ length: this.keyCount }, () => new Map());
    this.keyValues = Array.from({ length: this.keyCount }, () => [null]);
    this.pathCol = new Int32Array(0);
    this.pathDict = new Map();
    this.pathList = [''];
    this.tagsBySlot = [];
    this.idBySlot = [];
    this.slotById.clear();
    this.freeSlots = [];
    this.liveCount = 0;
    this.keyword = new KeywordIndex();
    this.pathHead = new Int32Array(1024);
    this.pathNext = new Int32Array(0);
    this.pathPrev = new Int32Array(0);
    this.kwOffset = new Float64Array(0);
    this.kwLength = new Int32Array(0);
  }

  /** Rebuilds the mirror from the rows (and the keyword log from their records). */
  private load(): void {
    const meta = this.stmt.meta.get(this.name) as { dims: number | null; scale: number | null } | undefined;
    this.resetMirror(meta);
    // The snapshot (if any) no longer describes what is loaded from here on.
    this.snapshotStale = true;
    const log = this.kwLog;
    this.kwLog = null;
    try {
      log?.close();
    } catch {
      // already unusable
    }
    try {
      // Before the log is started over: a snapshot pointing into the old log must never match again.
      if (this.snapshotPath) this.stmt.clearFileToken.run(this.snapshotKey);
      this.openKeywordLog(0);
    } catch {
      this.snapshotFailed = true;
    }
    // Size the mirror once (1.5× growth while streaming rows would leave up to a third unused).
    const maxSlot = (this.stmt.maxSlot.get() as { slot: number | null }).slot;
    if (maxSlot !== null) {
      this.ensureCapacity(maxSlot + 1);
      this.high = 0;
    }
    for (const { id, term } of this.stmt.terms.iterate() as Iterable<{ id: number; term: string }>) this.keyword.defineTerm(id, term);
    // Rows from before keyword records (upgraded FTS5 files) carry plain tokens: encode them once.
    const converted: [slot: number, record: Buffer][] = [];
    type Row = { slot: number; id: string; keys: string; path: string | null; tags: string; vec_i8: Buffer; tokens: string | null; kw: Buffer | null };
    for (const row of this.stmt.load.iterate() as Iterable<Row>) {
      this.ensureCapacity(row.slot + 1);
      this.setFacts(row.slot, row.id, { keys: JSON.parse(row.keys), path: row.path, tags: JSON.parse(row.tags) });
      this.vectors.set(new Int8Array(row.vec_i8.buffer, row.vec_i8.byteOffset, row.vec_i8.byteLength), row.slot * this.dims!);
      let record = row.kw;
      if (record === null) {
        record = KeywordIndex.serialize(this.keyword.encode(row.tokens ?? ''));
        converted.push([row.slot, record]);
      }
      this.keyword.restore(row.slot, record);
      this.logRecord(row.slot, record);
    }
    this.keyword.finishRestore();
    this.flushKeywordLog();
    if (converted.length) {
      const terms = this.keyword.takeNewTerms();
      this.db.transaction(() => {
        this.insertTerms(terms);
        for (const [slot, record] of converted) this.stmt.setKw.run(record, slot);
      })();
    }
    for (let s = this.high - 1; s >= 0; s--) if (!this.live[s]) this.freeSlots.push(s);
    this.dataVersion = this.currentDataVersion();
  }

  private ensureCapacity(slots: number): void {
    if (slots > this.high) this.high = slots;
    if (slots <= this.capacity) return;
    const cap = Math.max(1024, slots, Math.ceil(this.capacity * 1.5));
    const dims = this.dims ?? 0;
    const grow = <T extends Int8Array | Uint8Array | Int32Array>(old: T, make: (n: number) => T, width: number): T => {
      const next = make(cap * width);
      next.set(old);
      return next;
    };
    this.vectors = grow(this.vectors, (n) => new Int8Array(n), dims);
    this.live = grow(this.live, (n) => new Uint8Array(n), 1);
    this.keyCols = this.keyCols.map((c) => grow(c, (n) => new Int32Array(n), 1));
    this.pathCol = grow(this.pathCol, (n) => new Int32Array(n), 1);
    this.pathNext = grow(this.pathNext, (n) => new Int32Array(n), 1);
    this.pathPrev = grow(this.pathPrev, (n) => new Int32Array(n), 1);
    this.kwLength = grow(this.kwLength, (n) => new Int32Array(n), 1);
    if (this.watched.length < cap) this.watched = grow(this.watched, (n) => new Uint8Array(n), 1);
    const kwOffset = new Float64Array(cap);
    kwOffset.set(this.kwOffset);
    this.kwOffset = kwOffset;
    this.capacity = cap;
  }

  private code(key: number, value: string | null): number {
    if (value === null || value === undefined) return 0;
    const dict = this.keyDicts[key];
    let c = dict.get(value);
    if (c === undefined) {
      c = dict.size + 1;
      dict.set(value, c);
      this.keyValues[key][c] = value;
    }
    return c;
  }

  private setFacts(slot: number, id: string, facts: RowFacts): void {
    for (let i = 0; i < this.keyCount; i++) this.keyCols[i][slot] = this.code(i, facts.keys[i] ?? null);
    let pc = 0;
    if (facts.path !== null) {
      let c = this.pathDict.get(facts.path);
      if (c === undefined) {
        c = this.pathList.length;
        this.pathList.push(facts.path);
        this.pathDict.set(facts.path, c);
        if (c >= this.pathHead.length) {
          const head = new Int32Array(2 * c);
          head.set(this.pathHead);
          this.pathHead = head;
        }
      }
      pc = c;
    }
    if (this.live[slot]) this.unlinkPath(slot);
    this.pathCol[slot] = pc;
    if (pc !== 0) {
      const next = this.pathHead[pc];
      this.pathNext[slot] = next;
      this.pathPrev[slot] = 0;
      if (next) this.pathPrev[next - 1] = slot + 1;
      this.pathHead[pc] = slot + 1;
    }
    this.tagsBySlot[slot] = facts.tags.length ? facts.tags : undefined;
    if (!this.live[slot]) this.liveCount++;
    this.live[slot] = 1;
    this.idBySlot[slot] = id;
    this.slotById.set(id, slot);
  }

  private unlinkPath(slot: number): void {
    const pc = this.pathCol[slot];
    if (pc === 0) return;
    const prev = this.pathPrev[slot];
    const next = this.pathNext[slot];
    if (prev) this.pathNext[prev - 1] = next;
    else this.pathHead[pc] = next;
    if (next) this.pathPrev[next - 1] = prev;
    this.pathNext[slot] = 0;
    this.pathPrev[slot] = 0;
  }

  private clearSlot(slot: number): void {
    const id = this.idBySlot[slot];
    if (id != null) this.slotById.delete(id);
    if (this.live[slot]) {
      this.liveCount--;
      this.unlinkPath(slot);
    }
    this.live[slot] = 0;
    this.pathCol[slot] = 0;
    this.keyword.remove(slot);
    this.idBySlot[slot] = undefined;
    this.tagsBySlot[slot] = undefined;
    for (let i = 0; i < this.keyCount; i++) this.keyCols[i][slot] = 0;
    if (this.dims) this.vectors.fill(0, slot * this.dims, (slot + 1) * this.dims);
    this.columns?.index.clear(slot);
    this.freeSlots.push(slot);
  }

  private allocate(): number {
    const slot = this.freeSlots.length ? this.freeSlots.pop()! : this.high;
    this.ensureCapacity(slot + 1);
    return slot;
  }

  /** Queues a slot's keyword record for the log (written by {@link flushKeywordLog}). */
  private logRecord(slot: number, record: Uint8Array): void {
    if (!this.kwLog) return;
    try {
      this.kwOffset[slot] = this.kwLog.append(record);
      this.kwLength[slot] = record.byteLength;
    } catch {
      this.dropKeywordLog();
    }
  }

  private flushKeywordLog(): void {
    try {
      this.kwLog?.flush();
    } catch {
      this.dropKeywordLog();
    }
  }

  private insertTerms(terms: { id: number; term: string }[]): void {
    for (let i = 0; i < terms.length; ) {
      let j = i + 1;
      while (j < terms.length && terms[j].id === terms[j - 1].id + 1) j++;
      this.stmt.insertTerms.run(terms[i].id, JSON.stringify(terms.slice(i, j).map((x) => x.term)));
      i = j;
    }
  }

  /** Inserts or replaces points by id in one transaction; validates everything before writing. */
  upsert(points: ReadonlyArray<IndexedPoint<P>>): void {
    if (!points.length) return;
    const dims = this.dims ?? points[0].vector.length;
    const n = points.length;
    // Validate and normalise into one contiguous batch before touching anything.
    const batch = new Float32Array(n * dims);
    for (let idx = 0; idx < n; idx++) {
      const p = points[idx];
      if (typeof p.id !== 'string' || !p.id) throw new InvalidFilterError(`${this.name}.upsert: every point needs a string id`);
      if (!p.payload || typeof p.payload.workspaceId !== 'string' || !p.payload.workspaceId) {
        throw new InvalidFilterError(`${this.name}.upsert: point ${p.id} has no payload.workspaceId`);
      }
      const v = p.vector;
      if (v.length !== dims) throw new InvalidFilterError(`${this.name}.upsert: point ${p.id} has a ${v.length}-dim vector, collection uses ${dims}`);
      const off = idx * dims;
      let norm = 0;
      for (let i = 0; i < dims; i++) {
        const x = v[i];
        if (!Number.isFinite(x)) throw new InvalidFilterError(`${this.name}.upsert: point ${p.id} has a non-finite vector value`);
        batch[off + i] = x;
        norm += x * x;
      }
      norm = Math.sqrt(norm);
      if (!Number.isFinite(norm)) throw new InvalidFilterError(`${this.name}.upsert: point ${p.id} has a non-finite vector value`);
      if (norm > 0) for (let i = 0; i < dims; i++) batch[off + i] /= norm;
    }

    this.generation++;
    this.floatFile?.beginWrites();
    const slots = new Int32Array(n);
    const write = this.db.transaction(() => {
      if (this.dims === undefined) {
        this.dims = dims;
        this.vectors = new Int8Array(this.capacity * dims);
      }
      if (this.scale === undefined) this.scale = absQuantile(batch);
      else if (exceedsScale(batch, this.scale * REQUANTIZE_FACTOR)) this.requantize(absQuantile(batch));
      this.stmt.setMeta.run(this.name, this.dims, this.scale);
      this.invalidateSnapshot();
      const i8 = new Int8Array(dims);
      const i8buf = Buffer.from(i8.buffer, i8.byteOffset, i8.byteLength);
      const f32buf = Buffer.from(batch.buffer, batch.byteOffset, batch.byteLength);
      for (let idx = 0; idx < n; idx++) {
        const p = points[idx];
        const existing = this.slotById.get(p.id);
        if (existing !== undefined) this.rescueIfWatched(existing);
        const slot = existing ?? this.allocate();
        slots[idx] = slot;
        const facts = this.facts(p.payload);
        const f32 = batch.subarray(idx * dims, (idx + 1) * dims);
        quantizeInto(f32, this.scale!, i8);
        // Encoding interns new terms; they are persisted below, in this same transaction.
        const record = this.keyword.encode((p as PreTokenized).tokens ?? tokenize(p.text ?? ''));
        const stored = KeywordIndex.serialize(record, this.recordScratch);
        this.stmt.upsert.run(slot, p.id, JSON.stringify(facts.keys), facts.path, JSON.stringify(facts.tags), JSON.stringify(p.payload),
          i8buf, f32buf.subarray(idx * dims * 4, (idx + 1) * dims * 4), stored);
        this.logRecord(slot, stored);
        this.setFacts(slot, p.id, facts);
        this.vectors.set(i8, slot * dims);
        this.columns?.index.write(slot, i8);
        this.keyword.insert(slot, record);
      }
      this.insertTerms(this.keyword.takeNewTerms());
    });
    try {
      write();
    } catch (e) {
      this.kwLog?.discard();
      this.load(); // the transaction rolled back; rebuild the mirror from what is on disk
      throw e;
    }
    this.flushKeywordLog();
    this.dataVersion = this.currentDataVersion();
    if (!this.floatFile) this.openFloatFile(); // first vectors of a new collection: the file starts now (copying them)
    else {
      try {
        // Fresh slots are consecutive: one write per run of them, not one per vector.
        for (let idx = 0; idx < n; ) {
          let end = idx + 1;
          while (end < n && slots[end] === slots[end - 1] + 1) end++;
          this.floatFile.writeRun(slots[idx], batch.subarray(idx * dims, end * dims), end - idx);
          idx = end;
        }
      } catch {
        this.dropFloatFile();
      }
    }
  }

  /**
   * A batch with larger values than the collection's scale would clip badly: widen the scale and
   * re-quantise every stored vector from its float original (rare: embeddings are unit length).
   */
  private requantize(scale: number): void {
    this.scale = scale;
    this.columns?.index.reset();
    const dims = this.dims!;
    const i8 = new Int8Array(dims);
    for (const row of this.stmt.allF32.all() as { slot: number; vec_f32: Buffer }[]) {
      const f = new Float32Array(row.vec_f32.buffer.slice(row.vec_f32.byteOffset, row.vec_f32.byteOffset + row.vec_f32.byteLength));
      quantizeInto(f, scale, i8);
      this.stmt.setI8.run(Buffer.from(i8), row.slot);
      this.vectors.set(i8, row.slot * dims);
    }
  }

  /**
   * Marks the slots matching the query; returns the mask, how many matched and, when they were
   * found without scanning every slot (ids, exact paths), the list of them.
   */
  private candidates(q: CollectionQuery): { mask: Uint8Array; count: number; listed?: number[] } {
    const mask = new Uint8Array(this.high);
    const allowed: (Uint8Array | null)[] = [];
    for (let i = 0; i < this.keyCount; i++) {
      const values = q.keyValues[i];
      if (!values || (i > 0 && values.length === 0)) {
        allowed.push(null);
        continue;
      }
      const table = new Uint8Array(this.keyDicts[i].size + 1);
      let any = false;
      for (const v of values) {
        const c = this.keyDicts[i].get(v);
        if (c !== undefined) {
          table[c] = 1;
          any = true;
        }
      }
      if (!any) return { mask, count: 0 };
      allowed.push(table);
    }
    let exactPaths: Set<string> | null = null;
    if (q.paths && q.paths.length) exactPaths = new Set(q.paths);
    const pathVerdict = q.pathPredicate || exactPaths ? new Int8Array(this.pathList.length) : null;
    const tags = q.tags && q.tags.length ? new Set(q.tags) : null;

    const checkSlot = (s: number): boolean => {
      if (!this.live[s]) return false;
      for (let i = 0; i < this.keyCount; i++) {
        const table = allowed[i];
        if (table !== null && table[this.keyCols[i][s]] !== 1) return false;
      }
      if (pathVerdict) {
        const pc = this.pathCol[s];
        let verdict = pathVerdict[pc];
        if (verdict === 0) {
          const path = this.pathList[pc];
          const ok = pc !== 0 && (!exactPaths || exactPaths.has(path)) && (!q.pathPredicate || q.pathPredicate(path));
          verdict = ok ? 1 : -1;
          pathVerdict[pc] = verdict;
        }
        if (verdict !== 1) return false;
      }
      if (tags) {
        const t = this.tagsBySlot[s];
        if (!t || !t.some((x) => tags.has(x))) return false;
      }
      return true;
    };
    let count = 0;
    if (!pathVerdict && !tags && !(q.ids && q.ids.length)) {
      // Hot path: only dictionary-coded columns, a tight loop over typed arrays.
      const live = this.live;
      const cols = this.keyCols;
      const tables = allowed;
      outer: for (let s = 0; s < this.high; s++) {
        if (!live[s]) continue;
        for (let i = 0; i < cols.length; i++) {
          const table = tables[i];
          if (table !== null && table[cols[i][s]] !== 1) continue outer;
        }
        mask[s] = 1;
        count++;
      }
      return { mask, count };
    }
    if (exactPaths && !(q.ids && q.ids.length)) {
      // Exact paths (the indexer's "delete this batch's old chunks"): visit only their slots.
      const listed: number[] = [];
      for (const path of exactPaths) {
        const pc = this.pathDict.get(path);
        for (let s1 = pc === undefined ? 0 : this.pathHead[pc]; s1 > 0; s1 = this.pathNext[s1 - 1]) {
          if (checkSlot(s1 - 1)) {
            mask[s1 - 1] = 1;
            listed.push(s1 - 1);
          }
        }
      }
      return { mask, count: listed.length, listed };
    } else if (q.ids && q.ids.length) {
      const listed: number[] = [];
      for (const id of q.ids) {
        const s = this.slotById.get(id);
        if (s !== undefined && !mask[s] && checkSlot(s)) {
          mask[s] = 1;
          listed.push(s);
        }
      }
      return { mask, count: listed.length, listed };
    } else {
      for (let s = 0; s < this.high; s++) {
        if (checkSlot(s)) {
          mask[s] = 1;
          count++;
        }
      }
    }
    return { mask, count };
  }

  count(q: CollectionQuery): number {
    return this.candidates(q).count;
  }

  /**
   * `candidates` for searches: a filter made only of key values (the usual "this workspace",
   * maybe some repos or languages) is the same mask for every query until the next write, so it
   * is kept (a few per collection). Callers must not modify the returned mask.
   */
  private searchCandidates(q: CollectionQuery): { mask: Uint8Array; count: number } {
    const keyOnly = !q.pathPredicate && !(q.paths && q.paths.length) && !(q.tags && q.tags.length) && !(q.ids && q.ids.length);
    if (!keyOnly) return this.candidates(q);
    const key = JSON.stringify(q.keyValues);
    const hit = this.maskCache.get(key);
    if (hit && hit.generation === this.generation) {
      this.maskCache.delete(key);
      this.maskCache.set(key, hit);
      return hit;
    }
    const built = this.candidates(q);
    this.maskCache.delete(key);
    this.maskCache.set(key, { generation: this.generation, ...built });
    if (this.maskCache.size > MASK_CACHE_SIZE) this.maskCache.delete(this.maskCache.keys().next().value!);
    return built;
  }

  deleteWhere(q: CollectionQuery): number {
    const { mask, count, listed } = this.candidates(q);
    if (!count) return 0;
    let slots = listed;
    if (!slots) {
      slots = [];
      for (let s = 0; s < mask.length; s++) if (mask[s]) slots.push(s);
    }
    this.generation++;
    this.db.transaction(() => {
      this.invalidateSnapshot();
      for (const s of slots) {
        this.rescueIfWatched(s);
        this.stmt.delete.run(s);
      }
    })();
    this.dataVersion = this.currentDataVersion();
    for (const s of slots) {
      this.clearSlot(s);
      this.kwLength[s] = 0;
    }
    return slots.length;
  }

  get(ids: readonly string[], workspaceId: string): StoredPoint<P>[] {
    const out: StoredPoint<P>[] = [];
    for (const id of ids) {
      const slot = this.slotById.get(id);
      if (slot === undefined) continue;
      const hit = this.readPayload(slot);
      if (hit && hit.payload.workspaceId === workspaceId) out.push(hit);
    }
    return out;
  }

  private readPayload(slot: number): StoredPoint<P> | undefined {
    const row = this.stmt.payload.get(slot) as { id: string; payload: string } | undefined;
    return row ? { id: row.id, payload: JSON.parse(row.payload) as P } : undefined;
  }

  /**
   * Search hits with lazy payloads: the fields in `factFields` come from memory, the row is read
   * and parsed only when another field is used (a file search needs repository, path and language
   * of 150 chunks, and the text of the few it shows).
   */
  private withPayloads(hits: { slot: number; score: number }[]): ScoredPoint<P>[] {
    if (!hits.length) return [];
    if (!this.factFields.length) return this.withStoredPayloads(hits);
    const at = Date.now();
    const mark = watchMark(at);
    this.expireRescued(at);
    const out: ScoredPoint<P>[] = new Array(hits.length);
    for (let i = 0; i < hits.length; i++) {
      const slot = hits[i].slot;
      this.watched[slot] = mark;
      const id = this.idAt(slot);
      const known: Record<string, unknown> = {};
      for (const [field, fact] of this.factFields) {
        const value = fact === 'path' ? (this.pathCol[slot] ? this.pathList[this.pathCol[slot]] : null) : this.keyValues[fact][this.keyCols[fact][slot]];
        if (value !== null && value !== undefined) known[field] = value;
      }
      out[i] = { id, score: hits[i].score, payload: lazyPayload<P>(known, { slot, id, generation: this.generation, at }, this.loadHitPayload) };
    }
    return out;
  }

  /** Search hits with their payloads read now, in one statement (for collections whose searches use every field). */
  private withStoredPayloads(hits: { slot: number; score: number }[]): ScoredPoint<P>[] {
    const rows = new Map<number, string>();
    for (const [slot, payload] of this.stmt.payloads.all(slotList(hits)) as [number, string][]) rows.set(slot, payload);
    const out: ScoredPoint<P>[] = [];
    for (const h of hits) {
      const row = rows.get(h.slot);
      if (row !== undefined) out.push({ id: this.idAt(h.slot), score: h.score, payload: JSON.parse(row) as P });
    }
    return out;
  }

  /** The payload a hit had when it was returned (see {@link HIT_PAYLOAD_GUARANTEE_MS}). */
  private hitPayload(origin: PayloadOrigin): Record<string, unknown> {
    if (origin.generation !== this.generation) {
      const copy = this.rescued.get(origin.slot)?.find((r) => r.generation > origin.generation);
      if (copy) return JSON.parse(copy.payload) as Record<string, unknown>;
    }
    let row = this.stmt.payload.get(origin.slot) as { id: string; payload: string } | undefined;
    if (row?.id !== origin.id) {
      const slot = this.slotById.get(origin.id);
      row = slot === undefined ? undefined : (this.stmt.payload.get(slot) as { id: string; payload: string } | undefined);
    }
    if (!row) throw new Error(`${this.name}: point ${origin.id} was deleted before its search hit's payload was read`);
    return JSON.parse(row.payload) as Record<string, unknown>;
  }

  /** Before a write replaces or deletes a row that a search returned lately, keeps its payload for those hits. */
  private rescueIfWatched(slot: number): void {
    const mark = this.watched[slot];
    if (mark === 0) return;
    const at = Date.now();
    if ((watchMark(at) - mark + 255) % 255 > WATCH_EPOCHS) return;
    const row = this.stmt.payload.get(slot) as { id: string; payload: string } | undefined;
    if (!row) return;
    this.expireRescued(at);
    const copy: RescuedPayload = { slot, generation: this.generation, id: row.id, payload: row.payload, at };
    const list = this.rescued.get(slot);
    if (list) list.push(copy);
    else this.rescued.set(slot, [copy]);
    this.rescueQueue.push(copy);
  }

  private expireRescued(now: number): void {
    const queue = this.rescueQueue;
    while (this.rescueHead < queue.length && now - queue[this.rescueHead].at > HIT_PAYLOAD_GUARANTEE_MS + WATCH_EPOCH_MS) {
      const copy = queue[this.rescueHead++];
      const list = this.rescued.get(copy.slot)!;
      list.shift();
      if (!list.length) this.rescued.delete(copy.slot);
    }
    if (this.rescueHead === queue.length) {
      this.rescueQueue = [];
      this.rescueHead = 0;
    }
  }

  /**
   * Exact int8 search over the filtered candidates (usearch SIMD inner product), then optional
   * float rescoring. Filters never cost recall: a wide filter scans everything with oversampling
   * and falls back to the subset when too few candidates survive; a narrow one copies the subset.
   */
  searchDense(vector: Float32Array | readonly number[], q: CollectionQuery, k: number, tuning: DenseSearchTuning = {}): ScoredPoint<P>[] {
    if (this.dims === undefined || this.scale === undefined || this.liveCount === 0) return [];
    if (vector.length !== this.dims) throw new InvalidFilterError(`${this.name}.searchDense: query vector has ${vector.length} dims, collection uses ${this.dims}`);
    const { rescore = true, oversampling = 4 } = tuning;
    const { mask, count } = this.searchCandidates(q);
    if (!count) return [];
    const want = Math.min(count, rescore ? Math.ceil(k * Math.max(1, oversampling)) : k, MAX_SEARCH_K * 4);
    const query = normalize(vector);
    const qi8 = new Int8Array(this.dims);
    quantizeInto(query, this.scale, qi8);
    const toCos = (this.scale / 127) ** 2;

    let hits = this.scanColumns(qi8, mask, count, want) ?? this.scanAll(qi8, mask, count, want) ?? this.scanSubset(qi8, mask, count, want);
    hits = hits.map((h) => ({ slot: h.slot, score: h.score * toCos }));
    if (rescore) hits = this.rescore(query, hits);
    return this.withPayloads(hits.slice(0, k));
  }

  /**
   * Exact int8 scores from the column-major copy when the query has few non-zero dimensions (the
   * same integers as the row-major scan, reading a fraction of the memory); null when the
   * collection is small, the filter narrow, the query dense or the copy not built yet.
   */
  private scanColumns(qi8: Int8Array, mask: Uint8Array, count: number, want: number): { slot: number; score: number }[] | null {
    if (this.high < this.columnScanMinSlots || count < this.high * SUBSET_FRACTION || this.columnsFailed) return null;
    let nonZero = 0;
    for (let i = 0; i < qi8.length; i++) if (qi8[i] !== 0) nonZero++;
    if (nonZero > qi8.length * SPARSE_QUERY_FRACTION) return null;
    if (this.columns?.of !== this.vectors) {
      if (this.columns) this.columns.index.reset();
      try {
        this.columns = { of: this.vectors, index: this.columns?.index ?? new Int8Columns(this.dims!) };
      } catch {
        // no WebAssembly memory to be had: stay on the row-major scan
        this.columnsFailed = true;
        return null;
      }
    }
    if (!this.columns.index.covers(this.high)) {
      this.buildColumns();
      return null;
    }
    return this.columns.index.search(qi8, mask, this.high, want);
  }

  /** Copies the row-major vectors into `columns`, 16k slots per event-loop turn (tens of ms each at 384 dims). */
  private buildColumns(): void {
    if (this.columnsBuilding) return;
    this.columnsBuilding = true;
    const step = () => {
      const columns = this.columns;
      try {
        if (columns && columns.of === this.vectors && columns.index.buildNext(this.vectors, this.high)) {
          setImmediate(step);
          return;
        }
      } catch {
        // the WebAssembly memory could not grow: stay on the row-major scan
        this.columnsFailed = true;
        this.columns = null;
      }
      this.columnsBuilding = false;
    };
    setImmediate(step);
  }

  private scanAll(qi8: Int8Array, mask: Uint8Array, count: number, want: number): { slot: number; score: number }[] | null {
    const dims = this.dims!;
    if (count < this.high * SUBSET_FRACTION) return null;
    const kk = Math.min(this.high, Math.ceil((want * this.high) / count * 1.5) + 16);
    const res = exactSearch(this.vectors.subarray(0, this.high * dims), qi8, dims, kk, MetricKind.IP, 1) as { keys: BigUint64Array; distances: Float32Array };
    const hits: { slot: number; score: number }[] = [];
    for (let i = 0; i < res.keys.length && hits.length < want; i++) {
      const slot = Number(res.keys[i]);
      if (mask[slot]) hits.push({ slot, score: 1 - res.distances[i] });
    }
    return hits.length >= want || kk >= this.high ? hits : null;
  }

  private scanSubset(qi8: Int8Array, mask: Uint8Array, count: number, want: number): { slot: number; score: number }[] {
    const dims = this.dims!;
    if (this.scratch.length < count * dims) this.scratch = new Int8Array(count * dims);
    const slots = new Int32Array(count);
    let n = 0;
    for (let s = 0; s < mask.length; ) {
      if (!mask[s]) {
        s++;
        continue;
      }
      let e = s;
      while (e < mask.length && mask[e]) slots[n + (e - s)] = e++;
      this.scratch.set(this.vectors.subarray(s * dims, e * dims), n * dims);
      n += e - s;
      s = e;
    }
    const res = exactSearch(this.scratch.subarray(0, n * dims), qi8, dims, Math.min(want, n), MetricKind.IP, 1) as { keys: BigUint64Array; distances: Float32Array };
    const hits: { slot: number; score: number }[] = [];
    for (let i = 0; i < res.keys.length; i++) hits.push({ slot: slots[Number(res.keys[i])], score: 1 - res.distances[i] });
    return hits;
  }

  private rescore(query: Float32Array, hits: { slot: number; score: number }[]): { slot: number; score: number }[] {
    if (!hits.length) return hits;
    const fromFile = this.floatFile ? this.rescoreFromFile(this.floatFile, query, hits) : null;
    if (fromFile) return fromFile;
    const vectors = new Map<number, Buffer>();
    for (const [slot, blob] of this.stmt.f32s.all(slotList(hits)) as [number, Buffer][]) vectors.set(slot, blob);
    const used = nonZeroDims(query);
    const out = hits.map((h) => {
      const blob = vectors.get(h.slot);
      if (!blob) return h;
      return { slot: h.slot, score: dotAt(new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4), 0, query, used) };
    });
    return out.sort((a, b) => b.score - a.score);
  }

  /**
   * Reads the candidates in slot order, one `pread` for each run of nearby slots (the chunks of
   * one file sit side by side, and a filtered search for a few files rescores all of them).
   */
  private rescoreFromFile(file: FloatVectorFile, query: Float32Array, hits: { slot: number; score: number }[]): { slot: number; score: number }[] | null {
    const dims = this.dims!;
    const n = hits.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => hits[a].slot - hits[b].slot);
    const scores = new Float64Array(n);
    // A hash-embedder query has a few dozen non-zero dimensions; the others add exactly 0 to every dot product.
    const used = nonZeroDims(query);
    try {
      for (let i = 0; i < n; ) {
        const first = hits[order[i]].slot;
        let j = i + 1;
        while (j < n && hits[order[j]].slot - hits[order[j - 1]].slot <= RESCORE_READ_GAP && hits[order[j]].slot - first < RESCORE_READ_RUN) j++;
        const f = file.readRun(first, hits[order[j - 1]].slot - first + 1);
        if (!f) return null; // shorter than expected: not trustworthy, read from SQLite
        for (let t = i; t < j; t++) {
          scores[order[t]] = dotAt(f, (hits[order[t]].slot - first) * dims, query, used);
        }
        i = j;
      }
    } catch {
      this.dropFloatFile();
      return null;
    }
    return hits.map((h, i) => ({ slot: h.slot, score: scores[i] })).sort((a, b) => b.score - a.score);
  }

  /**
   * BM25 over tokenizer output from the in-memory inverted index, filtered during scoring with the
   * same mask as dense search (so a narrow filter never needs a wider top-k).
   */
  searchKeyword(query: string, q: CollectionQuery, k: number, mode: KeywordMode): ScoredPoint<P>[] {
    const terms = keywordQueryTerms(query, mode);
    if (!terms.length || this.liveCount === 0) return [];
    const { mask, count } = this.searchCandidates(q);
    if (!count) return [];
    return this.withPayloads(this.keyword.search(terms, mode, mask, k));
  }
}

/**
 * Whether more than (1 − INT8_QUANTILE) of `values` exceed `limit` in magnitude, i.e. whether the
 * batch's 0.99 quantile is above `limit` — one linear pass instead of sorting every batch.
 */
function exceedsScale(values: Float32Array, limit: number): boolean {
  const allowed = Math.floor(values.length * (1 - INT8_QUANTILE));
  let over = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] > limit || values[i] < -limit) {
      if (++over > allowed) return true;
    }
  }
  return false;
}

/**
 * Brings older files up to date in place, in one transaction, with no separate migration step:
 * - adds the `tokens` / `kw` columns when missing (`kw` is then filled from `tokens` at load);
 * - files from the FTS5 era kept tokens only inside a contentless FTS5 table, which can still
 *   list every token instance (fts5vocab 'instance'): they are copied into `tokens` in document
 *   order and the FTS5 table is dropped.
 * Re-running is a no-op.
 */
function upgradeSchema(db: Database.Database, t: string): void {
  const columns = new Set((db.prepare(`PRAGMA table_info(${t}_points)`).all() as { name: string }[]).map((c) => c.name));
  const hasFts = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(`${t}_fts`) !== undefined;
  if (columns.has('tokens') && columns.has('kw') && !hasFts) return;
  db.transaction(() => {
    if (!columns.has('tokens')) db.exec(`ALTER TABLE ${t}_points ADD COLUMN tokens TEXT`);
    if (!columns.has('kw')) db.exec(`ALTER TABLE ${t}_points ADD COLUMN kw BLOB`);
    if (!hasFts) return;
    db.exec(`CREATE VIRTUAL TABLE temp.${t}_fts_upgrade USING fts5vocab(main, ${t}_fts, 'instance')`);
    const docs = new Map<number, string[]>();
    for (const row of db.prepare(`SELECT doc, max("offset") AS last FROM temp.${t}_fts_upgrade GROUP BY doc`).iterate() as Iterable<{ doc: number; last: number }>) {
      docs.set(row.doc, new Array<string>(row.last + 1));
    }
    let term = '';
    for (const row of db.prepare(`SELECT term, doc, "offset" AS o FROM temp.${t}_fts_upgrade`).iterate() as Iterable<{ term: string; doc: number; o: number }>) {
      if (row.term !== term) term = row.term; // rows come term by term: share one string per term
      const tokens = docs.get(row.doc);
      if (tokens) tokens[row.o] = term;
    }
    const set = db.prepare(`UPDATE ${t}_points SET tokens = ?, kw = NULL WHERE slot = ?`);
    for (const [slot, tokens] of docs) set.run(tokens.filter((x) => x !== undefined).join(' '), slot);
    db.exec(`UPDATE ${t}_points SET tokens = '', kw = NULL WHERE tokens IS NULL AND kw IS NULL`);
    db.exec(`DROP TABLE temp.${t}_fts_upgrade`);
    db.exec(`DROP TABLE ${t}_fts`);
  })();
}

/**
 * The non-zero dimensions of `query` in ascending order when they are at most half of them, else
 * null. Summing only those gives the same dot product bit for bit: skipped terms are ±0 and
 * adding ±0 to a float leaves it unchanged (stored vectors are finite).
 */
function nonZeroDims(query: Float32Array): Int32Array | null {
  let count = 0;
  for (let d = 0; d < query.length; d++) if (query[d] !== 0) count++;
  if (count * 2 > query.length) return null;
  const used = new Int32Array(count);
  for (let d = 0, u = 0; d < query.length; d++) if (query[d] !== 0) used[u++] = d;
  return used;
}

/** The dot product of `query` with the vector at `base` in `f`, over `used` dimensions only when given. */
function dotAt(f: Float32Array, base: number, query: Float32Array, used: Int32Array | null): number {
  let dot = 0;
  if (used) for (let u = 0; u < used.length; u++) dot += f[base + used[u]] * query[used[u]];
  else for (let d = 0; d < query.length; d++) dot += f[base + d] * query[d];
  return dot;
}
