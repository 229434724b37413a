import type { QdrantClient } from './qdrant-client';
import {
  encodeSparseDocument,
  encodeSparseQuery,
  InvalidFilterError,
  tokenize,
  type IndexedPoint,
  type KeywordMode,
  type ScoredPoint,
  type StoredPoint,
} from '@sextant/retrieval';

// Loose JSON shapes: the client's generated types are exact, but filters are built generically here.
type Json = Record<string, unknown>;
export type QdrantCondition = Json;

/** What a typed index (chunks or tasks) tells the generic collection about one filter. */
export interface QdrantQueryPlan<P> {
  /** Conditions Qdrant evaluates (workspace first). */
  must: QdrantCondition[];
  /** A check Qdrant cannot express (globs); applied to returned payloads, with paging to keep recall. */
  postFilter: ((payload: P) => boolean) | null;
}

export interface QdrantIndexField {
  field: string;
  schema: Json | string;
}

export interface QdrantCollectionOptions<P> {
  client: QdrantClient;
  /** Alias the adapter reads and writes through, e.g. `sextant_chunks`. */
  alias: string;
  /** Physical collection created behind the alias on first start, e.g. `sextant_chunks_v1`. */
  physical: string;
  dims: number;
  payloadIndexes: QdrantIndexField[];
  /** Extra payload fields Qdrant needs for filtering (e.g. path prefixes), merged on write and stripped on read. */
  derivedPayload?: (payload: P) => Json;
  /** HNSW parameters (see storage/README.md for why these values). */
  hnsw?: { m: number; ef_construct: number; payload_m: number };
  /** Sharding and replication of new collections (a multi-node cluster); omitted fields keep Qdrant's defaults. */
  cluster?: QdrantClusterSettings;
  upsertBatchSize?: number;
}

/**
 * How a new collection is spread over a Qdrant cluster. Applies when a collection is created
 * (first start, or a rebuild behind the alias); changing it later means a rebuild + alias swap.
 */
export interface QdrantClusterSettings {
  /** Shards per collection: ≥ the node count so every node holds some (Qdrant's default is 1 per node). */
  shardNumber?: number;
  /** Copies of each shard: 2 survives the loss of one node. */
  replicationFactor?: number;
  /** Replicas that must acknowledge a write before it returns (≤ replicationFactor). */
  writeConsistencyFactor?: number;
}

/** The `createCollection` fields for `settings` (none when unset, so a single node is unchanged). */
export function clusterCollectionFields(settings: QdrantClusterSettings | undefined): Json {
  if (!settings) return {};
  const { shardNumber, replicationFactor, writeConsistencyFactor } = settings;
  if (writeConsistencyFactor !== undefined && writeConsistencyFactor > (replicationFactor ?? 1)) {
    throw new Error(`Qdrant write consistency factor ${writeConsistencyFactor} exceeds the replication factor ${replicationFactor ?? 1}`);
  }
  return {
    ...(shardNumber !== undefined && { shard_number: shardNumber }),
    ...(replicationFactor !== undefined && { replication_factor: replicationFactor }),
    ...(writeConsistencyFactor !== undefined && { write_consistency_factor: writeConsistencyFactor }),
  };
}

/** Field holding the tokenizer output for AND/PHRASE conditions (whitespace full-text index). */
export const KEYWORD_FIELD = 'sx_terms';
const DERIVED_PREFIX = 'sx_';
const DENSE = 'dense';
const SPARSE = 'bm25';
const POST_FILTER_PAGE_MIN = 64;
const POST_FILTER_SCAN_MAX = 20_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Qdrant call failed; carries the HTTP status and Qdrant's own message. */
export class QdrantRequestError extends Error {
  readonly code = 'QDRANT_REQUEST_FAILED' as const;
  constructor(readonly operation: string, readonly status: number | undefined, detail: string) {
    super(`Qdrant ${operation} failed${status ? ` (HTTP ${status})` : ''}: ${detail}`);
    this.name = 'QdrantRequestError';
  }
}

async function call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const err = e as { status?: number; data?: { status?: { error?: string } }; message?: string };
    throw new QdrantRequestError(operation, err.status, err.data?.status?.error ?? err.message ?? String(e));
  }
}

/**
 * One Qdrant collection behind an alias, shared by `QdrantChunkIndex` and `QdrantTaskIndex`:
 * named dense vector (cosine, int8 scalar quantisation q=0.99 in RAM, originals on disk, HNSW),
 * sparse `bm25` vector with the IDF modifier, payload indexes with the workspace as tenant key.
 */
export class QdrantCollection<P extends { workspaceId: string }> {
  private readonly client: QdrantClient;
  private ready: Promise<void> | null = null;

  constructor(private readonly options: QdrantCollectionOptions<P>) {
    this.client = options.client;
  }

  get alias(): string {
    return this.options.alias;
  }

  /** Creates the physical collection, its payload indexes and the alias if missing. Idempotent. */
  ensure(): Promise<void> {
    this.ready ??= this.doEnsure().catch((e) => {
      this.ready = null;
      throw e;
    });
    return this.ready;
  }

  private async doEnsure(): Promise<void> {
    const { alias, physical } = this.options;
    if (alias === physical) return this.createPhysical(physical); // a rebuild target, addressed directly
    const aliases = await call('getAliases', () => this.client.getAliases());
    if (aliases.aliases.some((a) => a.alias_name === alias)) return;
    await this.createPhysical(physical);
    await call('updateCollectionAliases', () => this.client.updateCollectionAliases({ actions: [{ create_alias: { collection_name: physical, alias_name: alias } }] }));
  }

  /** Creates a physical collection with Sextant's configuration (no alias). Idempotent. */
  async createPhysical(name: string): Promise<void> {
    const { dims, hnsw = { m: 16, ef_construct: 128, payload_m: 16 } } = this.options;
    const exists = await call('collectionExists', () => this.client.collectionExists(name));
    if (!exists.exists) {
      await call('createCollection', () =>
        this.client.createCollection(name, {
          vectors: {
            [DENSE]: {
              size: dims,
              distance: 'Cosine',
              on_disk: true,
              hnsw_config: hnsw,
              quantization_config: { scalar: { type: 'int8', quantile: 0.99, always_ram: true } },
            },
          },
          sparse_vectors: { [SPARSE]: { modifier: 'idf' } },
          on_disk_payload: true,
          ...clusterCollectionFields(this.options.cluster),
        }),
      );
    }
    for (const { field, schema } of this.options.payloadIndexes) {
      await call(`createPayloadIndex(${field})`, () =>
        this.client.createPayloadIndex(name, { field_name: field, field_schema: schema as never, wait: true }),
      );
    }
  }

  /** Points `alias` at `physical` in one atomic alias operation and returns the previous target. */
  async swapAlias(physical: string): Promise<string | undefined> {
    const { alias } = this.options;
    const aliases = await call('getAliases', () => this.client.getAliases());
    const previous = aliases.aliases.find((a) => a.alias_name === alias)?.collection_name;
    const actions: Json[] = [];
    if (previous) actions.push({ delete_alias: { alias_name: alias } });
    actions.push({ create_alias: { collection_name: physical, alias_name: alias } });
    await call('updateCollectionAliases', () => this.client.updateCollectionAliases({ actions: actions as never }));
    return previous;
  }

  private toQdrantPayload(p: P, terms: string[]): Json {
    return { ...p, ...(this.options.derivedPayload?.(p) ?? {}), [KEYWORD_FIELD]: terms.join(' ') };
  }

  private fromQdrantPayload(raw: unknown): P {
    const out: Json = {};
    for (const [k, v] of Object.entries((raw ?? {}) as Json)) if (!k.startsWith(DERIVED_PREFIX)) out[k] = v;
    return out as P;
  }

  /** Batched upserts with `wait=true`, so the next query sees them. */
  async upsert(points: ReadonlyArray<IndexedPoint<P>>): Promise<void> {
    for (const p of points) {
      if (typeof p.id !== 'string' || !UUID.test(p.id)) throw new InvalidFilterError(`Qdrant point ids must be UUIDs, got ${JSON.stringify(p.id)}`);
      if (!p.payload?.workspaceId) throw new InvalidFilterError(`point ${p.id} has no payload.workspaceId`);
      if (p.vector.length !== this.options.dims) throw new InvalidFilterError(`point ${p.id} has a ${p.vector.length}-dim vector, collection uses ${this.options.dims}`);
    }
    await this.ensure();
    const size = this.options.upsertBatchSize ?? 256;
    for (let i = 0; i < points.length; i += size) {
      const batch = points.slice(i, i + size).map((p) => {
        const sparse = encodeSparseDocument(p.text ?? '');
        const vector: Json = { [DENSE]: Array.from(p.vector) };
        if (sparse.indices.length) vector[SPARSE] = sparse;
        return { id: p.id, vector, payload: this.toQdrantPayload(p.payload, tokenize(p.text ?? '')) };
      });
      await call('upsert', () => this.client.upsert(this.alias, { wait: true, points: batch as never }));
    }
  }

  private filterOf(must: QdrantCondition[]): Json {
    return { must };
  }

  /** Scrolls every point matching the server-side conditions, applying the post-filter. */
  private async scrollMatching(plan: QdrantQueryPlan<P>, withPayload: boolean | string[]): Promise<{ id: string; payload: P }[]> {
    const out: { id: string; payload: P }[] = [];
    let offset: string | number | undefined | null = undefined;
    do {
      const page: { points: { id: string | number; payload?: unknown }[]; next_page_offset?: unknown } = await call('scroll', () =>
        this.client.scroll(this.alias, { filter: this.filterOf(plan.must) as never, limit: 1000, offset: offset ?? undefined, with_payload: withPayload as never, with_vector: false }),
      );
      for (const pt of page.points) {
        const payload = this.fromQdrantPayload(pt.payload);
        if (!plan.postFilter || plan.postFilter(payload)) out.push({ id: String(pt.id), payload });
      }
      offset = (page.next_page_offset as string | number | null | undefined) ?? null;
    } while (offset !== null && offset !== undefined);
    return out;
  }

  async count(plan: QdrantQueryPlan<P>): Promise<number> {
    await this.ensure();
    if (plan.postFilter) return (await this.scrollMatching(plan, true)).length;
    const res = await call('count', () => this.client.count(this.alias, { filter: this.filterOf(plan.must) as never, exact: true }));
    return res.count;
  }

  async deleteWhere(plan: QdrantQueryPlan<P>): Promise<number | undefined> {
    await this.ensure();
    if (!plan.postFilter) {
      await call('delete', () => this.client.delete(this.alias, { wait: true, filter: this.filterOf(plan.must) as never }));
      return undefined;
    }
    const ids = (await this.scrollMatching(plan, true)).map((p) => p.id);
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      await call('delete', () => this.client.delete(this.alias, { wait: true, points: chunk }));
    }
    return ids.length;
  }

  async get(ids: readonly string[], workspaceId: string): Promise<StoredPoint<P>[]> {
    const valid = ids.filter((id) => UUID.test(id));
    if (!valid.length) return [];
    await this.ensure();
    const rows = await call('retrieve', () => this.client.retrieve(this.alias, { ids: valid, with_payload: true, with_vector: false }));
    const byId = new Map(rows.map((r) => [String(r.id).toLowerCase(), this.fromQdrantPayload(r.payload)]));
    const out: StoredPoint<P>[] = [];
    for (const id of ids) {
      const payload = byId.get(id.toLowerCase());
      if (payload && payload.workspaceId === workspaceId) out.push({ id, payload });
    }
    return out;
  }

  /**
   * Runs a query, paging with a growing limit while a post-filter (globs) rejects hits, so a
   * selective glob never costs recall; stops when `k` hits survive or the results run out.
   */
  private async queryFiltered(body: Json, plan: QdrantQueryPlan<P>, k: number): Promise<ScoredPoint<P>[]> {
    const out: ScoredPoint<P>[] = [];
    let offset = 0;
    let limit = plan.postFilter ? Math.max(POST_FILTER_PAGE_MIN, k * 4) : k;
    for (;;) {
      const res = await call('query', () =>
        this.client.query(this.alias, { ...body, filter: this.filterOf(plan.must), limit, offset: offset || undefined, with_payload: true, with_vector: false } as never),
      );
      for (const pt of res.points) {
        const payload = this.fromQdrantPayload(pt.payload);
        if (!plan.postFilter || plan.postFilter(payload)) out.push({ id: String(pt.id), score: pt.score, payload });
        if (out.length >= k) return out;
      }
      if (!plan.postFilter || res.points.length < limit || offset + limit >= POST_FILTER_SCAN_MAX) return out;
      offset += limit;
      limit *= 4;
    }
  }

  async searchDense(vector: Float32Array | readonly number[], plan: QdrantQueryPlan<P>, k: number, options: { rescore?: boolean; oversampling?: number } = {}): Promise<ScoredPoint<P>[]> {
    if (vector.length !== this.options.dims) throw new InvalidFilterError(`query vector has ${vector.length} dims, collection uses ${this.options.dims}`);
    await this.ensure();
    const { rescore = true, oversampling = 4 } = options;
    return this.queryFiltered(
      { query: Array.from(vector), using: DENSE, params: { quantization: { rescore, oversampling: Math.max(1, oversampling) } } },
      plan,
      k,
    );
  }

  /**
   * Sparse BM25 via the `bm25` vector (IDF applied by Qdrant). The sparse dot product is an OR
   * over terms; AND and PHRASE add a full-text condition on the tokenizer output.
   */
  async searchKeyword(query: string, plan: QdrantQueryPlan<P>, k: number, mode: KeywordMode): Promise<ScoredPoint<P>[]> {
    const sparse = encodeSparseQuery(query);
    if (!sparse.indices.length) return [];
    const must = [...plan.must];
    if (mode === 'and') {
      const terms = [...new Set(tokenize(query, { removeStopWords: true }))];
      must.push({ key: KEYWORD_FIELD, match: { text: terms.join(' ') } });
    } else if (mode === 'phrase') {
      must.push({ key: KEYWORD_FIELD, match: { phrase: tokenize(query).join(' ') } });
    }
    await this.ensure();
    return this.queryFiltered({ query: sparse, using: SPARSE }, { ...plan, must }, k);
  }

  async pointCount(): Promise<number> {
    const res = await call('count', () => this.client.count(this.alias, { exact: false }));
    return res.count;
  }
}
