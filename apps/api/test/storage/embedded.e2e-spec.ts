import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChunkIndex } from '@sextant/retrieval';
import { openEmbeddedStore, type EmbeddedStore } from '../../src/storage/embedded';
import { registerChunkIndexContract } from './chunk-index.contract';

registerChunkIndexContract('embedded (SQLite + FTS5 + int8 exactSearch)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-embedded-'));
  const file = join(dir, 'vectors.sqlite');
  let store: EmbeddedStore | undefined;
  return {
    async open(): Promise<ChunkIndex> {
      store = openEmbeddedStore({ file });
      return store.chunks;
    },
    async restart(): Promise<ChunkIndex> {
      await store?.close();
      store = openEmbeddedStore({ file });
      return store.chunks;
    },
    async destroy() {
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
