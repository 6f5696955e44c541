import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The web app's feature folders: each may use the shared layers, never another feature. */
const webFeatures = readdirSync('web/src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'data/',
      'coverage/',
      'test-results/',
      'web/src/gql/',
      'web/src/**/*.generated.ts',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [...tseslint.configs.strictTypeChecked, ...tseslint.configs.stylisticTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['vitest.config.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Use named exports.',
        },
      ],
    },
  },
  {
    // Asymmetric matchers (expect.objectContaining, expect.any) are typed `any` by Vitest.
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings from the Config built by config.ts.' },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
    languageOptions: { globals: globals.browser },
  },
  {
    // The web app's layers. Imports run one way: app/ (the root: App, routes, providers) →
    // features/<feature>/ → the shared layers (session/, consent/, lib/, ui/, gql/). A feature
    // uses no other feature; what two features share moves down to ui/ or lib/.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The import graph is read with the TypeScript parser, or no-cycle silently skips .ts(x).
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'web/tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['web/src/lib', 'web/src/ui', 'web/src/session', 'web/src/consent', 'web/src/gql'],
              from: ['web/src/features', 'web/src/app'],
              message: 'Shared code cannot depend on a feature or the root.',
            },
            { target: 'web/src/features', from: 'web/src/app', message: 'A feature cannot depend on the root.' },
            ...webFeatures.map((feature) => ({
              target: `web/src/features/${feature}`,
              from: 'web/src/features',
              except: [`./${feature}`],
              message: 'A feature cannot use another feature: move what they share to ui/ or lib/.',
            })),
          ],
        },
      ],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // Tool configuration files are loaded by their tools, which expect a default export.
    files: ['eslint.config.js', 'vitest.config.ts', 'web/vite.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
