export * from './embedder.port';
export * from './embedding.error';
export * from './embedding-dimension-mismatch.error';
export * from './content-hash.util';
export * from './l2-normalize.util';
export * from './hash/hash.embedder';
export * from './openai/openai.embedder';
export * from './openai/retry-policy.util';
