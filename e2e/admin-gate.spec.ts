/**
 * The admin gate (docs/product-rules.md, Admin area), the side menu, the empty states and the lazy admin chunk,
 * against a real server with an empty database.
 */
import { type Page, type Response, type Route } from '@playwright/test';
import { expect, test } from './support/test';
import { BROWSER_LOCALE, recordDialogs, startAdminServer, type RunningServer } from './support/admin';
import { call } from '../test-support/fixtures';

let server: RunningServer;

test.use(BROWSER_LOCALE);
test.beforeAll(async () => {
  server = await startAdminServer();
});
test.afterAll(async () => {
  await server?.stop();
});

const gate = (page: Page) => page.getByRole('dialog', { name: 'Enter Admin Secret' });
/** What earlier versions kept in local storage: nothing is kept there now. */
const savedSecret = (page: Page) => page.evaluate(() => localStorage.getItem('adminSecret'));
const adminCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'admin_session');
/** The gate's calls: POST sends a secret once, GET asks on load whether the browser holds a session. */
const isSessionCall = (url: URL) => url.pathname === '/api/admin/session';

/**
 * Types a secret into the gate once it is ready: while the page load's session check runs, the gate
 * shows "Verifying..." (its loading fallback first), and a secret typed then is lost when the gate
 * proper replaces it (a flaky CI run clicked a disabled Continue for two minutes).
 */
async function enterSecret(page: Page, secret: string): Promise<void> {
  const continueButton = gate(page).getByRole('button', { name: 'Continue' });
  await expect(continueButton).toBeVisible();
  await gate(page).getByLabel('Admin Secret').fill(secret);
  await expect(continueButton).toBeEnabled();
  await continueButton.click();
}

/** Holds the gate's `method` call to /api/admin/session until `release` is called, so the verifying state can be seen. */
async function holdSessionCall(page: Page, method: 'GET' | 'POST'): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(isSessionCall, async (route: Route) => {
    if (route.request().method() === method) await held;
    await route.fallback();
  });
  return release;
}

test('the right secret opens the admin area, Enter submits; the browser keeps an HttpOnly session cookie, not the secret', async ({
  page,
}) => {
  await page.goto(`${server.url}/admin`);
  await expect(gate(page)).toBeVisible();
  // Hold the check until the button's checking state has been seen.
  const release = await holdSessionCall(page, 'POST');
  const field = gate(page).getByLabel('Admin Secret');
  await expect(field).toHaveAttribute('type', 'password');
  const button = gate(page).getByRole('button', { name: 'Continue' });
  await expect(button).toBeDisabled();

  await field.fill(server.adminSecret);
  await expect(button).toBeEnabled();
  await field.press('Enter');
  const checking = gate(page).getByRole('button', { name: 'Verifying...' });
  await expect(checking).toBeVisible();
  await expect(checking).toBeDisabled();
  release();

  await expect(gate(page)).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(await savedSecret(page)).toBeNull();
  expect(await adminCookie(page)).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  // No admin call of the page carries the secret: the cookie does.
  const withSecret: string[] = [];
  page.on('request', (request) => {
    if (request.headers()['x-admin-secret'] !== undefined) withSecret.push(request.url());
  });
  await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Manage Emails' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Emails' })).toBeVisible();
  expect(withSecret).toEqual([]);
});

test('a wrong secret shows the server error, keeps the modal and saves nothing', async ({ page }) => {
  const answer = await call(server, 'POST', '/api/admin/session', { admin: 'wrong-secret-0123456789' });
  expect(answer.status).toBe(401);
  const serverError = (answer.body as { error: string }).error;

  await page.goto(`${server.url}/admin`);
  await enterSecret(page, 'wrong-secret-0123456789');
  await expect(gate(page).getByRole('alert')).toHaveText(`Authentication failed: ${serverError}`);
  await expect(gate(page)).toBeVisible();
  expect(await savedSecret(page)).toBeNull();
  expect(await adminCookie(page)).toBeUndefined();
});

test('without an error field the status text is shown', async ({ page }) => {
  await page.route(isSessionCall, (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 403, body: 'no json here' }) : route.fallback(),
  );
  await page.goto(`${server.url}/admin`);
  await enterSecret(page, 'anything');
  await expect(gate(page).getByRole('alert')).toHaveText('Authentication failed: Forbidden');
});

test('the session opens the area on the next load without typing; a secret an earlier version saved is dropped unsent', async ({
  page,
}) => {
  await page.goto(`${server.url}/admin/${encodeURIComponent(server.adminSecret)}`);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.evaluate(() => localStorage.setItem('adminSecret', 'left-by-an-old-version'));
  const sent: string[] = [];
  page.on('request', (request) => {
    const secret = request.headers()['x-admin-secret'];
    if (secret !== undefined) sent.push(secret);
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(gate(page)).toBeHidden();
  expect(await savedSecret(page)).toBeNull();
  expect(sent).toEqual([]);
});

/** The gate while a secret or the session is checked on load: 'Verifying...', disabled (not the app's loading line). */
async function expectVerifyingOnLoad(page: Page) {
  const checking = gate(page).getByRole('button', { name: 'Verifying...' });
  await expect(checking).toBeVisible();
  await expect(checking).toBeDisabled();
  await expect(gate(page).getByRole('button', { name: 'Continue' })).toHaveCount(0);
}

test('on load the session check shows the gate verifying, then the area unlocks', async ({ page }) => {
  await page.goto(`${server.url}/admin/${encodeURIComponent(server.adminSecret)}`);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const release = await holdSessionCall(page, 'GET');
  await page.reload();
  await expectVerifyingOnLoad(page);
  release();
  await expect(gate(page)).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('a secret typed while the page loads is kept when the gate proper replaces the loading one', async ({ page }) => {
  const release = await holdSessionCall(page, 'GET');
  await page.goto(`${server.url}/admin`);
  await expectVerifyingOnLoad(page);
  await gate(page).getByLabel('Admin Secret').pressSequentially(server.adminSecret);
  release();
  const continueButton = gate(page).getByRole('button', { name: 'Continue' });
  await expect(continueButton).toBeEnabled();
  await expect(gate(page).getByLabel('Admin Secret')).toHaveValue(server.adminSecret);
  await continueButton.click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('on load a secret in the address shows the gate verifying, then the page', async ({ page }) => {
  const release = await holdSessionCall(page, 'POST');
  await page.goto(`${server.url}/admin/emails/${encodeURIComponent(server.adminSecret)}`);
  await expectVerifyingOnLoad(page);
  release();
  await expect(page).toHaveURL(`${server.url}/admin/emails`);
  await expect(gate(page)).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Manage Emails' })).toBeVisible();
});

test('a session that ended elsewhere shows the gate again, without a sentence', async ({ page }) => {
  await page.goto(`${server.url}/admin/${encodeURIComponent(server.adminSecret)}`);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const cookie = await adminCookie(page);
  const ended = await call(server, 'DELETE', '/api/admin/session', {
    headers: { cookie: `admin_session=${cookie?.value ?? ''}`, origin: server.url },
  });
  expect(ended.status).toBe(200);
  await page.reload();
  await expect(gate(page)).toBeVisible();
  await expect(gate(page).getByRole('alert')).toHaveCount(0);
  await expect(gate(page).getByRole('button', { name: 'Continue' })).toBeDisabled();
});

test('a network failure shows the verification error', async ({ page }) => {
  await page.route(isSessionCall, (route) => (route.request().method() === 'POST' ? route.abort('failed') : route.fallback()));
  await page.goto(`${server.url}/admin`);
  await enterSecret(page, server.adminSecret);
  await expect(gate(page).getByRole('alert')).toHaveText('An error occurred during verification.');
  await expect(gate(page)).toBeVisible();
});

test('the secret can come from the route parameter and leaves the address bar once verified', async ({ page }) => {
  await page.goto(`${server.url}/admin/emails/${encodeURIComponent(server.adminSecret)}`);
  await expect(page).toHaveURL(`${server.url}/admin/emails`);
  await expect(gate(page)).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Manage Emails' })).toBeVisible();
  expect(await savedSecret(page)).toBeNull();
});

test('the dashboard at /admin takes the secret as its route parameter too', async ({ page }) => {
  await page.goto(`${server.url}/admin/${encodeURIComponent(server.adminSecret)}`);
  await expect(page).toHaveURL(`${server.url}/admin`);
  await expect(gate(page)).toBeHidden();
  await expect(page.getByTestId('email-count')).toBeVisible();
});

test('an unknown admin page says it does not exist, with no gate and no secret sent (issue 35)', async ({ page }) => {
  const sessionCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/admin/session')) sessionCalls.push(request.method());
  });
  for (const path of ['/admin/settings', '/admin/settings/users', '/admin/emails/oops']) {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByRole('heading', { name: 'This admin page does not exist.' })).toBeVisible();
    await expect(gate(page)).toHaveCount(0);
  }
  expect(sessionCalls).toEqual([]);
  await page.getByRole('link', { name: 'Go to the admin dashboard' }).click();
  await expect(page).toHaveURL(`${server.url}/admin`);
  await expect(gate(page)).toBeVisible();
});

test('without any secret the emails page asks to authenticate', async ({ page }) => {
  await page.goto(`${server.url}/admin/emails`);
  await expect(gate(page)).toBeVisible();
  await expect(page.getByText('Please authenticate through an admin page with a login prompt.')).toBeVisible();
  // The area behind the gate cannot be reached with the keyboard until a secret is verified.
  await expect(page.locator('[inert]').getByRole('link', { name: 'Manage Emails' })).toHaveCount(1);
  await expect(gate(page).getByLabel('Admin Secret')).toBeFocused();
});

test('the side menu leads to every page; the empty database shows the empty states', async ({ page }) => {
  const dialogs = recordDialogs(page);
  await page.goto(`${server.url}/admin/dashboard/${encodeURIComponent(server.adminSecret)}`);
  const menu = page.getByRole('navigation', { name: 'Admin menu' });
  await expect(menu.getByRole('link')).toHaveText(['Dashboard', 'Recent Events', 'Manage Emails', 'User Feedback', 'Question Sets']);
  await expect(page.getByTestId('email-count')).toHaveText('0');
  await expect(page.getByRole('table')).toHaveCount(0);

  await menu.getByRole('link', { name: 'Recent Events' }).click();
  await expect(page).toHaveURL(`${server.url}/admin/events`);
  await expect(page.getByRole('heading', { name: 'Admin - Recent Events' })).toBeVisible();
  await expect(page.getByRole('columnheader')).toHaveText([
    'ID',
    'User Email',
    'Event Type',
    'Topic',
    'Set Index',
    'Timestamp',
    'Duration (s)',
    'Actions',
  ]);
  await expect(page.getByText('No events yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Download Ratings' }).click();
  await expect.poll(() => dialogs).toEqual(['alert: No ratings to download from the currently displayed data.']);

  await menu.getByRole('link', { name: 'Manage Emails' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Emails' })).toBeVisible();
  await expect(page.getByRole('columnheader')).toHaveText(['Email', 'Plan', 'Limit', 'Used', 'Remaining', 'Actions']);

  await menu.getByRole('link', { name: 'User Feedback' }).click();
  await expect(page.getByRole('heading', { name: 'User Feedback' })).toBeVisible();
  await expect(page.getByText('No feedback found.')).toBeVisible();
  await page.getByRole('button', { name: 'Download CSV' }).click();
  await expect.poll(() => dialogs.length).toBe(2);
  expect(dialogs[1]).toBe('alert: No feedback to download.');

  await menu.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(`${server.url}/admin`);
  await expect(page.getByTestId('email-count')).toHaveText('0');
});

test('the interviewee screen never loads the admin code', async ({ page }) => {
  /** The bodies of the app's own scripts that the page loaded. */
  const collect = () => {
    const bodies: Promise<string>[] = [];
    const listener = (response: Response) => {
      const own = response.url().startsWith(server.url) && response.status() === 200;
      // A preload of the page being left can answer during the next navigation; its body is gone then.
      if (own && response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
    };
    page.on('response', listener);
    return async () => {
      page.off('response', listener);
      return Promise.all(bodies);
    };
  };

  const interviewee = collect();
  await page.goto(`${server.url}/`);
  await page.waitForLoadState('networkidle');
  const bodies = await interviewee();
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) {
    expect(body).not.toContain('Enter Admin Secret');
    expect(body).not.toContain('Please authenticate through an admin page');
  }

  // The admin page does load it, so the check above can fail.
  const adminArea = collect();
  await page.goto(`${server.url}/admin`);
  await expect(gate(page)).toBeVisible();
  expect((await adminArea()).some((body) => body.includes('Enter Admin Secret'))).toBe(true);
});
