export * from './term-hash';
export * from './bm25-sparse.encoder';
