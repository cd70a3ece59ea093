/**
 * Shared checks of the accessibility specs: axe-core on the page as it is (no serious or critical
 * violations; everything else printed), and keyboard helpers that Tab to a control, and prove that
 * focus stays inside a dialog.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/** Runs axe-core on the whole page; fails on serious or critical findings, prints the rest. */
export async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  // Buttons fade between colours (CSS transitions); a mid-fade colour is not what the user reads.
  await page.waitForFunction(
    () => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
    undefined,
    { timeout: 5_000 },
  );
  const results = await new AxeBuilder({ page }).analyze();
  // A page that did not render would pass trivially.
  expect(results.passes.length, `${screen}: axe-core checked almost nothing`).toBeGreaterThan(10);
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = results.violations.filter((v) => !serious.includes(v));
  console.log(
    `a11y: ${screen}: ${results.passes.length} rules passed, ${serious.length} serious/critical` +
      (minor.length ? `, minor: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}` : ''),
  );
  const report = serious.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('\n')}`,
  );
  expect(report, `${screen}: serious or critical accessibility violations`).toEqual([]);
}

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement).catch(() => false);
}

/** Presses Tab (or Shift+Tab) until `target` has focus; fails when it is never reached. */
export async function tabTo(page: Page, target: Locator, options: { backwards?: boolean; max?: number } = {}): Promise<number> {
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  for (let presses = 1; presses <= (options.max ?? 40); presses++) {
    await page.keyboard.press(key);
    if (await isFocused(target)) return presses;
  }
  throw new Error(`${key} never reached ${target.toString()}`);
}

/** Focus cycles inside `dialog` both ways, for more presses than it has controls. */
export async function expectFocusTrapped(page: Page, dialog: Locator, presses = 12): Promise<void> {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < presses; i++) {
      await page.keyboard.press(key);
      const inside = await dialog.evaluate((el) => el.contains(document.activeElement));
      expect(inside, `${key} #${i + 1} left the dialog`).toBe(true);
    }
  }
}
