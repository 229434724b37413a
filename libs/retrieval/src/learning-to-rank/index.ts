export * from './change-history';
export * from './ranking-features';
export * from './linear-ranker';
export * from './file-term-index';
export * from './history-profile';
export * from './routine-changes';
export { lowerBound } from './sorted-arrays';
export * from './history-order';
