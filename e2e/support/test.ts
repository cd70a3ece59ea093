/**
 * The `test` every e2e spec imports (lint refuses `test` from @playwright/test in specs): the
 * console-error guard is an automatic fixture, so any page of the test's browser context that logs
 * an error the test did not expect, or throws an uncaught exception, fails the test.
 *
 * Expected: the browser's own "Failed to load resource" line for an answer with an error status or
 * a failed request (tests provoke those on purpose and assert what the screen says; a server
 * failure a test did not provoke breaks its assertions anyway), and whatever a test declares with
 * `consoleErrors.allow(/pattern/)`: the app's own error logs in the failure paths it provokes.
 */
import { test as base, expect } from '@playwright/test';

export { expect };

export interface ConsoleErrors {
  /** Errors matching `pattern` are expected from here on in this test. */
  allow(pattern: RegExp): void;
  /** The errors logged so far that no pattern allows. */
  unexpected(): string[];
}

const BROWSER_NETWORK_LINE = /^Failed to load resource: /;

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ context }, use) => {
      const allowed: RegExp[] = [BROWSER_NETWORK_LINE];
      const logged: string[] = [];
      context.on('console', (message) => {
        if (message.type() === 'error') logged.push(`${message.text()} (${message.location().url || 'no location'})`);
      });
      context.on('weberror', (error) => logged.push(`Uncaught: ${error.error().message}`));
      const guard: ConsoleErrors = {
        allow: (pattern) => void allowed.push(pattern),
        unexpected: () => logged.filter((line) => !allowed.some((pattern) => pattern.test(line))),
      };
      await use(guard);
      expect(guard.unexpected(), 'the page logged errors this test did not expect').toEqual([]);
    },
    { auto: true },
  ],
});
