/**
 * A voice mode with the microphone refused (real Chromium launched without the flag that accepts
 * media prompts, so the headless prompt is refused): the app shows the sentence, calls nothing
 * that spends a credit, and the one credit is still there. The speech servers are never reached:
 * their addresses point at a closed port.
 */
import { chromiumArgs } from '../playwright.config';
import { questionSets, setPlan, uniqueEmail } from './support/app';
import { startServer, type RunningServer } from '../test-support/server-process';
import { expect, test } from './support/test';
import { login } from '../test-support/fixtures';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs.filter((arg) => arg !== '--use-fake-ui-for-media-stream'),
  },
});

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({
    env: {
      VOICE_MODE: 'pipeline',
      STT_BASE_URL: 'http://127.0.0.1:9/v1',
      STT_MODEL: 'whisper-small',
      TTS_BASE_URL: 'http://127.0.0.1:9/v1',
      TTS_MODEL: 'kokoro',
      TTS_VOICE: 'af_heart',
    },
  });
});
test.afterAll(async () => {
  await server?.stop();
});

test('microphone refused: the sentence near the button, no token minted, the credit kept', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/^Failed to start session: Microphone access was blocked/);
  const email = uniqueEmail('mic-denied');
  await login(server, email);
  await setPlan(server, email, { isPro: false, limit: 1 });
  await page.addInitScript((value) => window.localStorage.setItem('userEmail', value), email);
  const minted: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/interview/token')) minted.push(request.url());
  });

  await page.goto(server.url + '/');
  await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByTestId('start-error')).toHaveText(
    "Microphone access was blocked. Allow it in your browser's site settings and try again.",
  );
  await expect(page.getByRole('button', { name: 'start session' })).toBeEnabled();
  expect(minted).toEqual([]);
  // The one credit is unspent: the account can still mint a session.
  const set = (await questionSets(server)).find((s) => s.index === 1);
  const token = await fetch(`${server.url}/interview/token?questionSetId=${set?.id}`, { headers: { 'x-user-email': email } });
  expect(token.status).toBe(200);
});
