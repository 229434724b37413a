export * from './paired-t-test';
export * from './percentile';
