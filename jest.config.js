/**
 * One Jest run for the whole monorepo. Tests import libraries from source
 * (@sextant/* -> libs/<name>/src) through SWC, so no build is needed to test.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: {
    '^@sextant/(contracts|indexer|retrieval|embeddings|eval)$': '<rootDir>/libs/$1/src',
    '^@sextant/migrations$': '<rootDir>/prisma-free-migrations',
  },
  testMatch: ['<rootDir>/libs/*/src/**/*.spec.ts', '<rootDir>/apps/api/src/**/*.spec.ts', '<rootDir>/apps/api/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  maxWorkers: process.env.CI ? 2 : '50%',
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/.ci/summary-reporter.js'],
};
