import { configDefaults, defineConfig } from 'vitest/config';

// Pure code: no database, no server, no process, no worker; what a test stubs (vi.stubGlobal) it
// unstubs after each test. These files share one module graph in worker threads (isolate: false),
// which halves their time (measured in bench/results.md, "CI time"). A test file that needs a
// database, a server or a process goes in server/, scripts/ or test-support/, never here.
const UNIT = ['{domain,contract,web}/**/*.test.{ts,tsx}'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite's first open costs seconds and hundreds of MB. The server files mostly wait (on
    // processes, sockets and timers): three at once keep a 2-core machine busier without running
    // out of memory (bench/results.md, "CI time, third pass").
    maxWorkers: 3,
    // As Playwright does on CI: a test that fails once is run once more, and the reporter marks it
    // (retry x1). Under CI the static checks run beside Vitest (npm test), and a WebRTC handshake
    // or a mail delivery can miss its time on a busy core; a test that fails twice fails the run.
    retry: process.env.CI ? 1 : 0,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT, pool: 'threads', isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['{server,test-support,scripts,bench}/**/*.test.{ts,tsx}', '*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT],
          // One migrated PGlite data directory for the whole run, cloned by each test app.
          globalSetup: ['test-support/vitest-setup.ts'],
          // Each file in its own process: test apps, PGlite and the rater's workers per file.
          pool: 'forks',
        },
      },
    ],
  },
});
