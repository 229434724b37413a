export * from './rerank-scale';
export * from './reranker.port';
export * from './local-relevance';
export * from './http-reranker';
export * from './apply-rerank';
