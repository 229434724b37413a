export * from './workspaces';
