export * from './fusion.types';
export * from './reciprocal-rank.fusion';
export * from './weighted.fusion';
export * from './cascade.fusion';
export * from './vote.fusion';
export * from './concatenate.fusion';
export * from './fuse';
export { compareFused } from './source-rankings';
export * from './merge-by-score';
