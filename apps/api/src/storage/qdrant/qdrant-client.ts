/**
 * `@qdrant/js-client-rest` is published as `"type": "module"` with a CommonJS build under the
 * `require` condition. TypeScript (node16, CommonJS output) only accepts its types with an
 * explicit resolution mode, so the client is loaded here once and re-exported.
 */
import type * as Qdrant from '@qdrant/js-client-rest' with { 'resolution-mode': 'import' };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const qdrant = require('@qdrant/js-client-rest') as typeof Qdrant;

export type QdrantClient = Qdrant.QdrantClient;
export const QdrantClient = qdrant.QdrantClient;
