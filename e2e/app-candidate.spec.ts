/**
 * The candidate's side on a server whose operator set no support links and small credit limits
 * (docs/product-rules.md, Credits; Login and identity; Screens and routes): interviews left before
 * a start, the out-of-credits dialog that keeps the signed-in email, support shown as not set up,
 * and the unknown-route page. Screenshots of each state at both widths go to test-results/shots/ (looked at by hand).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { WIDTHS, loginAs, setPlan, startAppServer, uniqueEmail, type RunningServer } from './fixtures/app-fixtures';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startAppServer({ SUPPORT_CHAT_URL: '', SUPPORT_CONTACTS: '', FREE_SESSION_LIMIT: '3', PRO_SESSION_LIMIT: '20' });
});
test.afterAll(async () => {
  await server?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/shots/${name}.png`, fullPage: true });

for (const { name, viewport } of WIDTHS) {
  test.describe(`the candidate's side (${name})`, () => {
    test.use({ viewport, locale: 'en-US' });

    test('interviews left are shown before a start; Pro has more; no green dot without support links', async ({ page }) => {
      await loginAs(page, server, uniqueEmail('credits'));
      await page.goto(server.url + '/');
      await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).press('Escape');
      await expect(page.getByTestId('credits')).toHaveText('You have 3 interviews left. Pro accounts get 20 interviews.');
      await expect(page.getByRole('button', { name: 'Live Support' }).locator('span[aria-hidden]')).toHaveCount(0);
      await shot(page, `credits-${name}`);
    });

    test('out of credits: the email dialog keeps the signed-in email, says so plainly and names the operator', async ({ page, consoleErrors }) => {
      consoleErrors.allow(/^Failed to start session: You have run out of tokens\./);
      const email = uniqueEmail('broke');
      await loginAs(page, server, email);
      await setPlan(server, email, { isPro: false, limit: 1 });
      await page.goto(server.url + '/');
      await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
      await expect(page.getByTestId('credits')).toHaveText('You have 1 interview left.');
      await setPlan(server, email, { isPro: false, limit: 0 });
      await page.getByRole('button', { name: 'start session' }).click();
      const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
      await expect(dialog.getByRole('alert')).toHaveText('You have run out of tokens. Please contact the operator of this site to get more credits.');
      await expect(dialog.getByTestId('out-of-credits-account')).toHaveText(`You are still signed in as ${email}, but this account has no interviews left.`);
      await expect(dialog.getByLabel('Email')).toHaveValue(email);
      await expect(dialog.getByRole('button', { name: 'Continue' })).toBeEnabled();
      await shot(page, `out-of-credits-${name}`);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
    });
  });
}
