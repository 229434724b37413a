import { createQdrantClient, type QdrantClient } from './qdrant-client';
import { literalGlobPrefix, pathPredicateFor, validateIndexFilter, type ChunkIndex, type ChunkPayload, type IndexFilter, type IndexHealth } from '@sextant/retrieval';
import { CollectionIndex } from '../collection-index';
import { KEYWORD_FIELD, QdrantCollection, type QdrantCondition, type QdrantClusterSettings, type QdrantQueryPlan } from './qdrant-collection';

const PATH_PREFIXES = 'sx_path_prefixes';

/** Every directory prefix of a path plus the path itself: `a/b/c.ts` -> ['a', 'a/b', 'a/b/c.ts']. */
export function pathPrefixes(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

const any = (key: string, values: readonly string[]): QdrantCondition => ({ key, match: { any: [...values] } });

/** Translates an `IndexFilter` into Qdrant conditions plus a glob post-filter. */
export function planChunkQuery(filter: IndexFilter, operation: string): QdrantQueryPlan<ChunkPayload> {
  validateIndexFilter(filter, operation);
  const must: QdrantCondition[] = [{ key: 'workspaceId', match: { value: filter.workspaceId } }];
  if (filter.repoIds?.length) must.push(any('repoId', filter.repoIds));
  if (filter.langs?.length) must.push(any('lang', filter.langs));
  if (filter.chunkTypes?.length) must.push(any('chunkType', filter.chunkTypes));
  if (filter.paths?.length) must.push(any('path', filter.paths));
  if (filter.ids?.length) must.push({ has_id: [...filter.ids] });
  if (filter.symbols?.length) must.push({ should: [any('symbol', filter.symbols), any('symbols', filter.symbols)] });
  const predicate = pathPredicateFor(filter);
  if (filter.include?.length) {
    // Narrow server-side by each include glob's literal directory; the exact glob runs as a post-filter.
    const prefixes = filter.include.map(literalGlobPrefix);
    if (prefixes.every((p) => p.length > 0)) must.push(any(PATH_PREFIXES, prefixes));
  }
  return { must, postFilter: predicate ? (p) => predicate(p.path) : null };
}

export interface QdrantIndexOptions {
  /** Connected client, or `url` (+ `apiKey`) to create one. */
  client?: QdrantClient;
  url?: string;
  apiKey?: string;
  dims: number;
  /** Collection name prefix (default `sextant_`): alias `<prefix>chunks` -> `<prefix>chunks_v1`. */
  prefix?: string;
  version?: number;
  /** Sharding/replication for new collections (`QDRANT_SHARDS`, `QDRANT_REPLICATION_FACTOR`, `QDRANT_WRITE_CONSISTENCY`). */
  cluster?: QdrantClusterSettings;
}

export function makeQdrantClient(options: { url?: string; apiKey?: string; client?: QdrantClient }): QdrantClient {
  if (options.client) return options.client;
  if (!options.url) throw new Error('Qdrant adapter needs a url (QDRANT_URL) or a client');
  return createQdrantClient({ url: options.url, apiKey: options.apiKey, checkCompatibility: false });
}

/**
 * `ChunkIndex` on Qdrant. Reads and writes go through the alias `<prefix>chunks`, so a full
 * rebuild can fill `<prefix>chunks_v2` and swap it in atomically (`beginRebuild`).
 *
 * @example
 * const chunks = new QdrantChunkIndex({ url: process.env.QDRANT_URL, dims: 384 });
 * await chunks.ensureCollections();
 * const hits = await chunks.searchKeyword('parseHttpResponse', { workspaceId: 'ws1' }, 10, { mode: 'phrase' });
 */
export class QdrantChunkIndex extends CollectionIndex<ChunkPayload, IndexFilter, QdrantQueryPlan<ChunkPayload>, QdrantCollection<ChunkPayload>> implements ChunkIndex {
  private readonly client: QdrantClient;

  constructor(
    private readonly options: QdrantIndexOptions,
    physicalOverride?: string,
    aliasOverride?: string,
  ) {
    const client = makeQdrantClient(options);
    const prefix = options.prefix ?? 'sextant_';
    const alias = aliasOverride ?? `${prefix}chunks`;
    const collection = new QdrantCollection<ChunkPayload>({
      client,
      alias,
      physical: physicalOverride ?? `${prefix}chunks_v${options.version ?? 1}`,
      dims: options.dims,
      cluster: options.cluster,
      derivedPayload: (p) => ({ [PATH_PREFIXES]: pathPrefixes(p.path) }),
      payloadIndexes: [
        { field: 'workspaceId', schema: { type: 'keyword', is_tenant: true } },
        { field: 'repoId', schema: 'keyword' },
        { field: 'lang', schema: 'keyword' },
        { field: 'chunkType', schema: 'keyword' },
        { field: 'path', schema: 'keyword' },
        { field: PATH_PREFIXES, schema: 'keyword' },
        { field: 'symbol', schema: 'keyword' },
        { field: 'symbols', schema: 'keyword' },
        { field: KEYWORD_FIELD, schema: { type: 'text', tokenizer: 'whitespace', lowercase: false, phrase_matching: true } },
      ],
    });
    super(collection, 'ChunkIndex', planChunkQuery);
    this.client = client;
  }

  /** Creates collection, payload indexes and alias when missing; safe to call on every start. */
  ensureCollections(): Promise<void> {
    return this.collection.ensure();
  }

  /**
   * Starts a full rebuild into a fresh physical collection; `commit()` swaps the alias to it in
   * one atomic operation and drops the previous collection.
   */
  async beginRebuild(version: number): Promise<{ index: QdrantChunkIndex; commit(): Promise<void> }> {
    const prefix = this.options.prefix ?? 'sextant_';
    const physical = `${prefix}chunks_v${version}`;
    await this.collection.createPhysical(physical);
    const index = new QdrantChunkIndex({ ...this.options, client: this.client }, physical, physical);
    return {
      index,
      commit: async () => {
        const previous = await this.collection.swapAlias(physical);
        if (previous && previous !== physical) await this.client.deleteCollection(previous);
      },
    };
  }

  async health(): Promise<IndexHealth> {
    try {
      return { ok: true, backend: 'qdrant', points: await this.collection.pointCount() };
    } catch (e) {
      return { ok: false, backend: 'qdrant', detail: (e as Error).message };
    }
  }

  /** The REST client holds no connection that needs closing. */
  async close(): Promise<void> {}
}
