/**
 * The contract suite against a real Qdrant. Runs only when QDRANT_URL is set; CI has none.
 * Uses a unique collection prefix per run and drops its collections afterwards.
 */
import type { ChunkIndex } from '@sextant/retrieval';
import { createQdrantClient, QdrantChunkIndex } from '../../src/storage/qdrant';
import { CONTRACT_DIMS, registerChunkIndexContract } from './chunk-index.contract';

const url = process.env.QDRANT_URL;

if (!url) {
  // eslint-disable-next-line no-console
  console.warn('qdrant-live.e2e-spec: SKIPPED — QDRANT_URL is not set, so the ChunkIndex contract did not run against a real Qdrant.');
  describe.skip('ChunkIndex contract: live Qdrant (set QDRANT_URL to run)', () => {
    it('needs QDRANT_URL', () => undefined);
  });
} else {
  const prefix = `sextant_test_${Date.now().toString(36)}_`;
  registerChunkIndexContract(`live Qdrant at ${url}`, () => {
    const open = async (): Promise<ChunkIndex> => {
      const index = new QdrantChunkIndex({ url, apiKey: process.env.QDRANT_API_KEY, dims: CONTRACT_DIMS, prefix });
      await index.ensureCollections();
      return index;
    };
    return {
      open,
      restart: async (index) => {
        await index.close();
        return open();
      },
      async destroy() {
        const client = createQdrantClient({ url, apiKey: process.env.QDRANT_API_KEY, checkCompatibility: false });
        const { collections } = await client.getCollections();
        for (const c of collections) if (c.name.startsWith(prefix)) await client.deleteCollection(c.name);
      },
    };
  });
}
