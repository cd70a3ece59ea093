import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{server,domain,contract,web,test-support,scripts,bench}/**/*.test.{ts,tsx}', '*.test.ts'],
    environment: 'node',
    // One migrated PGlite data directory for the whole run, cloned by each test app.
    globalSetup: ['test-support/vitest-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite's first open costs seconds and hundreds of MB; two workers on a 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
  },
});
