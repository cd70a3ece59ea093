import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import folderCycles from './eslint.folder-cycles.js';

/**
 * The boundaries of ARCHITECTURE.md ("Boundaries"), enforced. A zone says that files under
 * `target` may not import anything under `from` (paths from the repository root). Every top-level
 * folder is the target of a zone: a new folder fails lint until it gets one (`unzonedFolders`).
 * eslint.config.test.ts has a probe for each rule below that shows it fires.
 */
export const FOLDERS = ['server', 'web', 'contract', 'domain', 'content', 'e2e', 'test-support', 'bench', 'scripts'];
/** Top-level folders that hold no code of ours (docs, and what tools and a running server write). */
const NOT_CODE = new Set(['docs', 'node_modules', 'data', 'test-results', 'playwright-report']);
const everythingBut = (...keep) => FOLDERS.filter((dir) => !keep.includes(dir));

/** Test code: test files, their helpers and fixtures, the e2e suite, the fakes and the benchmarks. */
export const TEST_FILES = ['**/*.test.{ts,tsx}', 'server/tests/**', '**/fixtures/**', 'e2e/**', 'test-support/**', 'bench/**'];

// Every folder of web/src/features is a feature; a feature imports no other feature (shared pieces
// live in web/src/components, web/src/lib or domain/). Read from disk so a new feature is covered.
const features = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The wings of server/services/ (ARCHITECTURE.md, "Where does new code go"): each has one door, its
 * index.ts. Code outside a wing imports only that door, tests included; inside, files import each other.
 */
export const WINGS = ['server/services/calls', 'server/services/admin', 'server/services/speech'];
/** Zone targets that cover every file of the repository but those under `dir` (minimatch extglobs). */
function everywhereBut(dir) {
  const parts = dir.split('/');
  const targets = FOLDERS.filter((folder) => folder !== parts[0]);
  for (let depth = 1; depth < parts.length; depth += 1) {
    const parent = parts.slice(0, depth).join('/');
    targets.push(`${parent}/*.*`, `${parent}/!(${parts[depth]})/**`);
  }
  return targets;
}

/** Zones that hold for every file, tests included. */
const zones = [
  { target: 'contract', from: everythingBut('contract'), message: 'contract/ imports nothing of ours (ARCHITECTURE.md, Boundaries).' },
  { target: 'domain', from: everythingBut('domain'), message: 'domain/ imports nothing of ours (ARCHITECTURE.md, Boundaries).' },
  // Server tests may drive the fakes of test-support/ (the OpenAI peer included; not its production code: below).
  {
    target: 'server',
    from: ['web', 'bench', 'scripts', 'content', 'e2e'],
    message:
      'server/ never imports the web app, the benchmarks, the start-up scripts or the e2e specs (shared test helpers live in test-support/).',
  },
  {
    target: 'web',
    from: everythingBut('web', 'contract', 'domain'),
    message: 'web/ imports only contract types, domain/ and its own code.',
  },
  {
    target: 'scripts',
    from: everythingBut('scripts', 'server', 'test-support'),
    message: 'scripts/ (start-up and build) import only server/ and their own code (their tests also test-support/).',
  },
  {
    target: 'test-support',
    from: ['web', 'e2e', 'bench', 'scripts'],
    message: 'test-support/ (fakes and the test app) imports only server/, contract/, domain/ and its own code.',
  },
  { target: 'e2e', from: ['bench', 'scripts'], message: 'e2e/ drives the built app; it imports no benchmark or start-up script.' },
  {
    target: 'bench',
    from: ['scripts'],
    message: 'bench/ measures the server and the web app; it does not reach into the start-up scripts.',
  },
  { target: 'content', from: everythingBut('content'), message: 'content/ is the question-set catalogue: it imports nothing.' },
  {
    // The built-in rater is one wing with one door (issue 32): the rest of the server, its tests
    // included, reaches it only through server/rater/index.ts.
    target: ['server/!(rater)/**', 'server/*.ts'],
    from: 'server/rater',
    except: ['./index.ts'],
    message: 'The built-in rater has one door: import it from server/rater (its index.ts), not its files.',
  },
  {
    target: 'server/services',
    from: ['server/routes', 'server/plugins'],
    message: 'Services hold the rules and know nothing of routes or Fastify plugins.',
  },
  {
    target: ['web/src/components', 'web/src/lib'],
    from: ['web/src/features', 'web/src/app'],
    message: 'Shared web code does not reach into features or the app shell.',
  },
  {
    target: 'web/src/features',
    from: 'web/src/app',
    message: 'Features do not import the app shell; route modules in web/src/app compose features.',
  },
  ...WINGS.map((wing) => ({
    target: everywhereBut(wing),
    from: wing,
    except: ['./index.ts'],
    message: `${wing}/ is a wing with one door: import its index.ts (${wing}), not the files behind it.`,
  })),
  ...features.map((name) => ({
    target: `web/src/features/${name}`,
    from: 'web/src/features',
    except: [`./${name}`],
    message: 'A feature does not import another feature: move the shared piece to web/src/components, web/src/lib or domain/.',
  })),
];
/** Production code (everything but TEST_FILES) never imports test code. */
const productionZones = [
  ...zones,
  ...['server', 'scripts'].map((target) => ({
    target,
    from: ['test-support', 'e2e'],
    message: 'Production code never imports test code (test-support/, e2e/); only tests do.',
  })),
  {
    target: 'server/providers',
    from: ['server/services', 'server/routes', 'server/plugins'],
    message: 'Providers are the seams to the outside world: services use them, never the other way round.',
  },
  {
    target: 'server/db',
    from: ['server/*.*', 'server/!(db)/**'],
    message: 'server/db/ (the schema, the client, the migrations) is the bottom of the server: it imports only contract/ and domain/.',
  },
  {
    target: 'server/catalogue',
    from: ['server/*.*', 'server/!(catalogue|db)/**'],
    message:
      'server/catalogue/ reads and writes the Markdown catalogue: it imports only server/db/, contract/ and domain/; services load what it reads.',
  },
  {
    target: 'server/providers/upstream',
    from: ['server/providers/voice', 'server/providers/interviewer', 'server/providers/rating', 'server/providers/editor'],
    message: 'providers/upstream/ holds the clients of outside services: the voice, interviewer, rating and editor parts build on them.',
  },
];

/** Folders at the top of the repository that no zone covers (lint fails while there is one). */
export function unzonedFolders(root = new URL('.', import.meta.url)) {
  const targets = new Set(zones.flatMap((zone) => [zone.target].flat()));
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_CODE.has(entry.name))
    .map((entry) => entry.name)
    .filter((name) => !targets.has(name));
}
const unzoned = unzonedFolders();
if (unzoned.length > 0) {
  throw new Error(`eslint.config.js: ${unzoned.join(', ')} is in no zone: add it to FOLDERS and give it a zone.`);
}

/** The packages domain/ and contract/ may import (tests may also use vitest and fast-check). */
export const ALLOWED_PACKAGES = { domain: [], contract: ['zod'] };
const TEST_PACKAGES = ['vitest', 'fast-check'];
const onlyPackages = (folder, packages) => ({
  // Relative imports and the listed packages pass; anything else (react, node:fs, …) is refused.
  regex: `^(?!\\.{1,2}/${packages.map((name) => `|${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/|$)`).join('')})`,
  message: `${folder}/ imports only ${packages.length > 0 ? `these packages: ${packages.join(', ')}` : 'no package'} (ALLOWED_PACKAGES in eslint.config.js).`,
});

/** Every spelling that reaches the environment, refused outside server/config.ts. */
const ENV_MESSAGE = 'Read settings from the parsed config (server/config.ts), the only reader of the environment.';
const PROCESS_MODULE = '/^(node:)?process$/';
const envSyntax = [
  `ImportDeclaration[source.value=${PROCESS_MODULE}]`,
  `ImportExpression[source.value=${PROCESS_MODULE}]`,
  `CallExpression[callee.name='require'][arguments.0.value=${PROCESS_MODULE}]`,
  // Aliases: const p = process; p = process; f(process); { p: process }, { process }.
  "VariableDeclarator[init.type='Identifier'][init.name='process']",
  "AssignmentExpression[right.type='Identifier'][right.name='process']",
  ":matches(CallExpression, NewExpression) > Identifier.arguments[name='process']",
  "Property > Identifier.value[name='process']",
  // const { process } = globalThis (or global, window, self).
  "VariableDeclarator[init.name=/^(globalThis|global|window|self)$/] > ObjectPattern > Property[key.name='process']",
].map((selector) => ({ selector, message: ENV_MESSAGE }));
const envProperties = [
  { object: 'process', property: 'env', message: ENV_MESSAGE },
  ...['globalThis', 'global', 'window', 'self'].map((object) => ({ object, property: 'process', message: ENV_MESSAGE })),
];

/**
 * The files the type-aware rules read: the product's code and its tests. Over every file of
 * tsconfig.json they took lint from 64 s to 137 s of CPU (bench/results.md, "CI time"); e2e/,
 * bench/, scripts/ and test-support/ are left to the type checker and review.
 */
const TYPED_FILES = ['server/**/*.ts', 'web/src/**/*.{ts,tsx}'];

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
    // Type-aware: a promise nobody awaits loses its rejection (an unhandled rejection ends the
    // server), and an async function where a void callback is expected (an event handler, a
    // route's onRequest, setTimeout) does the same. Fire-and-forget is written `void promise`
    // with a comment why. The types come from tsconfig.json through the project service.
    files: TYPED_FILES,
    languageOptions: {
      parserOptions: {
        // The probes of eslint.config.test.ts are linted as text at paths no file has (probe.ts);
        // they get tsconfig.json's options in a default project. No file in the tree is so named.
        projectService: {
          allowDefaultProject: ['server/probe*.ts', 'server/*/probe*.ts', 'server/*/*/probe*.ts', 'web/src/*/probe*.ts'],
          defaultProject: 'tsconfig.json',
          // Counts the probes one test run opens (about 20 paths); no file on disk matches, so `eslint .` pays nothing.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 64,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    plugins: { 'import-x': importX },
  },
  {
    files: ['**/*.{ts,tsx}'],
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: productionZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // import-x/no-cycle sees files; this sees folders (eslint.folder-cycles.js). Tests may reach across.
    files: ['**/*.{ts,tsx}'],
    ignores: TEST_FILES,
    plugins: { 'folder-cycles': folderCycles },
    rules: { 'folder-cycles/no-folder-cycle': ['error', { root: import.meta.dirname }] },
  },
  {
    files: TEST_FILES.map((glob) => (glob.endsWith('/**') ? `${glob}/*.{ts,tsx}` : glob)),
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }] },
  },
  {
    // Production code imports only the packages of `dependencies`: test and build tools stay out.
    files: ['{server,web/src,contract,domain,scripts}/**/*.{ts,tsx}'],
    ignores: [...TEST_FILES, 'server/db/drizzle.config.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: false, optionalDependencies: false, peerDependencies: false }],
    },
  },
  ...Object.entries(ALLOWED_PACKAGES).flatMap(([folder, packages]) => [
    { files: [`${folder}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns: [onlyPackages(folder, packages)] }] } },
    {
      files: [`${folder}/**/*.test.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: [onlyPackages(folder, [...packages, ...TEST_PACKAGES])] }] },
    },
  ]),
  {
    files: ['web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
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
              message:
                'web/ imports only types from contract/ (and the zod-free contract/limits.ts, contract/api-paths.ts): `import type`.',
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
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['fastify', 'fastify-*', '@fastify/*'], message: 'Services have no Fastify imports; routes adapt them.' }] },
      ],
    },
  },
  {
    // Every e2e test runs with the console-error guard (e2e/support/test.ts).
    files: ['e2e/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "Import test and expect from './support/test' (the console-error guard).",
            },
          ],
        },
      ],
    },
  },
  {
    // Only server/config.ts may read the environment; everything else gets the parsed config.
    files: ['{server,web,domain,contract,scripts}/**/*.{ts,tsx}'],
    ignores: ['server/config.ts'],
    rules: {
      'no-restricted-properties': ['error', ...envProperties],
      'no-restricted-syntax': ['error', ...envSyntax],
    },
  },
);
