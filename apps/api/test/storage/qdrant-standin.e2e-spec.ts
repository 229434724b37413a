/**
 * The Qdrant adapter against the OpenAPI-validating stand-in (no live Qdrant runs in CI).
 * After every test, every request the adapter sent must have passed validation.
 */
import type { ChunkIndex } from '@sextant/retrieval';
import { QdrantChunkIndex, QdrantTaskIndex } from '../../src/storage/qdrant';
import { QdrantStandIn } from '../fixtures/qdrant-standin';
import { CONTRACT_DIMS, registerChunkIndexContract, testUuid } from './chunk-index.contract';

const standIn = new QdrantStandIn();
let url = '';
beforeAll(async () => {
  url = await standIn.start();
});
afterAll(() => standIn.stop());

registerChunkIndexContract('qdrant adapter via the OpenAPI-validating stand-in', () => {
  const open = async (): Promise<ChunkIndex> => {
    const index = new QdrantChunkIndex({ url, dims: CONTRACT_DIMS, prefix: 'contract_' });
    await index.ensureCollections();
    return index;
  };
  return {
    open,
    async restart(index) {
      await index.close();
      return open();
    },
    async destroy() {},
    afterEachCheck() {
      expect(standIn.invalidRequests()).toEqual([]);
    },
  };
});

describe('qdrant stand-in validates like Qdrant would', () => {
  async function raw(method: string, path: string, body?: unknown) {
    const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { status: unknown; result?: unknown } };
  }
  beforeAll(async () => {
    await raw('PUT', '/collections/probe', { vectors: { dense: { size: 3, distance: 'Cosine' } } });
  });
  afterAll(() => {
    standIn.requests.length = 0; // these probes are meant to be invalid
  });

  it('rejects non-UUID string ids, unknown filter keys, wrong types and unknown paths', async () => {
    expect((await raw('PUT', '/collections/probe/points?wait=true', { points: [{ id: 'not-a-uuid', vector: { dense: [1, 0, 0] } }] })).status).toBe(400);
    expect((await raw('POST', '/collections/probe/points/count', { filter: { must: [], bogus: 1 } })).status).toBe(400);
    expect((await raw('POST', '/collections/probe/points/query', { limit: -1 })).status).toBe(400);
    expect((await raw('PUT', '/collections/probe/points?wait=maybe', { points: [] })).status).toBe(400);
    expect((await raw('POST', '/collections/probe/points/search', { vector: [1, 0, 0], limit: 1 })).status).toBe(404);
    expect((await raw('PUT', '/collections/probe', { vectors: { dense: { size: 3, distance: 'Cosine' } }, quantization_config: { scalar: { type: 'int8', quantile: 1.5 } } })).status).toBe(400);
  });

  it('rejects what Qdrant rejects semantically: wrong dimension, unknown collection, duplicate sparse indices', async () => {
    const id = testUuid('probe');
    expect((await raw('PUT', '/collections/probe/points?wait=true', { points: [{ id, vector: { dense: [1, 0] } }] })).status).toBe(400);
    expect((await raw('POST', '/collections/missing/points/count', {})).status).toBe(404);
    const ok = await raw('PUT', '/collections/probe/points?wait=true', { points: [{ id, vector: { dense: [1, 0, 0] }, payload: { a: 1 } }] });
    expect(ok.status).toBe(200);
    const counted = await raw('POST', '/collections/probe/points/count', { filter: { must: [{ key: 'a', match: { value: 1 } }] } });
    expect(counted.body.result).toEqual({ count: 1 });
  });
});

describe('qdrant adapter: collections and aliases', () => {
  it('creates collections idempotently with the documented configuration', async () => {
    const a = new QdrantChunkIndex({ url, dims: 8, prefix: 'idem_' });
    await a.ensureCollections();
    await new QdrantChunkIndex({ url, dims: 8, prefix: 'idem_' }).ensureCollections();
    const create = standIn.requests.filter((r) => r.operationId === 'create_collection' && r.path === '/collections/idem_chunks_v1');
    expect(create).toHaveLength(1);
    const body = create[0].body as { vectors: { dense: Record<string, unknown> }; sparse_vectors: { bm25: { modifier: string } } };
    expect(body.vectors.dense).toMatchObject({ size: 8, distance: 'Cosine', on_disk: true, quantization_config: { scalar: { type: 'int8', quantile: 0.99, always_ram: true } } });
    expect(body.sparse_vectors.bm25.modifier).toBe('idf');
    const tenant = standIn.requests.find((r) => r.operationId === 'create_field_index' && r.path.startsWith('/collections/idem_chunks_v1') && (r.body as { field_name: string }).field_name === 'workspaceId');
    expect((tenant!.body as { field_schema: unknown }).field_schema).toEqual({ type: 'keyword', is_tenant: true });
    expect(standIn.invalidRequests()).toEqual([]);
  });

  it('lays new collections out for a cluster (shards, replicas, write consistency) in requests Qdrant accepts', async () => {
    const cluster = { shardNumber: 6, replicationFactor: 2, writeConsistencyFactor: 2 };
    const chunks = new QdrantChunkIndex({ url, dims: 8, prefix: 'cluster_', cluster });
    await chunks.ensureCollections();
    await new QdrantTaskIndex({ url, dims: 8, prefix: 'cluster_', cluster }).ensureCollections();
    for (const name of ['cluster_chunks_v1', 'cluster_tasks_v1']) {
      const create = standIn.requests.find((r) => r.operationId === 'create_collection' && r.path === `/collections/${name}`);
      expect(create!.body).toMatchObject({ shard_number: 6, replication_factor: 2, write_consistency_factor: 2 });
    }
    // A rebuild behind the alias keeps the layout.
    await (await chunks.beginRebuild(2)).commit();
    const rebuilt = standIn.requests.find((r) => r.operationId === 'create_collection' && r.path === '/collections/cluster_chunks_v2');
    expect(rebuilt!.body).toMatchObject({ shard_number: 6, replication_factor: 2 });
    // Unset settings leave Qdrant's single-node defaults alone.
    await new QdrantChunkIndex({ url, dims: 8, prefix: 'single_' }).ensureCollections();
    const single = standIn.requests.find((r) => r.operationId === 'create_collection' && r.path === '/collections/single_chunks_v1');
    expect(single!.body).not.toHaveProperty('shard_number');
    expect(standIn.invalidRequests()).toEqual([]);
    await expect(new QdrantChunkIndex({ url, dims: 8, prefix: 'bad_', cluster: { replicationFactor: 1, writeConsistencyFactor: 2 } }).ensureCollections()).rejects.toThrow(/write consistency factor 2 exceeds the replication factor 1/);
  });

  it('swaps a rebuilt collection in atomically behind the alias', async () => {
    const live = new QdrantChunkIndex({ url, dims: 4, prefix: 'swap_' });
    await live.ensureCollections();
    const payload = (ws: string, path: string) => ({ workspaceId: ws, repoId: 'r', path, lang: 'go', chunkType: 'function', name: null, symbol: null, symbols: [], parentId: null, signature: null, startLine: 1, endLine: 1, startByte: 0, endByte: 1, contentHash: 'h', content: 'x' });
    await live.upsert([{ id: testUuid('old'), vector: [1, 0, 0, 0], text: 'oldStuff', payload: payload('w', 'old.go') }]);
    const rebuild = await live.beginRebuild(2);
    await rebuild.index.upsert([{ id: testUuid('new'), vector: [0, 1, 0, 0], text: 'newStuff', payload: payload('w', 'new.go') }]);
    expect(await live.count({ workspaceId: 'w' })).toBe(1);
    expect((await live.searchKeyword('newStuff', { workspaceId: 'w' }, 5)).length).toBe(0);
    await rebuild.commit();
    expect((await live.searchKeyword('newStuff', { workspaceId: 'w' }, 5)).map((h) => h.id)).toEqual([testUuid('new')]);
    expect(await live.count({ workspaceId: 'w' })).toBe(1);
    const aliasOps = standIn.requests.filter((r) => r.operationId === 'update_aliases').map((r) => r.body as { actions: object[] });
    expect(aliasOps.at(-1)!.actions).toEqual([{ delete_alias: { alias_name: 'swap_chunks' } }, { create_alias: { collection_name: 'swap_chunks_v2', alias_name: 'swap_chunks' } }]);
    expect(standIn.invalidRequests()).toEqual([]);
  });
});
