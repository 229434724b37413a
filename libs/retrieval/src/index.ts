export * from './tokenizer';
export * from './ports';
export * from './bm25';
export * from './fusion';
export * from './ranking';
export * from './weights';
export * from './learning';
export * from './query';
