/**
 * Visual regression of the sign-in link screens (SIGNIN=link, issue 34) at 390 and 1280 px wide,
 * compared with the baselines in signin.spec.ts-snapshots/: "Check your email" after asking for a
 * link, and the /signin page of a link that was used or has expired. The server mails through a
 * real SMTP server on loopback; the dialog's countdown is masked (it ticks every second).
 */
import { expect, test } from '../support/test';
import { startAppServer } from '../support/app';
import { expectBothWidths, freezeTimestamps } from '../support/visual';
import type { RunningServer } from '../../test-support/server-process';
import { signinLink, startSmtpInbox, type SmtpInbox } from '../../test-support/smtp-inbox';

let inbox: SmtpInbox;
let server: RunningServer;

test.beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startAppServer({
    SIGNIN: 'link',
    SMTP_URL: inbox.url,
    MAIL_FROM: 'Acme Interview <no-reply@example.com>',
    PUBLIC_URL: 'http://127.0.0.1:9',
  });
});
test.afterAll(async () => {
  await server?.stop();
  await inbox?.close();
});

test.use({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });

test.beforeEach(async ({ page }) => {
  await freezeTimestamps(page);
});

test('"Check your email" after asking for a link, and a used link on /signin', async ({ page }) => {
  const email = 'visual-link@example.com';
  await page.goto(server.url + '/');
  const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const check = page.getByRole('dialog', { name: 'Check your email' });
  await expect(check).toContainText(`We sent a sign-in link to ${email}.`);
  await expectBothWidths(page, 'check-your-email', { mask: [check.getByRole('button', { name: /^Send again/ })] });

  // The link (PUBLIC_URL is an address nobody serves here: its token is opened on this server), spent once, then opened again.
  const token = signinLink((await inbox.next(email, 20_000)).text).split('#')[1] ?? '';
  const spend = await page.request.post(`${server.url}/user/signin`, { data: { token }, headers: { origin: server.url } });
  expect(spend.status()).toBe(200);
  await page.context().clearCookies();
  await page.goto(`${server.url}/signin#${token}`);
  await expect(page.getByRole('alert')).toHaveText('This sign-in link has expired or was already used. Ask for a new one below.');
  await expectBothWidths(page, 'link-used');
});
