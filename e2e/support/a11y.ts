/**
 * Shared checks of the accessibility specs: axe-core on the page as it is, and keyboard helpers
 * that Tab to a control and prove that focus stays inside a dialog.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/** The WCAG 2.0 and 2.1 level A and AA rules: any finding of theirs fails, whatever axe's impact. */
const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Runs every axe-core rule on the whole page. Fails on any WCAG 2.1 A/AA finding and on any serious
 * or critical finding of the other rules (axe's best practices); prints the rest.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Buttons fade between colours (CSS transitions); a mid-fade colour is not what the user reads.
  await page.waitForFunction(
    () => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
    undefined,
    { timeout: 5_000 },
  );
  const results = await new AxeBuilder({ page }).analyze();
  // A page that did not render would pass trivially.
  expect(results.passes.length, `${screen}: axe-core checked almost nothing`).toBeGreaterThan(10);
  const failing = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical' || v.tags.some((tag) => WCAG_AA_TAGS.includes(tag)),
  );
  const minor = results.violations.filter((v) => !failing.includes(v));
  console.log(
    `a11y: ${screen}: ${results.passes.length} rules passed, ${failing.length} failing` +
      (minor.length ? `, minor best practices: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}` : ''),
  );
  const report = failing.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('\n')}`,
  );
  expect(report, `${screen}: WCAG 2.1 AA, serious or critical accessibility violations`).toEqual([]);
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
