import { expect, test } from './support/test';
import {
  CHAT_URL,
  FOUNDERS,
  PRODUCT,
  WIDTHS,
  loginAs,
  questionSets,
  scriptRequests,
  startAppServer,
  uniqueEmail,
  type RunningServer,
  BEHAVIOUR_WIDTH,
} from './support/app';
import { call } from '../test-support/fixtures';

// The dialog's sentence (copied: the web module needs Vite's import.meta.env to load).
const INVALID_EMAIL = 'Please enter a valid email address, like you@example.com.';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startAppServer();
});
test.afterAll(async () => {
  await server?.stop();
});

const STEPS = [
  'The interviewer asks one question at a time.',
  'Answer as you would in a real interview: think aloud and give examples.',
  'Follow-up questions may come when an answer needs more depth.',
  'You get written feedback on your answers at the end.',
  'Press Start Session to begin. Your microphone is used so the interviewer can hear you.',
  'Press Stop Session when you are done to get your feedback.',
];

for (const { name, viewport } of WIDTHS) {
  test.describe(`login and main screen (${name})`, () => {
    test.use({ viewport, locale: 'en-US' });

    test('a visitor sees only the email dialog; a valid email logs a new user in and opens Welcome', async ({ page }) => {
      await page.goto(server.url + '/');
      const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
      await expect(dialog).toBeVisible();
      await expect(page.getByRole('link', { name: `${PRODUCT} Feedback` })).toHaveAttribute('href', '/');
      await expect(page.getByRole('link', { name: 'History' })).toHaveCount(0);

      const email = dialog.getByLabel('Email');
      const continueButton = dialog.getByRole('button', { name: 'Continue' });
      await expect(email).toBeFocused();
      await expect(continueButton).toBeDisabled();
      for (const bad of ['not-an-email', 'a b@example.com', 'x@y', '@example.com']) {
        await email.fill(bad);
        await expect(continueButton).toBeDisabled();
        await email.press('Enter'); // submit does nothing
        await expect(dialog).toBeVisible();
      }
      // Once the field loses focus, the reason is said under it (not only a grey Continue).
      await expect(dialog.getByText(INVALID_EMAIL)).toHaveCount(0);
      await email.blur();
      await expect(dialog.getByText(INVALID_EMAIL)).toBeVisible();
      await expect(email).toHaveAccessibleDescription(INVALID_EMAIL);
      // Spaces around the address are trimmed, as the server trims them (phone keyboards add one).
      for (const spaced of [' lead@example.com', 'trail@example.com ']) {
        await email.fill(spaced);
        await expect(continueButton).toBeEnabled();
      }
      // A visitor cannot dismiss it.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeVisible();

      const address = uniqueEmail('new');
      await email.fill(`${address} `);
      await expect(continueButton).toBeEnabled();
      await email.press('Enter');

      const welcome = page.getByRole('dialog', { name: `Welcome to ${PRODUCT} Feedback!` });
      await expect(welcome).toBeVisible();
      for (const step of STEPS) await expect(welcome.getByText(step, { exact: true })).toBeVisible();
      await expect(dialog).toHaveCount(0);
      expect(await page.evaluate(() => window.localStorage.getItem('userEmail'))).toBe(address);
      await welcome.getByRole('button', { name: 'Got it!' }).click();
      await expect(welcome).toHaveCount(0);

      // Logged in: the history button appears; the body shows the empty state.
      await expect(page.getByRole('link', { name: 'History' })).toHaveAttribute('href', '/history');
      await expect(page.getByRole('heading', { name: 'Previous Messages' })).toBeVisible();
      await expect(page.getByText('Messages from your session will appear here.')).toBeVisible();
      await expect(page.getByTestId('status-indicator')).toHaveText('Not Connected');
      await expect(page.getByRole('button', { name: 'start session' })).toBeEnabled();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      await page.getByRole('button', { name: 'How does it work?' }).click();
      await expect(welcome).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(welcome).toHaveCount(0);
    });

    // Behaviour the layout does not change: checked at one width (BEHAVIOUR_WIDTH, e2e/support/app.ts).
    if (name === BEHAVIOUR_WIDTH) {
      test('a stored email logs in by itself and a returning user gets the topic list sorted by index', async ({ page }) => {
        const address = uniqueEmail('back');
        await loginAs(page, server, address);
        await page.goto(server.url + '/');
        const topics = page.getByRole('dialog', { name: 'Choose an Interview Topic' });
        await expect(topics).toBeVisible();
        await expect(page.getByRole('dialog', { name: 'Enter your email to continue' })).toHaveCount(0);
        const sets = await questionSets(server);
        const tiles = topics.locator('[data-testid^="tile-"]');
        await expect(tiles).toHaveCount(sets.length);
        const shown = await tiles.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid')));
        expect(shown).toEqual([...sets].sort((a, b) => a.index - b.index).map((s) => `tile-${s.index}`));
        await page.keyboard.press('Escape');
        await expect(topics).toHaveCount(0);
        await expect(page.getByRole('link', { name: 'History' })).toBeVisible();
      });

      test('a failed login removes the stored email and shows the server error', async ({ page }) => {
        // The real server refuses an address that is not an email; the dialog shows its error text.
        const refused = await call<{ error: string }>(server, 'POST', '/user/login', { body: { email: 'not an email' } });
        expect(refused.status).toBe(400);
        await page.addInitScript(() => window.localStorage.setItem('userEmail', 'not an email'));
        await page.goto(server.url + '/');
        const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
        await expect(dialog.getByRole('alert')).toHaveText(`Login failed: ${refused.body.error}`);
        expect(await page.evaluate(() => window.localStorage.getItem('userEmail'))).toBeNull();
      });

      test('a server error without a body shows the status text; a network failure the generic text', async ({ page, consoleErrors }) => {
        consoleErrors.allow(/^Login failed: /);
        let mode: 'status' | 'abort' = 'status';
        await page.route('**/user/login', (route) =>
          mode === 'status' ? route.fulfill({ status: 503, body: '' }) : route.abort('connectionrefused'),
        );
        await page.goto(server.url + '/');
        const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
        await dialog.getByLabel('Email').fill(uniqueEmail('down'));
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await expect(dialog.getByRole('alert')).toHaveText('Login failed: Service Unavailable');
        mode = 'abort';
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await expect(dialog.getByRole('alert')).toHaveText('An error occurred during login.');
        expect(await page.evaluate(() => window.localStorage.getItem('userEmail'))).toBeNull();
      });

      test('Live Support opens "Need some help?" with the chat group and both founders; focus stays inside', async ({ page }) => {
        await loginAs(page, server, uniqueEmail('help'));
        await page.goto(server.url + '/');
        await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).press('Escape');
        const opener = page.getByRole('button', { name: 'Live Support' });
        // Support is configured here: the green dot says someone can be reached.
        await expect(opener.locator('span[aria-hidden]')).toBeVisible();
        await opener.click();
        const help = page.getByRole('dialog', { name: 'Need some help?' });
        await expect(help).toBeVisible();
        await expect(help.getByRole('link', { name: 'Join our chat group' })).toHaveAttribute('href', CHAT_URL);
        for (const founder of FOUNDERS)
          await expect(help.getByRole('link', { name: `Contact ${founder.name}` })).toHaveAttribute('href', founder.url);

        // Tab and Shift+Tab wrap around inside the dialog.
        for (let i = 0; i < 8; i++) {
          await page.keyboard.press('Tab');
          expect(await help.evaluate((node) => node.contains(document.activeElement))).toBe(true);
        }
        for (let i = 0; i < 8; i++) {
          await page.keyboard.press('Shift+Tab');
          expect(await help.evaluate((node) => node.contains(document.activeElement))).toBe(true);
        }
        await help.getByRole('button', { name: 'Got it!' }).click();
        await expect(help).toHaveCount(0);
        await expect(opener).toBeFocused();
        await opener.press('Enter');
        await expect(help).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(help).toHaveCount(0);
      });
    }
  });
}

test('the first screen loads neither admin nor Markdown code; the admin area loads on demand', async ({ page }) => {
  const scripts = scriptRequests(page);
  await loginAs(page, server, uniqueEmail('chunks'));
  await page.goto(server.url + '/');
  await expect(page.getByRole('dialog', { name: 'Choose an Interview Topic' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => /markdown|routes|admin|transport/i.test(s))).toEqual([]);

  await page.goto(server.url + '/admin');
  await page.waitForLoadState('networkidle');
  expect(scripts.some((s) => /admin-layout-/.test(s))).toBe(true);
});

test('an unknown route shows the router fallback, answered with HTTP 404', async ({ page }) => {
  const response = await page.goto(server.url + '/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByText('404 Not Found')).toBeVisible();
});
