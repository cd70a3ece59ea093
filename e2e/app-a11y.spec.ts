import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { WIDTHS, completeSet, loginAs, questionSets, startAppServer, uniqueEmail, type RunningServer } from './fixtures/app-fixtures';

let server: RunningServer;
const veteran = uniqueEmail('a11y');
test.beforeAll(async () => {
  server = await startAppServer();
  const login = await fetch(`${server.url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: veteran }),
  });
  expect(login.status).toBe(200);
  const first = (await questionSets(server)).find((s) => s.index === 1);
  if (!first) throw new Error('no set 1');
  await completeSet(server, veteran, first.id, 'Closures keep variables of the outer scope alive after it returns.');
});
test.afterAll(async () => {
  await server?.stop();
});

async function audit(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const found = results.violations.map((v) => `${what}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(found).toEqual([]);
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`accessibility audit (${name})`, () => {
    test.use({ viewport });

    test('email dialog, welcome, main screen, topic list, support', async ({ page }) => {
      await page.goto(server.url + '/');
      await expect(page.getByRole('dialog', { name: 'Enter your email to continue' })).toBeVisible();
      await audit(page, 'email dialog');
      await page.getByRole('textbox', { name: 'Email' }).fill(uniqueEmail('axe'));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: /^Welcome to / })).toBeVisible();
      await audit(page, 'welcome');
      await page.getByRole('button', { name: 'Got it!' }).click();
      await audit(page, 'main screen');
      await page.getByRole('button', { name: 'Choose a topic' }).click();
      await expect(page.getByRole('dialog', { name: 'Choose an Interview Topic' })).toBeVisible();
      await audit(page, 'topic list');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Live Support' }).click();
      await audit(page, 'support');
    });

    test('history, its overlay, and the tile test page', async ({ page }) => {
      await loginAs(page, server, veteran);
      await page.goto(server.url + '/history');
      await expect(page.getByTestId('history-card')).toHaveCount(1);
      await audit(page, 'history');
      await page.getByTestId('history-card').click();
      await expect(page.getByRole('dialog', { name: 'Session Feedback' }).getByRole('button', { name: 'Continue' })).toBeVisible();
      await audit(page, 'history overlay');
      await page.goto(server.url + '/test/question-set-item');
      await expect(page.getByRole('heading', { name: 'Free user' })).toBeVisible();
      await audit(page, 'tile test page');
    });
  });
}
