/**
 * Visual regression of the operator's console (README, "Visual regression tests"): the gate, every
 * admin page, an event's details and the editor with a set open, at 390 and 1280 px wide, compared
 * with the baselines in admin.spec.ts-snapshots/. One server for the file, seeded through the
 * product's own calls; timestamps frozen, the dashboard's charts (drawn around today) masked.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/test';
import { giveFeedback, interview, openAdmin, startAdminServer, type RunningServer } from '../support/admin';
import { login } from '../../test-support/fixtures';
import { expectBothWidths, freezeTimestamps } from '../support/visual';

let server: RunningServer;
let setId: number;

const TRANSCRIPT = [
  { role: 'interviewer' as const, transcript: 'What is the difference between var, let and const in JavaScript?' },
  { role: 'interviewee' as const, transcript: 'var is function scoped, let and const are block scoped, and const cannot be reassigned.' },
];

test.beforeAll(async () => {
  server = await startAdminServer();
  const sets = (await (await fetch(`${server.url}/api/question-sets`)).json()) as Array<{ id: number; index: number }>;
  setId = sets.find((s) => s.index === 1)?.id ?? -1;
  for (const email of ['ann@example.com', 'ben@example.com']) {
    await login(server, email);
    await interview(server, email, setId, TRANSCRIPT, 125);
  }
  await giveFeedback(server, 'ann@example.com', 'JavaScript', 0, 'The questions were clear and the feedback was useful to me.');
});
test.afterAll(async () => {
  await server?.stop();
});

test.use({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });

test.beforeEach(async ({ page }) => {
  await freezeTimestamps(page);
});

const charts = (page: Page) => [page.locator('canvas')];

test('the gate', async ({ page }) => {
  await page.goto(`${server.url}/admin`);
  await expect(page.getByRole('dialog', { name: 'Enter Admin Secret' })).toBeVisible();
  await expectBothWidths(page, 'gate');
});

test('dashboard, events with an event open, emails, feedback', async ({ page }) => {
  await openAdmin(page, server, 'dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('canvas').first()).toBeVisible();
  await expectBothWidths(page, 'dashboard', { fullPage: true, mask: charts(page) });

  // At desktop width the menu stands beside the page, not above it.
  const menu = await page.getByRole('navigation', { name: 'Admin menu' }).boundingBox();
  const main = await page.locator('main').boundingBox();
  expect(menu && main && menu.x + menu.width <= main.x && main.y < 100).toBe(true);
  // Each stylesheet once: a second copy of the first screen's after the app's undid the md: rules.
  const sheets = await page.evaluate(() => [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.getAttribute('href')));
  expect(sheets.length).toBe(new Set(sheets).size);

  await page.getByRole('link', { name: 'Recent Events' }).click();
  await expect(page.getByRole('row')).toHaveCount(5);
  await expectBothWidths(page, 'events', { fullPage: true });
  await page.getByRole('button', { name: 'Details' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Event Details' })).toBeVisible();
  // The whole event is fetched when the dialog opens; the picture is of it loaded.
  await expect(page.getByTestId('detail-rating')).toBeVisible();
  await expectBothWidths(page, 'event-details');
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Manage Emails' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'ann@example.com' }).first()).toBeVisible();
  await expectBothWidths(page, 'emails', { fullPage: true });

  await page.getByRole('link', { name: 'User Feedback' }).click();
  await expect(page.getByText('The questions were clear')).toBeVisible();
  await expectBothWidths(page, 'feedback', { fullPage: true });
});

test('question sets and the editor with a set open', async ({ page }) => {
  await openAdmin(page, server, 'question-sets');
  const order = page.getByRole('list', { name: 'Tile order' });
  await expect(order.getByRole('button').first()).toContainText('Set 1 ·');
  await expectBothWidths(page, 'question-sets', { fullPage: true });
  await order.getByRole('button').first().click();
  await expect(page.getByRole('button', { name: 'Save set' })).toBeVisible();
  await expectBothWidths(page, 'editor', { fullPage: true });
});
