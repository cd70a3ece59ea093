/**
 * A session that yields nothing costs nothing (browser-speech mode, real server and Chromium):
 * disconnecting before answering shows the 422 sentence and the credit is back; a start that fails
 * after the token was minted calls abandon, says so near the button, and the credit is back.
 * Each account has exactly one credit, so a second start succeeding proves the refund.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import {
  controllableSpeech,
  finishSpeech,
  loginAs,
  questionSets,
  routeDogApi,
  setPlan,
  startAppServer,
  uniqueEmail,
  type RunningServer,
} from './support/app';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startAppServer();
});
test.afterAll(async () => {
  await server?.stop();
});

async function ready(page: Page, prefix: string): Promise<string> {
  const email = uniqueEmail(prefix);
  await controllableSpeech(page, 'none');
  await loginAs(page, server, email);
  await setPlan(server, email, { isPro: false, limit: 1 });
  await page.goto(server.url + '/');
  await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
  return email;
}

test('disconnect before answering: the 422 sentence, and the credit is back', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/^Error submitting transcript for rating/);
  await routeDogApi(page, 'fail');
  const email = await ready(page, 'silent');
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
  await finishSpeech(page);
  await page.getByRole('button', { name: 'disconnect' }).click();
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay.getByRole('alert')).toHaveText(
    'Error: No answers were recorded in this session, so there is nothing to rate. Your session credit was returned.',
  );
  // The one credit came back: the account can mint a session again.
  const set = (await questionSets(server)).find((s) => s.index === 1);
  const again = await fetch(`${server.url}/interview/token?questionSetId=${set?.id}`, { headers: { 'x-user-email': email } });
  expect(again.status).toBe(200);
});

test('a start that fails after minting calls abandon, says so near the button, and the credit is back', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/^Failed to start session:|turn|interviewer/i);
  await ready(page, 'failed-start');
  const abandoned: string[] = [];
  page.on('request', (request) => {
    if (/\/interview\/sessions\/[^/]+\/abandon$/.test(request.url())) abandoned.push(request.url());
  });
  // The interviewer's first line never arrives: the start fails after the token was minted.
  await page.route('**/interview/turn', (route) => route.abort('connectionreset'));
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByTestId('start-error')).toHaveText(
    'The voice connection could not be started. Your session credit was returned. Please try again.',
  );
  await expect(page.getByTestId('start-error')).toHaveAttribute('aria-live', 'polite');
  expect(abandoned).toHaveLength(1);
  await page.unroute('**/interview/turn');
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
  await expect(page.getByTestId('start-error')).toHaveText('');
});
