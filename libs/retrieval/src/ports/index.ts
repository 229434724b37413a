export * from './index-errors';
export * from './index-filter';
export * from './point-index.port';
export * from './chunk-index.port';
export * from './task-index.port';
export * from './path-filter';
export { compileGlob, type GlobMatcher } from './glob-matcher';
export * from './validate-filter';
