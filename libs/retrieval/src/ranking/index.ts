export * from './chunk-aggregation';
export * from './task-files';
export * from './structural-priors';
export * from './query-class';
