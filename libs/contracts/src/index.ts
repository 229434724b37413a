export * from './workspaces';
export * from './indexing';
export * from './eval';
