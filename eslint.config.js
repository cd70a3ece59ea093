import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The boundaries of ARCHITECTURE.md ("Boundaries"), enforced: a zone says that files under
 * `target` may not import anything under `from` (paths from the repository root).
 */
const everythingBut = (...keep) => ['server', 'web', 'contract', 'domain', 'content', 'e2e', 'test-support', 'bench'].filter((dir) => !keep.includes(dir));

// Every folder of web/src/features is a feature; a feature imports no other feature (shared pieces
// live in web/src/components, web/src/lib or domain/). Read from disk so a new feature is covered.
const features = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const zones = [
  { target: 'contract', from: everythingBut('contract'), message: 'contract/ imports nothing of ours (ARCHITECTURE.md, Boundaries).' },
  { target: 'domain', from: everythingBut('domain'), message: 'domain/ imports nothing of ours (ARCHITECTURE.md, Boundaries).' },
  // Server tests may drive the local OpenAI peer of e2e/; nothing in server/ reaches the web app.
  { target: 'server', from: ['web', 'bench'], message: 'server/ never imports the web app or the benchmarks.' },
  { target: 'web', from: ['server', 'e2e', 'test-support', 'bench', 'content'], message: 'web/ imports only contract types, domain/ and its own code.' },
  { target: 'server/services', from: ['server/routes', 'server/plugins'], message: 'Services hold the rules and know nothing of routes or Fastify plugins.' },
  { target: ['web/src/components', 'web/src/lib'], from: ['web/src/features', 'web/src/app'], message: 'Shared web code does not reach into features or the app shell.' },
  { target: 'web/src/features', from: 'web/src/app', message: 'Features do not import the app shell; route modules in web/src/app compose features.' },
  ...features.map((name) => ({
    target: `web/src/features/${name}`,
    from: 'web/src/features',
    except: [`./${name}`],
    message: 'A feature does not import another feature: move the shared piece to web/src/components, web/src/lib or domain/.',
  })),
];

export default tseslint.config(
  { ignores: ['node_modules', 'web/dist', 'data', 'test-results', 'playwright-report', 'server/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The browser bundle gets the contract's types only (no zod), plus its zod-free limits.
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)contract(/(?!(limits|api-paths)(\\.ts)?$)[^/]+)?$',
              allowTypeImports: true,
              message: 'web/ imports only types from contract/ (and the zod-free contract/limits.ts, contract/api-paths.ts): `import type`.',
            },
          ],
        },
      ],
    },
  },
  {
    // Services are plain functions over an AppContext: no Fastify in the rules.
    files: ['server/services/**/*.ts'],
    ignores: ['server/services/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['fastify', 'fastify-*', '@fastify/*'], message: 'Services have no Fastify imports; routes adapt them.' }] }],
    },
  },
  {
    // Every e2e test runs with the console-error guard (e2e/support/test.ts).
    files: ['e2e/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@playwright/test', importNames: ['test'], message: "Import test and expect from './support/test' (the console-error guard)." }] },
      ],
    },
  },
  {
    // Only server/config.ts may read the environment; everything else gets the parsed config.
    files: ['server/**/*.ts', 'web/**/*.{ts,tsx}', 'domain/**/*.ts', 'contract/**/*.ts'],
    ignores: ['server/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings from the parsed config (server/config.ts).' }],
    },
  },
);
