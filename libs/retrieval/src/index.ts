export * from './tokenizer';
