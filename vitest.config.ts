import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{server,domain,contract,web,test-support,scripts,bench}/**/*.test.{ts,tsx}', '*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite's first open costs seconds and hundreds of MB; two workers on a 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
  },
});
