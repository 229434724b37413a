export * from './choose-search-tool';
export * from './normalize-tool-result';
export * from './merge-by-priority';
