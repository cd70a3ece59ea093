/**
 * The operator's console in Chromium against the real server: credits, a data export and a typed
 * erasure on the emails page, the dashboard charts with their table alternative (axe), and the
 * question-set editor with its live preview, seen by candidates at once.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './support/test';
import { expectAccessible } from './support/a11y';
import { admin, BROWSER_LOCALE, interview, openAdmin, startAdminServer, type RunningServer } from './support/admin';
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
        { role: 'interviewee', transcript: 'A function that keeps its outer scope alive.' },
      ],
      75,
    );
  }
});
test.afterAll(async () => {
  await server?.stop();
});

test('emails: limits and credits, a data export, and an erasure behind a typed confirmation', async ({ page }) => {
  await openAdmin(page, server, 'emails');
  const ann = page.getByRole('row').filter({ hasText: 'ann@example.com' });
  // The free plan's default (the admin test server's FREE_SESSION_LIMIT), one session used.
  await expect(ann.getByRole('cell')).toContainText(['ann@example.com', 'Free', '200', '1', '199']);

  await ann.getByRole('button', { name: 'Credits for ann@example.com' }).click();
  const credits = page.getByRole('dialog', { name: 'Credits for ann@example.com' });
  await credits.getByLabel('Credits to add').fill('10');
  await credits.getByRole('button', { name: 'Add credits' }).click();
  await expect(credits).toBeHidden();
  await expect(ann.getByRole('cell')).toContainText(['ann@example.com', 'Free', '210 (own)', '1', '209']);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    ann.getByRole('button', { name: 'Export data of ann@example.com' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('user-data-ann@example.com.json');
  const data = JSON.parse(await readFile(await download.path(), 'utf8')) as {
    account: { email: string };
    events: Array<{ eventType: string }>;
  };
  expect(data.account.email).toBe('ann@example.com');
  expect(data.events.map((e) => e.eventType)).toEqual(['START', 'RATE']);

  const ben = page.getByRole('row').filter({ hasText: 'ben@example.com' });
  await ben.getByRole('button', { name: 'Erase data of ben@example.com' }).click();
  const erase = page.getByRole('dialog', { name: 'Erase all data of ben@example.com' });
  await expectAccessible(page, 'admin erase dialog');
  const confirm = erase.getByRole('button', { name: 'Erase all data' });
  await expect(confirm).toBeDisabled();
  await erase.getByLabel('Type ben@example.com to confirm').fill('ben@example');
  await expect(confirm).toBeDisabled();
  await erase.getByLabel('Type ben@example.com to confirm').fill('ben@example.com');
  await confirm.click();
  await expect(erase.getByRole('status')).toHaveText('Erased 1 account, 2 events, 0 feedback, 1 session.');
  await erase.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('row').filter({ hasText: 'ben@example.com' })).toHaveCount(0);
  expect((await admin(server, 'GET', '/api/admin/users/ben%40example.com', {}, true)).status).toBe(404);
});

test('dashboard: charts over 7/30/90 days with a table alternative, passing axe', async ({ page }) => {
  await openAdmin(page, server, 'dashboard');
  const charts = page.getByTestId('dashboard-charts');
  await expect(charts.getByRole('img', { name: /^Interviews per day from .*: \d+ started, \d+ rated\.$/ })).toBeVisible();
  await expect(charts.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
  await expectAccessible(page, 'admin dashboard charts');

  await charts.getByRole('button', { name: '7 days' }).click();
  await charts.getByRole('button', { name: 'Show as tables' }).click();
  const perDay = charts.getByRole('table', { name: 'Interviews per day' });
  await expect(perDay.getByRole('row')).toHaveCount(8);
  const today = new Date().toISOString().slice(0, 10);
  // ben's data was erased in the test before, if it ran; at least ann's interview is there.
  await expect(perDay.getByRole('row').last().getByRole('cell').first()).toHaveText(today);
  await expect(charts.getByRole('table', { name: 'Score distribution' }).getByRole('row')).toHaveCount(11);
  await expect(charts.getByRole('table', { name: 'Completion per set' })).toContainText('Set 1 ·');
  await expectAccessible(page, 'admin dashboard tables');
});

test('question sets: edit with a live preview; candidates see the change at once', async ({ page }) => {
  await openAdmin(page, server, 'question-sets');
  const order = page.getByRole('list', { name: 'Tile order' });
  await expect(order.getByRole('button').first()).toContainText('Set 1 ·');
  await order.getByRole('button').first().click();

  const name = page.getByLabel('Topic name');
  await name.fill('Renamed topic');
  const answers = page.getByLabel(/^Model answers/);
  const original = await answers.inputValue();
  await answers.fill(`${original}\n\nAn **extra** line.`);
  await expect(page.getByTestId('model-answers-preview').locator('strong', { hasText: 'extra' })).toBeVisible();
  await expectAccessible(page, 'admin question-set editor');

  await page.getByRole('button', { name: 'Save set' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved "Renamed topic". Candidates see it now.');
  const sets = await questionSets(server);
  expect(sets.find((s) => s.index === 1)?.name).toBe('Renamed topic');

  // The catalogue's rules apply: a question without a model-answer section is refused.
  await page.getByLabel('Questions (one per line)').fill('Only one question?');
  await page.getByRole('button', { name: 'Save set' }).click();
  await expect(page.getByRole('alert')).toContainText('Failed to save the question set: This question set has 1 questions but');
});
