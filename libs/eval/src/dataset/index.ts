export * from './jsonl';
export * from './dataset-io';
export * from './run-file';
export * from './code-mentions';
export * from './make-dataset';
