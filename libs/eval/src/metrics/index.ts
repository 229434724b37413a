export * from './ranking-metrics';
export * from './score-run';
export * from './source-overlap';
