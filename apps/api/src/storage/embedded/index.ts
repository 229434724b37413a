export * from './embedded-store';
export * from './embedded-chunk-index';
export * from './embedded-task-index';
export * from './embedded-collection';
export * from './wal-checkpointer';
