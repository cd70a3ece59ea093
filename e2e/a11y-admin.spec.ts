/**
 * Accessibility of the admin area in Debian Chromium against the real server, seeded through the
 * product's own calls: axe-core on the gate, dashboard, events (+ details), emails (+ the inline
 * create row) and feedback (+ details); and keyboard use of the gate, the menu and the dialogs.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { expectFocusTrapped, expectAccessible, tabTo } from './support/a11y';
import { BROWSER_LOCALE, giveFeedback, interview, openAdmin, startAdminServer, type RunningServer } from './support/admin';
import { login } from '../test-support/fixtures';
import { questionSets } from './support/app';

let server: RunningServer;

test.use(BROWSER_LOCALE);

test.beforeAll(async () => {
  server = await startAdminServer();
  const [first] = (await questionSets(server)).sort((a, b) => a.index - b.index);
  if (!first) throw new Error('empty catalogue');
  for (const email of ['ann@example.com', 'ben@example.com']) {
    await login(server, email);
    await interview(
      server,
      email,
      first.id,
      [
        { role: 'interviewer', transcript: 'What is a closure?' },
        { role: 'interviewee', transcript: 'A function that keeps its outer scope alive after the outer function returns.' },
      ],
      75,
    );
    await giveFeedback(server, email, first.name, first.index, `Feedback from ${email}: clear questions and a calm, friendly pace.`);
  }
});
test.afterAll(async () => {
  await server?.stop();
});

const gate = (page: Page) => page.getByRole('dialog', { name: 'Enter Admin Secret' });

test.describe('axe-core: every admin screen and dialog', () => {
  test('gate, empty and with a failed attempt', async ({ page }) => {
    await page.goto(`${server.url}/admin`);
    await expect(gate(page)).toBeVisible();
    await expectAccessible(page, 'admin gate');
    await gate(page).getByLabel('Admin Secret').fill('not-the-secret');
    await gate(page).getByRole('button', { name: 'Continue' }).click();
    await expect(gate(page).getByRole('alert')).toContainText('Authentication failed: ');
    await expectAccessible(page, 'admin gate with an error');
  });

  test('dashboard', async ({ page }) => {
    await openAdmin(page, server, 'dashboard');
    await expect(page.getByRole('table', { name: 'Interviews taken' })).toBeVisible();
    await expectAccessible(page, 'admin dashboard');
  });

  test('events and the details dialog', async ({ page }) => {
    await openAdmin(page, server, 'events');
    await expect(page.getByRole('button', { name: 'Details' }).first()).toBeVisible();
    await expectAccessible(page, 'admin events');
    await page.getByRole('button', { name: 'Details' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Event Details' })).toBeVisible();
    await expectAccessible(page, 'admin event details');
  });

  test('emails and the inline create row', async ({ page }) => {
    await openAdmin(page, server, 'emails');
    await expect(page.getByRole('heading', { name: 'Manage Emails' })).toBeVisible();
    await expect(page.getByText('ann@example.com')).toBeVisible();
    await expectAccessible(page, 'admin emails');
    await page.getByRole('button', { name: 'Create Email' }).click();
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
    await expectAccessible(page, 'admin emails with the create row');
  });

  test('feedback and the details dialog', async ({ page }) => {
    await openAdmin(page, server, 'feedback');
    await expect(page.getByRole('button', { name: 'View Details' }).first()).toBeVisible();
    await expectAccessible(page, 'admin feedback');
    await page.getByRole('button', { name: 'View Details' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Feedback Details' })).toBeVisible();
    await expectAccessible(page, 'admin feedback details');
  });
});

test.describe('keyboard', () => {
  test('gate: focus stays in it, the secret is typed and sent with Enter', async ({ page }) => {
    await page.goto(`${server.url}/admin`);
    const dialog = gate(page);
    await expect(dialog).toBeVisible();
    await expectFocusTrapped(page, dialog);
    await tabTo(page, dialog.getByLabel('Admin Secret'));
    await page.keyboard.type(server.adminSecret);
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });

  test('menu and pages: Tab reaches every menu link and page button; Enter follows them', async ({ page }) => {
    await openAdmin(page, server, 'dashboard');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, page.getByRole('link', { name: 'Recent Events' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Admin - Recent Events' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Download Ratings' }));
    await tabTo(page, page.getByRole('button', { name: 'Details' }).first());

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, page.getByRole('link', { name: 'Manage Emails' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Manage Emails' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Create Email' }));
    await page.keyboard.press('Space');
    const input = page.getByRole('textbox').first();
    await expect(input).toBeFocused();
    await page.keyboard.type('keyboard-made@example.com');
    await tabTo(page, page.getByRole('button', { name: 'Save' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('keyboard-made@example.com')).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Make Pro' }).first());
    await tabTo(page, page.getByRole('button', { name: 'Delete' }).first());
  });

  test('details dialogs: Enter opens, focus stays inside, Escape closes and focus returns', async ({ page }) => {
    for (const [section, button, title] of [
      ['events', 'Details', 'Event Details'],
      ['feedback', 'View Details', 'Feedback Details'],
    ] as const) {
      await openAdmin(page, server, section);
      const opener = page.getByRole('button', { name: button }).first();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await tabTo(page, opener);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: title });
      await expect(dialog).toBeVisible();
      await expectFocusTrapped(page, dialog);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(opener).toBeFocused();
    }
  });
});
