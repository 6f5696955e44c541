import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import checkFile from 'eslint-plugin-check-file';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The server's features, each with the features it may use (what it may import from them is
 * their public surface: nothing of identity's embedded emulator). members/ is the low shared
 * module (the member record, the live-member and Plus rules); profiles/ is used by accounts,
 * never the reverse.
 */
const serverFeatures = {
  members: [],
  verses: [],
  identity: [],
  profiles: ['members', 'verses'],
  links: ['members', 'profiles'],
  accounts: ['members', 'profiles', 'verses', 'identity'],
  billing: ['members', 'identity'],
  'saved-verses': ['members', 'verses'],
  'verse-mail': ['members', 'profiles', 'verses', 'identity'],
  moderation: ['members', 'profiles'],
  photos: ['members', 'profiles'],
  prayer: ['members', 'profiles', 'identity'],
  sharing: ['members', 'profiles', 'verses'],
  embeds: ['profiles', 'links', 'photos', 'verses'],
  exports: [
    'members',
    'profiles',
    'links',
    'billing',
    'identity',
    'moderation',
    'photos',
    'saved-verses',
    'verse-mail',
    'prayer',
  ],
  operator: ['members', 'profiles', 'links', 'billing', 'identity', 'accounts', 'moderation', 'exports'],
};
/**
 * Shared layers every feature may use; they use no feature, no root and no entry point. db/ holds
 * the migrations too: the schema's history, and the verse texts they seed, must not move when a
 * feature does.
 */
const serverKernels = [
  'config.ts',
  'config',
  'db',
  'graphql',
  'http',
  'jobs',
  'kernel',
  'mail',
  'observability',
  'work',
];

/**
 * server/src/rules/: the rules both the server and the web apply (the web reads them as `@rules/*`).
 * A rule file imports only its siblings, and nothing of Node, so the web bundles just those lines.
 */
const rulesZone = {
  files: ['server/src/rules/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(?!\\./[\\w.-]+\\.js$)',
            message: 'A rule imports only other rules (./name.js): the web bundles these files.',
          },
        ],
      },
    ],
    'no-restricted-globals': [
      'error',
      ...['process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'global', 'setImmediate'].map(
        (name) => ({ name, message: 'Rules run in the browser too: no Node globals.' }),
      ),
    ],
  },
};

/** The web app's feature folders: each may use the shared layers, never another feature. */
const webFeatures = readdirSync('web/src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/dist-ssr/',
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
            {
              target: 'web/src',
              from: 'server',
              except: ['./src/rules'],
              message: 'The web uses no server code but the shared rules, as @rules/<name>.',
            },
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+server/',
              message: 'Import the shared rules as @rules/<name>; the web uses no other server code.',
            },
          ],
        },
      ],
    },
  },
  {
    // The server's layers. Imports run one way: cli/ and main.ts (entry points) → app/ (the
    // composition root: schema, context, loaders, entities, data source, jobs, buildApp) →
    // features → kernels (config, db, graphql, http, jobs, mail, observability).
    files: ['server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'server/tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...serverKernels.map((kernel) => ({
              target: `server/src/${kernel}`,
              from: [
                ...Object.keys(serverFeatures).map((feature) => `server/src/${feature}`),
                'server/src/app',
                'server/src/cli',
                'server/src/main.ts',
              ],
              message: 'A kernel cannot depend on a feature, the composition root or an entry point.',
            })),
            ...Object.entries(serverFeatures).map(([feature, allowed]) => ({
              target: `server/src/${feature}`,
              from: [
                ...Object.keys(serverFeatures)
                  .filter((other) => other !== feature && !allowed.includes(other))
                  .map((other) => `server/src/${other}`),
                'server/src/app',
                'server/src/cli',
                'server/src/main.ts',
              ],
              message: `${feature}/ may use only ${['kernels', ...allowed].join(', ')}; never the root (app/) or an entry point.`,
            })),
            {
              target: Object.keys(serverFeatures)
                .filter((feature) => feature !== 'identity')
                .map((feature) => `server/src/${feature}`),
              from: 'server/src/identity/embedded',
              message: "The embedded identity service is identity's internals: use identity.client.ts.",
            },
            {
              target: [
                'server/src/identity/token-verifier.ts',
                'server/src/identity/identity.{client,mappers,transport,types}.ts',
                'server/src/identity/*.client.ts',
              ],
              from: 'server/src/identity/embedded',
              message: 'The hosted path never loads the emulator: it gets what it needs through an interface.',
            },
            {
              target: 'server/src/app',
              from: ['server/src/cli', 'server/src/main.ts'],
              message: 'The composition root cannot depend on an entry point.',
            },
          ],
        },
      ],
      'import-x/no-cycle': 'error',
    },
  },
  rulesZone,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // File names, one convention per kind: React components PascalCase.tsx, everything else
    // kebab-case (hooks too: use-form-action.ts), a role after a dot (profile.resolver.ts). The
    // entry points and the route table hold JSX but are no component. .graphql and .css files
    // reach the rule through the plugin's processor, which hands ESLint only their names.
    files: ['**/*.{ts,tsx,js,mjs,cjs,graphql,css}'],
    ignores: ['server/src/db/migrations/**'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        {
          // Components are PascalCase; a .tsx that mounts or renders React (an entry) is named as a module.
          'web/src/*/**/!(boot|routes|render-*|*-mount).tsx': 'PASCAL_CASE',
          'web/src/{*,app/boot,app/routes,**/render-*,**/*-mount}.tsx': 'KEBAB_CASE',
          'tests/**/*.tsx': 'KEBAB_CASE',
          '**/*.{ts,js,mjs,cjs,graphql,css}': 'KEBAB_CASE',
        },
        { ignoreMiddleExtensions: true },
      ],
    },
  },
  {
    files: ['**/*.{graphql,css}'],
    plugins: { 'check-file': checkFile },
    processor: 'check-file/eslint-processor-check-file',
  },
  {
    // Tool configuration files are loaded by their tools, which expect a default export.
    files: ['eslint.config.js', 'vitest.config.ts', 'web/vite.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
