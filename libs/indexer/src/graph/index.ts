export * from './code-graph';
export * from './module-index';
export * from './graph-expansion';
