export * from './tokenizer';
export * from './stop-words';
