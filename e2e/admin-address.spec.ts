/**
 * The admin area's state in the address (docs/decisions/013-router-data-apis.md): the events page
 * count (`?pages=`) and the charts' range (`?days=`) survive a reload and follow back and forward;
 * the gate after a wrong secret in the address, and signing out.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { BROWSER_LOCALE, openAdmin, startAdminServer, startSession, type RunningServer } from './support/admin';
import { login } from '../test-support/fixtures';
import { questionSets } from './support/app';

let server: RunningServer;
const SESSIONS = 53;

test.use(BROWSER_LOCALE);
test.beforeAll(async () => {
  server = await startAdminServer();
  const [first] = (await questionSets(server)).sort((a, b) => a.index - b.index);
  if (!first) throw new Error('empty catalogue');
  await login(server, 'paging@example.com');
  for (let i = 0; i < SESSIONS; i++) await startSession(server, 'paging@example.com', first.id);
});
test.afterAll(async () => {
  await server?.stop();
});

const rows = (page: Page) => page.locator('tbody tr');
const gate = (page: Page) => page.getByRole('dialog', { name: 'Enter Admin Secret' });

test('the events page count is in the address: reload keeps it, back and forward follow it', async ({ page }) => {
  await openAdmin(page, server, 'events');
  await expect(rows(page)).toHaveCount(50);
  await page.getByRole('button', { name: 'Load older events' }).click();
  await expect(page).toHaveURL(`${server.url}/admin/events?pages=2`);
  await expect(rows(page)).toHaveCount(SESSIONS);
  await expect(page.getByRole('button', { name: 'Load older events' })).toHaveCount(0);

  await page.reload();
  await expect(rows(page)).toHaveCount(SESSIONS);
  await page.goBack();
  await expect(page).toHaveURL(`${server.url}/admin/events`);
  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByRole('button', { name: 'Load older events' })).toBeVisible();
  await page.goForward();
  await expect(rows(page)).toHaveCount(SESSIONS);
});

test("the charts' range is in the address: back and forward go through the ranges chosen", async ({ page }) => {
  await openAdmin(page, server, 'dashboard');
  const charts = page.getByTestId('dashboard-charts');
  const pressed = (range: string) => charts.getByRole('button', { name: range });
  await expect(pressed('30 days')).toHaveAttribute('aria-pressed', 'true');
  await pressed('7 days').click();
  await expect(page).toHaveURL(`${server.url}/admin/dashboard?days=7`);
  await expect(pressed('7 days')).toHaveAttribute('aria-pressed', 'true');
  await charts.getByRole('button', { name: 'Show as tables' }).click();
  await expect(charts.getByRole('table', { name: 'Interviews per day' }).getByRole('row')).toHaveCount(8);

  await page.goBack();
  await expect(pressed('30 days')).toHaveAttribute('aria-pressed', 'true');
  await expect(charts.getByRole('table', { name: 'Interviews per day' }).getByRole('row')).toHaveCount(31);
  await page.goForward();
  await expect(pressed('7 days')).toHaveAttribute('aria-pressed', 'true');
});

test('after a wrong secret in the address a typed one opens the page; Sign out closes the gate again', async ({ page }) => {
  await page.goto(`${server.url}/admin/events/not-the-secret-0123456789`);
  await expect(gate(page).getByRole('alert')).toHaveText('Authentication failed: The admin secret is wrong.');
  await gate(page).getByLabel('Admin Secret').fill(server.adminSecret);
  await gate(page).getByRole('button', { name: 'Continue' }).click();
  await expect(gate(page)).toBeHidden();
  await expect(rows(page)).toHaveCount(50);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(gate(page)).toBeVisible();
  await expect(gate(page).getByRole('alert')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('adminSecret'))).toBeNull();
  await page.reload();
  await expect(gate(page)).toBeVisible();
});
