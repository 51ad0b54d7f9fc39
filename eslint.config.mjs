// Lint of the whole tree, run by `npm run lint` and so by `npm test` and CI.
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import stylistic from '@stylistic/eslint-plugin';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    plugins: { 'import-x': importX, '@stylistic': stylistic },
    settings: {
      // no-cycle parses each imported module itself, with this parser.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // The aliases of package.json's "imports" (#domain/…) resolve to the TypeScript sources.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Type-only imports count: a cycle of types is still two modules that cannot be read apart.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      // The format check: the shape the code already has, so it needs no mass rewrite.
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'avoidEscape' }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/eol-last': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1, maxEOF: 0 }],
      // The ternaries and unions are laid out as Prettier lays them out (an object in a branch one step in).
      '@stylistic/indent': ['error', 2, { SwitchCase: 1, flatTernaryExpressions: true, offsetTernaryExpressions: true, ignoredNodes: ['TemplateLiteral *', 'TSUnionType > TSTypeLiteral', 'TSUnionType > TSTypeLiteral *'] }],
      '@stylistic/comma-spacing': 'error',
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      '@stylistic/arrow-parens': ['error', 'always'],
      '@stylistic/no-tabs': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/key-spacing': 'error',
    },
  },
);
