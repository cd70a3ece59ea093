import { defineConfig } from '@playwright/test';

// Debian's Chromium; Playwright's own browser downloads cannot be reached here.
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // Starts the server once on an empty directory; its migrated PGlite database is the template
  // every later PGlite server of the run is copied from (e2e/support/global-setup.ts).
  globalSetup: './e2e/support/global-setup.ts',
  // Also bounds beforeAll hooks, which start a server on a fresh PGlite directory (initdb).
  timeout: 120_000,
  expect: {
    timeout: 10_000,
    // The visual regression specs (e2e/visual/): a small tolerance for anti-aliasing, no animation, no caret.
    toHaveScreenshot: { maxDiffPixelRatio: 0.01, animations: 'disabled', caret: 'hide', scale: 'css' },
  },
  // Baselines beside their spec, one set for Debian's Chromium on Linux (the only browser here and on CI).
  snapshotPathTemplate: '{testDir}/{testFileDir}/{testFileName}-snapshots/{arg}{ext}',
  fullyParallel: false,
  workers: 2,
  // One retry on CI, where it records the trace below; locally a failure fails at once (add
  // --retries=1 for a trace). A test that passes only on its retry is listed as flaky.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'on-first-retry',
  },
});
