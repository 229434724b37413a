export {};
export * from './git';
