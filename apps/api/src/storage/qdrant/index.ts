export * from './qdrant-collection';
export * from './qdrant-chunk-index';
export * from './qdrant-task-index';
export * from './qdrant-client';
