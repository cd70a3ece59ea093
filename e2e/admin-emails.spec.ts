/**
 * Manage Emails (docs/product-rules.md, Admin area): create inline, plan toggle, delete with confirmation, the
 * reload after every action, and every failure text.
 */
import { type Page, type Route } from '@playwright/test';
import { expect, test } from './support/test';
import { admin, BROWSER_LOCALE, openAdmin, recordDialogs, startAdminServer, type RunningServer } from './support/admin';
import { login } from '../test-support/fixtures';

let server: RunningServer;

test.use(BROWSER_LOCALE);
test.beforeAll(async () => {
  server = await startAdminServer();
  await login(server, 'erin@example.com');
  await login(server, 'frank@example.com');
});
test.afterAll(async () => {
  await server?.stop();
});

const row = (page: Page, email: string) => page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: email, exact: true }) });
const alert = (page: Page) => page.getByRole('alert');
const json = (status: number, body: unknown) => (route: Route) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
const isEmailsList = (url: URL) => url.pathname === '/api/emails';

test('the list shows each email with its plan', async ({ page }) => {
  await openAdmin(page, server, 'emails');
  await expect(page.getByRole('columnheader')).toHaveText(['Email', 'Plan', 'Limit', 'Used', 'Remaining', 'Actions']);
  await expect(row(page, 'erin@example.com').getByRole('cell')).toHaveText([
    'erin@example.com',
    'Free',
    '200',
    '0',
    '200',
    /^Make Pro\s*Delete/,
  ]);
  await expect(row(page, 'frank@example.com').getByRole('cell').nth(1)).toHaveText('Free');
});

test('Create Email adds an inline row; empty input alerts; Cancel and Save work', async ({ page }) => {
  const dialogs = recordDialogs(page);
  await openAdmin(page, server, 'emails');
  await page.getByRole('button', { name: 'Create Email' }).click();
  const input = page.getByRole('textbox', { name: 'New email address' });
  await expect(input).toBeFocused();

  await input.fill('   ');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => dialogs).toEqual(['alert: Email address cannot be empty.']);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(input).toHaveCount(0);

  await page.getByRole('button', { name: 'Create Email' }).click();
  await input.fill('  New.Person@Example.com ');
  const reload = page.waitForRequest((request) => request.method() === 'GET' && isEmailsList(new URL(request.url())));
  await input.press('Enter');
  await reload;
  await expect(row(page, 'new.person@example.com').getByRole('cell').nth(1)).toHaveText('Free');
  await expect(input).toHaveCount(0);
  await expect(alert(page)).toHaveCount(0);
  const stored = (await admin(server, 'GET', '/api/emails')).body as { email: string }[];
  expect(stored.map((account) => account.email)).toContain('new.person@example.com');
});

test('creating an existing or invalid email shows the server error', async ({ page }) => {
  const exists = await admin(server, 'POST', '/api/emails', { body: { email: 'erin@example.com', limit: null } }, true);
  expect(exists.status).toBe(409);
  const invalid = await admin(server, 'POST', '/api/emails', { body: { email: 'not-an-email', limit: null } }, true);
  expect(invalid.status).toBe(400);

  await openAdmin(page, server, 'emails');
  await page.getByRole('button', { name: 'Create Email' }).click();
  const input = page.getByRole('textbox', { name: 'New email address' });
  await input.fill('erin@example.com');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(alert(page)).toHaveText(`Failed to create email: ${(exists.body as { error: string }).error}`);
  // The row stays open so the operator can correct the address.
  await expect(input).toHaveValue('erin@example.com');

  await input.fill('not-an-email');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(alert(page)).toHaveText(`Failed to create email: ${(invalid.body as { error: string }).error}`);
});

test('Make Pro and Make Free change the plan and reload the list', async ({ page }) => {
  await openAdmin(page, server, 'emails');
  // Created behind the page's back: it only shows if the action reloads the list.
  await admin(server, 'POST', '/api/emails', { body: { email: 'quiet@example.com', limit: null } });
  await expect(row(page, 'quiet@example.com')).toHaveCount(0);

  await row(page, 'frank@example.com').getByRole('button', { name: 'Make Pro' }).click();
  await expect(row(page, 'frank@example.com').getByRole('cell').nth(1)).toHaveText('Pro');
  await expect(row(page, 'quiet@example.com')).toHaveCount(1);
  expect((await login(server, 'frank@example.com')).subscription.type).toBe('pro');

  await row(page, 'frank@example.com').getByRole('button', { name: 'Make Free' }).click();
  await expect(row(page, 'frank@example.com').getByRole('cell').nth(1)).toHaveText('Free');
  await expect(row(page, 'frank@example.com').getByRole('button', { name: 'Make Pro' })).toBeVisible();
});

test('Delete asks with the exact text; dismissing keeps the email, accepting removes it', async ({ page }) => {
  await admin(server, 'POST', '/api/emails', { body: { email: 'gone@example.com', limit: null } });
  await openAdmin(page, server, 'emails');

  // The app's dialog, not the browser's confirm(): it says what Delete removes, and how Erase data differs.
  const native = recordDialogs(page);
  await row(page, 'gone@example.com').getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  await expect(dialog).toContainText('Are you sure you want to delete gone@example.com? This action cannot be undone.');
  await expect(dialog).toContainText(
    'This removes the account and its credits only. Its interviews and feedback stay and keep the email; to remove everything stored about this person, use Erase data.',
  );
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, 'gone@example.com')).toHaveCount(1);

  await row(page, 'gone@example.com').getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(row(page, 'gone@example.com')).toHaveCount(0);
  expect(native).toEqual([]);
  const stored = (await admin(server, 'GET', '/api/emails')).body as { email: string }[];
  expect(stored.map((account) => account.email)).not.toContain('gone@example.com');
});

test('action failures show the documented texts and still reload', async ({ page }) => {
  recordDialogs(page);
  await openAdmin(page, server, 'emails');
  const save = async (email: string) => {
    const input = page.getByRole('textbox', { name: 'New email address' });
    // After a failure the inline row stays open (and Create Email is disabled).
    if (!(await input.isVisible())) await page.getByRole('button', { name: 'Create Email' }).click();
    await input.fill(email);
    await page.getByRole('button', { name: 'Save' }).click();
  };

  const isPost = (url: URL) => url.pathname === '/api/emails';
  await page.route(isPost, (route) => (route.request().method() === 'POST' ? json(500, {})(route) : route.fallback()));
  await save('x@example.com');
  await expect(alert(page)).toHaveText('Failed to create email: Could not create email.');
  await page.unroute(isPost);
  await page.route(isPost, (route) => (route.request().method() === 'POST' ? route.abort('failed') : route.fallback()));
  await save('x@example.com');
  await expect(alert(page)).toHaveText('An error occurred while creating the email.');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.unroute(isPost);
  await page.route(isPost, (route) => (route.request().method() === 'POST' ? json(500, { error: 'no' })(route) : route.fallback()));
  await row(page, 'erin@example.com').getByRole('button', { name: 'Make Pro' }).click();
  await expect(alert(page)).toHaveText('Failed to update plan.');
  await page.unroute(isPost);
  await page.route(isPost, (route) => (route.request().method() === 'POST' ? route.abort('failed') : route.fallback()));
  await row(page, 'erin@example.com').getByRole('button', { name: 'Make Pro' }).click();
  await expect(alert(page)).toHaveText('An error occurred while updating the plan.');
  await expect(row(page, 'erin@example.com').getByRole('cell').nth(1)).toHaveText('Free');

  const isDelete = (url: URL) => url.pathname === '/api/emails/erin%40example.com' || url.pathname === '/api/emails/erin@example.com';
  await page.route(isDelete, json(404, { error: 'There is no such account.' }));
  await row(page, 'erin@example.com').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete account' }).getByRole('button', { name: 'Delete account' }).click();
  await expect(alert(page)).toHaveText('Failed to delete email.');
  await page.unroute(isDelete);
  await page.route(isDelete, (route) => route.abort('failed'));
  await row(page, 'erin@example.com').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete account' }).getByRole('button', { name: 'Delete account' }).click();
  await expect(alert(page)).toHaveText('An error occurred while deleting the email.');
  await expect(row(page, 'erin@example.com')).toHaveCount(1);
});

test('list failures show the documented texts', async ({ page }) => {
  await page.route(isEmailsList, json(500, { error: 'The database is unavailable.' }));
  await openAdmin(page, server, 'emails');
  await expect(alert(page)).toHaveText('Failed to fetch emails: The database is unavailable.');
  await page.unroute(isEmailsList);
  await page.route(isEmailsList, (route) => route.fulfill({ status: 503, body: '' }));
  await page.reload();
  await expect(alert(page)).toHaveText('Failed to fetch emails: Service Unavailable');
  await page.unroute(isEmailsList);
  await page.route(isEmailsList, (route) => route.abort('failed'));
  await page.reload();
  await expect(alert(page)).toHaveText('An error occurred while fetching emails.');
});
