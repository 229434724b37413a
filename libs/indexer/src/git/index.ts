export * from './git-command';
export * from './git-commit';
export * from './commit-history';
export * from './commit-message';
export * from './noise-commit';
export * from './rename-forward';
export * from './merge-pull-requests';
export * from './repo-state';
