/**
 * The operator's console on a phone: at 390 px the side menu is a "Menu"
 * button, no page is wider than the screen (tables scroll inside their own box), dialogs fit, and
 * axe finds nothing serious. Screenshots go to test-results/ to be looked at.
 */
import { expect, test } from './support/test';
import { expectAccessible } from './support/a11y';
import { BROWSER_LOCALE, giveFeedback, interview, openAdmin, startAdminServer, type RunningServer } from './support/admin';
import { login } from '../test-support/fixtures';
import { questionSets } from './support/app';

let server: RunningServer;

test.use({ ...BROWSER_LOCALE, viewport: { width: 390, height: 844 } });
test.beforeAll(async () => {
  server = await startAdminServer();
  const [first] = (await questionSets(server)).sort((a, b) => a.index - b.index);
  if (!first) throw new Error('empty catalogue');
  await login(server, 'phone.user.with.a.long.address@example.com');
  await interview(
    server,
    'phone.user.with.a.long.address@example.com',
    first.id,
    [
      { role: 'interviewer', transcript: 'What is a closure?' },
      { role: 'interviewee', transcript: 'A function that keeps its outer scope alive.' },
    ],
    40,
  );
  await giveFeedback(
    server,
    'phone.user.with.a.long.address@example.com',
    first.name,
    first.index,
    'Clear questions, and the feedback was useful.',
  );
});
test.afterAll(async () => {
  await server?.stop();
});

const pageWidth = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.scrollWidth);

for (const [section, heading] of [
  ['dashboard', 'Dashboard'],
  ['events', 'Admin - Recent Events'],
  ['emails', 'Manage Emails'],
  ['feedback', 'User Feedback'],
  ['question-sets', 'Question Sets'],
] as const) {
  test(`${section} fits a 390 px screen and passes axe`, async ({ page }, info) => {
    await openAdmin(page, server, section);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Admin menu' });
    // The menu is a button, its links hidden until opened.
    const toggle = menu.getByRole('button', { name: 'Menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu.getByRole('link', { name: 'Manage Emails' })).toBeHidden();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: info.outputPath(`${section}-390.png`), fullPage: true });
    await expectAccessible(page, `admin ${section} at 390 px`);

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('link', { name: 'Manage Emails' })).toBeVisible();
    await page.screenshot({ path: info.outputPath(`${section}-390-menu.png`) });
    void heading;
  });
}

test('the menu opens a page and closes; dialogs fit the screen', async ({ page }, info) => {
  await openAdmin(page, server, 'dashboard');
  const menu = page.getByRole('navigation', { name: 'Admin menu' });
  await menu.getByRole('button', { name: 'Menu' }).click();
  await menu.getByRole('link', { name: 'Recent Events' }).click();
  await expect(page.getByRole('heading', { name: 'Admin - Recent Events' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');

  await page.getByRole('button', { name: 'Details' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Event Details' });
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 9999)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: info.outputPath('event-details-390.png') });
  await expectAccessible(page, 'admin event details at 390 px');
});

test('a table wider than the phone says that it scrolls sideways, and stops saying so at its end', async ({ page }) => {
  await openAdmin(page, server, 'events');
  const box = page.getByRole('region', { name: 'Events' });
  await expect(page.getByTestId('scroll-hint')).toHaveText('More columns to the right: scroll sideways →');
  await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(page.getByTestId('scroll-hint')).toHaveText('← Scroll back for the first columns');
  // At a desktop's width the whole table fits: no hint.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('scroll-hint')).toHaveCount(0);
});
