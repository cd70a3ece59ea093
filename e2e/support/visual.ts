/**
 * Visual regression helpers (e2e/visual/, README "Visual regression tests"): every screen at a
 * phone's and a desktop's width, compared with the baselines committed beside the specs.
 *
 * What changes from run to run is frozen or masked, so a repeat run compares equal: timestamps in
 * the API's answers are replaced by one fixed instant before the page sees them (the server and
 * its data stay real), animations are stopped and the caret hidden (playwright.config.ts), and a
 * spec masks what is left (an id, a secret).
 */
import type { Locator, Page } from '@playwright/test';
import { API_PREFIXES } from '../../contract/api-paths';
import { expect } from './test';
import { WIDTHS } from './app';

/** Every timestamp the API answers is shown as this instant (in UTC, the pinned time zone). */
export const FROZEN_AT = '2026-03-04T10:05:00.000Z';

const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)?/g;

/** Rewrites the timestamps of every JSON answer of the API to FROZEN_AT. */
export async function freezeTimestamps(page: Page): Promise<void> {
  const isApi = (url: URL) => API_PREFIXES.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
  await page.route(isApi, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const response = await route.fetch();
    const type = response.headers()['content-type'] ?? '';
    if (!type.includes('application/json')) return route.fulfill({ response });
    const body = (await response.text()).replace(TIMESTAMP, FROZEN_AT);
    return route.fulfill({ response, body });
  });
}

export interface ShotOptions {
  mask?: Locator[];
  fullPage?: boolean;
}

/**
 * The page at both widths, compared with `<name>-390.png` and `<name>-1280.png`. The viewport is
 * left at the desktop width afterwards.
 */
export async function expectBothWidths(page: Page, name: string, options: ShotOptions = {}): Promise<void> {
  for (const { viewport } of WIDTHS) {
    await page.setViewportSize(viewport);
    await expect(page).toHaveScreenshot(`${name}-${viewport.width}.png`, { fullPage: options.fullPage ?? false, mask: options.mask ?? [] });
  }
}
