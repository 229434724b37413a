export * from './metrics';
export * from './statistics';
export * from './dataset';
export * from './report';
