/**
 * `@qdrant/js-client-rest` is published as `"type": "module"` with a CommonJS build under the
 * `require` condition. TypeScript (node16, CommonJS output) only accepts its types with an
 * explicit resolution mode, so the client is loaded here and nowhere else — on first use, so a
 * server on the embedded store never loads it (~19 MB of RSS).
 */
import type * as Qdrant from '@qdrant/js-client-rest' with { 'resolution-mode': 'import' };

export type QdrantClient = Qdrant.QdrantClient;

/** A client for `params` (the package is required on the first call). */
export function createQdrantClient(params: ConstructorParameters<typeof Qdrant.QdrantClient>[0]): QdrantClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const qdrant = require('@qdrant/js-client-rest') as typeof Qdrant;
  return new qdrant.QdrantClient(params);
}
