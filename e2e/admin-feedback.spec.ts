/**
 * User Feedback (docs/product-rules.md, Admin area): the list, the 150-character preview, details, delete with
 * confirmation, the CSV export byte for byte, and user text with HTML and a formula shown inertly.
 */
import { type Page, type Route } from '@playwright/test';
import { expect, test } from './support/test';
import {
  admin,
  BROWSER_LOCALE,
  downloadedText,
  giveFeedback,
  openAdmin,
  quoted,
  recordDialogs,
  shownDateTime,
  startAdminServer,
  type RunningServer,
} from './support/admin';
import { login } from '../test-support/fixtures';

interface ApiFeedback {
  id: number;
  user: { email: string } | null;
  topic: string;
  questionIndex: number;
  feedback: string;
  createdAt: string;
}

/** HTML and a spreadsheet formula, longer than the 150-character preview. */
const HOSTILE =
  '=HYPERLINK("http://evil.example","Click me"), <img src=x onerror="window.__pwned=1"><b>bold</b> ' +
  'The second question was great, but the follow-up on closures came too fast for me to think it through properly.';
const PLAIN = 'A really helpful session, thanks for the clear questions.';
const ORPHAN = '@mention and a line\nbreak from someone who later left.';

let server: RunningServer;
let stored: ApiFeedback[];

test.use(BROWSER_LOCALE);
test.beforeAll(async () => {
  server = await startAdminServer();
  await login(server, 'alice@example.com');
  await login(server, 'bob@example.com');
  await login(server, 'leaver@example.com');
  await giveFeedback(server, 'alice@example.com', 'JavaScript', 1, HOSTILE);
  await giveFeedback(server, 'bob@example.com', 'Behavioural', 6, PLAIN);
  await giveFeedback(server, 'leaver@example.com', 'React', 3, ORPHAN);
  // The account goes; its feedback stays.
  await admin(server, 'DELETE', `/api/emails/${encodeURIComponent('leaver@example.com')}`);
  stored = (await admin(server, 'GET', '/api/feedback')).body as ApiFeedback[];
});
test.afterAll(async () => {
  await server?.stop();
});

const rows = (page: Page) => page.getByTestId('feedback-row');
const byText = (text: string) => stored.find((item) => item.feedback === text)!;
const rowOf = (page: Page, id: number) => rows(page).filter({ hasText: `#${id}` });

test('the list shows the total and each row with its fields and a 150-character preview', async ({ page }) => {
  expect(stored).toHaveLength(3);
  expect(HOSTILE.length).toBeGreaterThan(150);
  await openAdmin(page, server, 'feedback');
  await expect(page.getByRole('heading', { name: 'User Feedback' })).toBeVisible();
  await expect(page.getByTestId('feedback-total')).toHaveText('Total feedback: 3');
  await expect(rows(page)).toHaveCount(3);

  const hostile = byText(HOSTILE);
  const row = rowOf(page, hostile.id);
  await expect(row.locator('span')).toHaveText([
    `#${hostile.id}`,
    'alice@example.com',
    'JavaScript',
    'Q1',
    shownDateTime(hostile.createdAt),
  ]);
  await expect(row.getByTestId('feedback-preview')).toHaveText(`${HOSTILE.slice(0, 150)}...`);
  await expect(rowOf(page, byText(PLAIN).id).getByTestId('feedback-preview')).toHaveText(PLAIN);

  // Inert: the markup is visible as text, no element was made from it, nothing ran.
  await expect(page.locator('main img')).toHaveCount(0);
  await expect(page.locator('main b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('feedback without a user shows Unknown User', async ({ page }) => {
  // The contract allows `user: null`; the real server keeps the email, so this answer is edited in flight.
  const orphan = byText(ORPHAN);
  await page.route(
    (url) => url.pathname === '/api/feedback',
    async (route) => {
      const response = await route.fetch();
      const items = ((await response.json()) as ApiFeedback[]).map((item) => (item.id === orphan.id ? { ...item, user: null } : item));
      await route.fulfill({ response, json: items });
    },
  );
  await openAdmin(page, server, 'feedback');
  await expect(rowOf(page, orphan.id).locator('span')).toHaveText([
    `#${orphan.id}`,
    'Unknown User',
    'React',
    'Q3',
    shownDateTime(orphan.createdAt),
  ]);
  await expect(rowOf(page, orphan.id).getByTestId('feedback-preview')).toHaveText(ORPHAN);
  await rowOf(page, orphan.id).getByRole('button', { name: 'View Details' }).click();
  await expect(page.getByRole('dialog', { name: 'Feedback Details' })).toContainText('Unknown User');
});

test('View Details shows the whole text as text', async ({ page }) => {
  await openAdmin(page, server, 'feedback');
  const hostile = byText(HOSTILE);
  await rowOf(page, hostile.id).getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Feedback Details' });
  await expect(dialog.getByTestId('feedback-full')).toHaveText(HOSTILE);
  await expect(dialog.locator('img, b')).toHaveCount(0);
  await expect(dialog).toContainText('alice@example.com');
  await expect(dialog).toContainText('Q1');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
});

test('Download CSV writes feedback_data_{date}.csv byte for byte with formulas neutralised', async ({ page }) => {
  await openAdmin(page, server, 'feedback');
  await expect(rows(page)).toHaveCount(3);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  // The browser runs in UTC (BROWSER_LOCALE), so its calendar date is the UTC one.
  expect(download.suggestedFilename()).toBe(`feedback_data_${new Date().toISOString().slice(0, 10)}.csv`);

  const cell: Record<string, string> = {
    [HOSTILE]: quoted(`'${HOSTILE}`),
    [PLAIN]: quoted(PLAIN),
    [ORPHAN]: quoted(`'${ORPHAN}`),
  };
  const expected =
    'ID,User Email,Topic,Set Number Q (as candidates see it),Feedback,Created At\r\n' +
    stored
      .map(
        (item) => `${item.id},${item.user?.email ?? ''},${item.topic},${item.questionIndex},${cell[item.feedback]},${item.createdAt}\r\n`,
      )
      .join('');
  const text = await downloadedText(download);
  expect(text).toBe(expected);
  expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""Click me""), <img`);
});

test('Delete asks with the exact text; dismissing keeps it, accepting removes it', async ({ page }) => {
  const plain = byText(PLAIN);
  await openAdmin(page, server, 'feedback');
  // The app's dialog, not the browser's confirm(): it says what goes.
  const native = recordDialogs(page);
  await rowOf(page, plain.id).getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete feedback' });
  await expect(dialog).toContainText('Are you sure you want to delete this feedback? This action cannot be undone.');
  await expect(dialog).toContainText(`This removes feedback #${plain.id} only.`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows(page)).toHaveCount(3);

  await rowOf(page, plain.id).getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete feedback' }).click();
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByTestId('feedback-total')).toHaveText('Total feedback: 2');
  expect(native).toEqual([]);
  const left = (await admin(server, 'GET', '/api/feedback')).body as ApiFeedback[];
  expect(left.map((item) => item.id)).not.toContain(plain.id);
});

test('failures show the documented texts', async ({ page }) => {
  recordDialogs(page);
  const json = (status: number, body: unknown) => (route: Route) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const isList = (url: URL) => url.pathname === '/api/feedback';
  await page.route(isList, json(500, { error: 'The database is unavailable.' }));
  await openAdmin(page, server, 'feedback');
  await expect(page.getByRole('alert')).toHaveText('Failed to fetch feedback: The database is unavailable.');
  await expect(page.getByText('No feedback found.')).toHaveCount(0);
  await page.unroute(isList);
  await page.route(isList, (route) => route.abort('failed'));
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText('An error occurred while fetching feedback.');
  await page.unroute(isList);
  await page.reload();
  await expect(page.getByRole('alert')).toHaveCount(0);

  const hostile = byText(HOSTILE);
  const isDelete = (url: URL) => url.pathname === `/api/feedback/${hostile.id}`;
  await page.route(isDelete, json(500, { error: 'Deleting is switched off.' }));
  const confirmDelete = () =>
    page.getByRole('dialog', { name: 'Delete feedback' }).getByRole('button', { name: 'Delete feedback' }).click();
  await rowOf(page, hostile.id).getByRole('button', { name: 'Delete' }).click();
  await confirmDelete();
  await expect(page.getByRole('alert')).toHaveText('Failed to delete feedback: Deleting is switched off.');
  await page.unroute(isDelete);
  await page.route(isDelete, (route) => route.abort('failed'));
  await rowOf(page, hostile.id).getByRole('button', { name: 'Delete' }).click();
  await confirmDelete();
  await expect(page.getByRole('alert')).toHaveText('An error occurred while deleting feedback.');
  await expect(rowOf(page, hostile.id)).toHaveCount(1);
});
