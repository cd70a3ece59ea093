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

/** Specs that run whole interviews against several servers, restarts or fake upstreams. */
const CONVERSATION_SPECS = [
  '**/several-servers*.spec.ts',
  '**/realtime-interview.spec.ts',
  '**/speech-pipeline-*.spec.ts',
  '**/session-survives-page.spec.ts',
  '**/browser-speech-*.spec.ts',
  '**/session-telemetry.spec.ts',
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
  // The specs mostly wait (on the browser, the server, fake upstreams and timers): measured, the
  // whole run kept about half a core busy with 2 workers, so it runs 4 spec files at once
  // (bench/results.md, "CI time, third pass"). The conversation specs hold several servers,
  // restart them and wait on leases and silences: at most 2 of them at once, so their timing
  // stays far from the machine's limit.
  workers: 4,
  projects: [
    { name: 'conversations', testMatch: CONVERSATION_SPECS, workers: 2 },
    { name: 'screens', testIgnore: CONVERSATION_SPECS },
  ],
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
