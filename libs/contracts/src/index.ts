export * from './workspaces';
export * from './indexing';
export * from './eval';
export * from './search';
export * from './tasks';
export * from './realtime';
export * from './mcp';
export * from './feedback';
