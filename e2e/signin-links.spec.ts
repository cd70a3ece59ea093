/**
 * SIGNIN=link end to end (issue 34; docs/decisions/026-sign-in-links.md): the real server mails
 * its sign-in links through a real SMTP server on loopback (test-support/smtp-inbox.ts), and
 * Debian's Chromium does what a person does: enters the email, opens the link from the mail that
 * arrived, is signed in on the main screen, types a whole interview, reads the feedback and finds
 * it in History. A second browser that knows the email but never opened a link sees none of it,
 * and the API answers an email alone with 401.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { WIDTHS, startAppServer, uniqueEmail, type RunningServer } from './support/app';
import { openAdmin } from './support/admin';
import { freePort } from './support/haproxy';
import { firstSetWithStrongAnswers, withoutSpeechRecognition, type SetInfo } from './support/strong-answers';
import { CLOSING_DONE } from '../server/providers/interviewer/scripted-interviewer-lines';
import { speakable } from '../server/providers/interviewer/speakable';
import { SIGN_IN_FIRST } from '../server/services/auth-sessions';
import { MAIL_NOT_SENT } from '../server/services/signin-links';
import { call } from '../test-support/fixtures';
import { signinLink, startSmtpInbox, type SmtpInbox } from '../test-support/smtp-inbox';

let inbox: SmtpInbox;
let server: RunningServer;
let jsSet: SetInfo;
let answers: string[];

test.beforeAll(async () => {
  inbox = await startSmtpInbox();
  // The links point at PUBLIC_URL, so the server listens on a port known before it starts.
  const port = await freePort();
  server = await startAppServer({
    PORT: String(port),
    SIGNIN: 'link',
    SMTP_URL: inbox.url,
    MAIL_FROM: 'Acme Interview <no-reply@example.com>',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  ({ set: jsSet, answers } = await firstSetWithStrongAnswers(server));
});
test.afterAll(async () => {
  await server?.stop();
  await inbox?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/shots/signin-${name}.png`, fullPage: true });

/** The email dialog of a browser nobody signed in: asks for a link, and says "Check your email". */
async function askForLink(page: Page, email: string): Promise<void> {
  await page.goto(server.url + '/');
  const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const check = page.getByRole('dialog', { name: 'Check your email' });
  await expect(check).toContainText(`We sent a sign-in link to ${email}.`);
  await expect(check.getByRole('button', { name: /^Send again in \d+ s$/ })).toBeDisabled();
}

const latestCard = (page: Page) => page.getByTestId('message-card').last();

/** Answers every question of set 1 by typing until the interviewer closes; then the feedback overlay. */
async function typedInterview(page: Page): Promise<void> {
  await page.getByTestId(`tile-${jsSet.index}`).click();
  await expect(page.getByTestId('topic-heading')).toHaveText(jsSet.name);
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(latestCard(page)).toContainText(jsSet.questions[0] ?? '<no question>');
  const box = page.getByLabel('Type your answer');
  let current = 0;
  // Each question once plus at most one follow-up each: bounded by the interviewer's rules.
  for (let turn = 0; turn < jsSet.questions.length * 2; turn++) {
    const line = (await latestCard(page).textContent()) ?? '';
    if (line.includes(CLOSING_DONE)) break;
    const asked = jsSet.questions.findIndex((q) => line.includes(speakable(q)));
    current = asked < 0 ? current : asked;
    await box.fill(answers[current] ?? '');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(box).toHaveValue('');
    await expect(latestCard(page)).not.toHaveText(line);
  }
  await expect(latestCard(page)).toContainText(CLOSING_DONE);
  const overlay = page.getByTestId('results-overlay');
  await expect(overlay.getByRole('heading', { name: `Interview feedback: ${jsSet.name}` })).toBeVisible({ timeout: 30_000 });
  await expect(overlay.getByText(/^Score: \d+\/100$/)).toBeVisible();
}

/** A browser of its own (no cookies, no local storage shared with the first). */
async function strangerPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  return context.newPage();
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`sign-in links (${name})`, () => {
    test.use({ viewport, locale: 'en-US' });

    test('the email asks for a link; the mailed link signs this browser in; an interview ends in History; a second browser with the email alone sees nothing', async ({
      page,
      browser,
    }) => {
      const email = uniqueEmail(`link-${name}`);
      await withoutSpeechRecognition(page);
      await askForLink(page, email);
      await shot(page, `check-email-${name}`);

      // The mail went through the real SMTP server; its link opens the app's /signin page.
      const mail = await inbox.next(email, 20_000);
      expect(mail.from).toBe('no-reply@example.com');
      const link = signinLink(mail.text);
      expect(link.startsWith(`${server.url}/signin#`)).toBe(true);
      await page.goto(link);
      // Signed in: the main screen, with the topics of a signed-in person and Sign out in the top bar.
      await expect(page).toHaveURL(`${server.url}/`);
      const topics = page.getByRole('dialog', { name: /Choose an Interview Topic|Welcome/ });
      await expect(topics).toBeVisible();
      if (await page.getByRole('dialog', { name: /Welcome/ }).isVisible()) await page.keyboard.press('Escape');
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      const cookies = await page.context().cookies();
      const session = cookies.find((c) => c.name === 'signin_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });
      await shot(page, `signed-in-${name}`);

      if (!(await page.getByTestId(`tile-${jsSet.index}`).isVisible())) await page.goto(server.url + '/');
      await typedInterview(page);
      await shot(page, `feedback-${name}`);
      // Continue reloads the main screen (docs/product-rules.md, Results and history), which opens the topics again.
      await Promise.all([page.waitForEvent('load'), page.getByTestId('results-overlay').getByRole('button', { name: 'Continue' }).click()]);
      await shot(page, `after-continue-${name}`);
      const again = page.getByRole('dialog', { name: 'Choose an Interview Topic' });
      await expect(again).toBeVisible();
      await again.press('Escape');
      await page.getByRole('link', { name: 'History' }).click();
      await expect(page).toHaveURL(`${server.url}/history`);
      const cards = page.getByTestId('history-card');
      await expect(cards).toHaveCount(1);
      await expect(cards.first()).toContainText(jsSet.name);
      await shot(page, `history-${name}`);

      // A link spent once does not sign in again: it says so and offers a new one.
      const reused = await strangerPage(browser, viewport);
      await reused.goto(link);
      await expect(reused.getByRole('alert')).toHaveText('This sign-in link has expired or was already used. Ask for a new one below.');
      await expect(reused.getByRole('link', { name: 'Send a new link' })).toBeVisible();
      await reused.context().close();

      // Someone who knows the email but cannot read the mailbox: asks for a link, never opens it.
      const stranger = await strangerPage(browser, viewport);
      await stranger.addInitScript((value) => window.localStorage.setItem('userEmail', value), email);
      await askForLink(stranger, email);
      await stranger.goto(server.url + '/history');
      await expect(stranger.getByRole('alert')).toHaveText(`Failed to fetch history: ${SIGN_IN_FIRST}`);
      await expect(stranger.getByTestId('history-card')).toHaveCount(0);
      await expect(stranger.getByText(jsSet.name)).toHaveCount(0);
      await stranger.context().close();

      // The API with the email alone: 401 and a sentence, no interviews.
      for (const path of ['/user/ratings?page=1&limit=9', '/user/progress']) {
        const answer = await call(server, 'GET', path, { headers: { 'x-user-email': email } });
        expect(answer, path).toMatchObject({ status: 401, body: { error: SIGN_IN_FIRST } });
      }
    });
  });
}

test('the operator signs an email out everywhere from Manage Emails: asked first, told how many sessions ended, and that browser must open a new link', async ({
  page,
  browser,
  consoleErrors,
}) => {
  // History's progress panel logs its 401 once the session has ended; the page itself says it.
  consoleErrors.allow(/^Could not load your progress: 401 /);
  const email = uniqueEmail('everywhere');
  await page.setViewportSize({ width: 1280, height: 800 });
  await askForLink(page, email);
  await page.goto(signinLink((await inbox.next(email, 20_000)).text));
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  const operator = await strangerPage(browser, { width: 1280, height: 800 });
  await openAdmin(operator, server, 'emails');
  await operator.getByRole('button', { name: `Sign ${email} out everywhere` }).click();
  const confirm = operator.getByRole('dialog', { name: 'Sign out everywhere' });
  await expect(confirm).toContainText(`Sign ${email} out of every browser?`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  // Cancelled: still signed in.
  await page.goto(server.url + '/history');
  await expect(page.getByRole('heading', { name: 'No Interview History' })).toBeVisible();

  await operator.getByRole('button', { name: `Sign ${email} out everywhere` }).click();
  await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(operator.getByRole('status')).toHaveText(`Signed ${email} out everywhere: 1 session ended.`);
  await operator.context().close();

  await page.reload();
  await expect(page.getByRole('alert')).toHaveText(`Failed to fetch history: ${SIGN_IN_FIRST}`);
});

test('a link the mail server could not send: the dialog says so and stays on the email, and a dropped call says the server did not answer', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/^Asking for a sign-in link failed: /);
  // The server's answer when its SMTP server is down or refuses (tested over HTTP against a real
  // refusing SMTP server in server/tests/signin-links.test.ts); here only what the dialog shows.
  const linkCall = (url: URL) => url.pathname === '/user/signin-link';
  await page.route(linkCall, (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: MAIL_NOT_SENT }) }),
  );
  await page.goto(server.url + '/');
  const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
  await dialog.getByLabel('Email').fill(uniqueEmail('mail-down'));
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(MAIL_NOT_SENT);
  await expect(page.getByRole('dialog', { name: 'Check your email' })).toBeHidden();

  await page.unroute(linkCall);
  await page.route(linkCall, (route) => route.abort('failed'));
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The sign-in link could not be sent: the server did not answer.');
});
