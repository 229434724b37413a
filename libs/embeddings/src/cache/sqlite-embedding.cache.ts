import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { EmbeddingCache } from './embedding-cache.port';

export interface SqliteEmbeddingCacheOptions {
  /** SQLite file of its own (e.g. `<SEXTANT_DATA_DIR>/embeddings-cache.sqlite`); parent folders are created. `:memory:` works for tests. */
  path: string;
}

/**
 * Persistent embedding cache in its own SQLite file (WAL): one row per (model id, content
 * hash) with the vector as a little-endian Float32 blob. It survives restarts, re-clones and
 * branch switches, so unchanged chunks are never sent to a paid embedding API twice.
 *
 * @example
 * const cache = new SqliteEmbeddingCache({ path: join(dataDir, 'embeddings-cache.sqlite') });
 * const embedder = new CachedEmbedder({ embedder: createEmbedder(config), cache });
 * // … on shutdown
 * cache.close();
 */
export class SqliteEmbeddingCache implements EmbeddingCache {
  private readonly db: Database.Database;
  private readonly selectOne: Database.Statement<[string, string], { vector: Buffer }>;
  private readonly upsertOne: Database.Statement<[string, string, Buffer, number]>;
  private readonly readMany: (modelId: string, hashes: string[]) => Map<string, Float32Array>;
  private readonly writeMany: (modelId: string, entries: Array<[string, Float32Array]>) => void;

  constructor({ path }: SqliteEmbeddingCacheOptions) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`CREATE TABLE IF NOT EXISTS embedding_cache (
      model_id TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      vector BLOB NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (model_id, content_hash)
    ) WITHOUT ROWID`);
    this.selectOne = this.db.prepare('SELECT vector FROM embedding_cache WHERE model_id = ? AND content_hash = ?');
    this.upsertOne = this.db.prepare(
      'INSERT INTO embedding_cache (model_id, content_hash, vector, created_at) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (model_id, content_hash) DO UPDATE SET vector = excluded.vector, created_at = excluded.created_at',
    );
    this.readMany = this.db.transaction((modelId: string, hashes: string[]) => {
      const found = new Map<string, Float32Array>();
      for (const hash of hashes) {
        const row = this.selectOne.get(modelId, hash);
        if (row && row.vector.byteLength % 4 === 0) found.set(hash, blobToVector(row.vector));
      }
      return found;
    });
    this.writeMany = this.db.transaction((modelId: string, entries: Array<[string, Float32Array]>) => {
      const now = Date.now();
      for (const [hash, vector] of entries) this.upsertOne.run(modelId, hash, vectorToBlob(vector), now);
    });
  }

  getMany(modelId: string, contentHashes: string[]): Map<string, Float32Array> {
    return contentHashes.length === 0 ? new Map() : this.readMany(modelId, contentHashes);
  }

  putMany(modelId: string, entries: Array<[contentHash: string, vector: Float32Array]>): void {
    if (entries.length > 0) this.writeMany(modelId, entries);
  }

  /** Number of cached vectors, for one model or all. */
  count(modelId?: string): number {
    const row =
      modelId === undefined
        ? (this.db.prepare('SELECT COUNT(*) AS n FROM embedding_cache').get() as { n: number })
        : (this.db.prepare('SELECT COUNT(*) AS n FROM embedding_cache WHERE model_id = ?').get(modelId) as { n: number });
    return row.n;
  }

  /** Drops every vector of a model no longer in use; returns how many were removed. */
  deleteModel(modelId: string): number {
    return this.db.prepare('DELETE FROM embedding_cache WHERE model_id = ?').run(modelId).changes;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function vectorToBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function blobToVector(blob: Buffer): Float32Array {
  // Copy into a fresh, 4-byte-aligned buffer; SQLite's Buffer may start at any offset.
  return new Float32Array(new Uint8Array(blob).buffer);
}
