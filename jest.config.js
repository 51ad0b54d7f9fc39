// @nestjs packages are ESM-only; jest 30 cannot require() them on Node 20, so they are transformed.
const esmOnly = ['@nestjs', 'file-type', 'load-esm', 'uid', 'strtok3', 'token-types', '@tokenizer', 'uint8array-extras', '@borewit', 'cookie'];
const shared = {
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  transformIgnorePatterns: [`node_modules/(?!(${esmOnly.join('|')})/)`],
  // package.json's "imports" aliases point at dist/ for node; jest runs the TypeScript sources.
  moduleNameMapper: {
    ...Object.fromEntries(Object.entries(require('./package.json').imports)
      .map(([alias, target]) => [`^${alias.replace('*', '(.*)')}\\.js$`, `<rootDir>/${target.types.slice(2).replace('*', '$1')}`])),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
  // e2e hooks build state over HTTP against PostgreSQL; a loaded 2-core machine needs more than jest's 5 s.
  testTimeout: 60_000,
};
module.exports = {
  // jest reads testTimeout from here, not from each project: without it every hook had 5 s.
  testTimeout: 60_000,
  // A PostgreSQL for the tests: the local one, else an embedded one (test/setup/test-database-server.js).
  globalSetup: '<rootDir>/test/setup/global-setup.js',
  globalTeardown: '<rootDir>/test/setup/global-teardown.js',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/**/*.spec.ts'], testPathIgnorePatterns: ['/node_modules/', '/dist/'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/**/*.int-spec.ts'], testPathIgnorePatterns: ['/node_modules/', '/dist/'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], testPathIgnorePatterns: ['/node_modules/', '/dist/'] },
  ],
};
