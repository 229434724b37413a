export * from './default-weights';
