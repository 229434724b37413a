export * from './token-budget';
export * from './quote-retrieved-text';
export * from './answer-context';
export * from './answer-prompt';
export * from './citations';
