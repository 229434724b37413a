export * from './query-evidence';
export * from './path-mentions';
export * from './mention-boost';
export * from './problem-report';
export * from './report-noise';
export * from './commit-trailers';
export * from './unknown-words';
export * from './definition-first';
