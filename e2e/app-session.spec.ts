import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import {
  FOUNDERS,
  WIDTHS,
  controllableSpeech,
  finishSpeech,
  hearSpoken,
  recordWakeLock,
  wakeLog,
  loginAs,
  questionSets,
  routeDogApi,
  setPlan,
  startAppServer,
  uniqueEmail,
  type RunningServer,
  type SetInfo,
  BEHAVIOUR_WIDTH,
} from './support/app';

const TEA = "go grab a cup of tea, we're brewing your results. it should be ready in 1 to 2 minutes";

let server: RunningServer;
let first: SetInfo;
test.beforeAll(async () => {
  server = await startAppServer();
  const sets = await questionSets(server);
  const set = sets.find((s) => s.index === 1);
  if (!set) throw new Error('The catalogue has no set 1');
  first = set;
});
test.afterAll(async () => {
  await server?.stop();
});

/** Logged in, set 1 selected, on the main screen. */
async function ready(page: Page, email = uniqueEmail('session'), recognition: 'none' | 'interim' | 'spoken' = 'none'): Promise<string> {
  await controllableSpeech(page, recognition);
  await loginAs(page, server, email);
  await page.goto(server.url + '/');
  const topics = page.getByRole('dialog', { name: 'Choose an Interview Topic' });
  await topics.getByTestId('tile-1').click();
  await expect(page.getByTestId('topic-heading')).toHaveText(first.name);
  return email;
}

/** Wholly on screen, between the top of the viewport and the fixed bottom panel. */
async function expectAboveBottomPanel(page: Page, item: Locator): Promise<void> {
  const box = await item.boundingBox();
  const panel = await page.locator('[data-bottom-panel]').boundingBox();
  expect(box && panel, 'the item and the bottom panel are laid out').toBeTruthy();
  if (!box || !panel) return;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(panel.y);
}

async function startSession(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`session (${name})`, () => {
    test.use({ viewport });

    test('a whole session: cards, indicator, typed answers, disconnect, tea, dog, feedback, model answers, Continue', async ({ page }) => {
      await routeDogApi(page);
      await ready(page);
      const ratePayloads: unknown[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/interview/rate-transcript')) ratePayloads.push(request.postDataJSON());
      });
      // Hold the token answer so the starting state can be seen.
      let releaseToken: () => void = () => {};
      const held = new Promise<void>((resolve) => (releaseToken = resolve));
      await page.route('**/interview/token*', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'start session' }).click();
      const starting = page.getByRole('button', { name: 'starting session...' });
      await expect(starting).toBeDisabled();
      await expect(page.getByRole('button', { name: 'start session' })).toHaveCount(0);
      releaseToken();

      const cards = page.getByTestId('message-card');
      await expect(cards).toHaveCount(1);
      await expect(page.getByTestId('status-indicator')).toHaveText('Bot is speaking...');
      await expect(page.getByTestId('status-indicator')).toHaveClass(/glow-speaking/);
      expect(await page.getByTestId('status-indicator').evaluate((el) => getComputedStyle(el).animationDuration)).toBe('1.5s');
      await finishSpeech(page);
      await expect(page.getByTestId('status-indicator')).toHaveText('Connected');
      expect(await page.getByTestId('status-indicator').evaluate((el) => getComputedStyle(el).animationDuration)).toBe('2.5s');
      await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
      await expect(page.getByText('Messages from your session will appear here.')).toHaveCount(0);
      await expect(page.getByTestId('session-notice')).toContainText('This browser cannot recognise speech.');

      // Typed answers: Enter sends; each answer brings the next interviewer line.
      const box = page.getByLabel('Type your answer');
      for (let i = 0; i < 3; i++) {
        const before = await cards.count();
        const firstText = await cards.last().textContent();
        await box.fill(`Answer ${i + 1}: closures keep variables alive; the event loop runs callbacks when the stack is empty.`);
        await box.press('Enter');
        await expect(box).toHaveValue('');
        await expect.poll(async () => (await cards.count()) > before || (await cards.last().textContent()) !== firstText).toBe(true);
        await finishSpeech(page);
      }
      // Never more than three cards.
      await expect(cards).toHaveCount(3);
      // One reading order, oldest first: each answer under the line it answers, the newest line last;
      // the newest line and the newest answer are on screen above the bottom panel, without scrolling.
      await expect(page.getByRole('list', { name: 'Interview' }).getByRole('listitem')).toHaveText([
        /^Earlier message: /,
        /^You typed: Answer 2/,
        /^Earlier message: /,
        /^You typed: Answer 3/,
        /^Latest message: /,
      ]);
      await expectAboveBottomPanel(page, cards.last());
      await expectAboveBottomPanel(page, page.getByTestId('your-answer').last());

      // Hold the rating so the loading state can be seen, then let the real rater answer.
      let releaseRating: () => void = () => {};
      const ratingHeld = new Promise<void>((resolve) => (releaseRating = resolve));
      await page.route('**/interview/rate-transcript', async (route) => {
        await ratingHeld;
        await route.continue();
      });
      await page.getByRole('button', { name: 'disconnect' }).click();
      await expect(page.getByRole('button', { name: 'Loading Results ...' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'disconnect' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'start session' })).toHaveCount(0);
      await expect(page.getByTestId('status-indicator')).toHaveText('Not Connected');
      const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
      await expect(overlay).toBeVisible();
      await expect(overlay.getByText(TEA, { exact: true })).toBeVisible();
      await expect(overlay.getByTestId('pulse-dots')).toBeVisible();
      await expect(overlay.getByTestId('dog-picture')).toHaveAttribute('src', 'https://dog.example.test/images/good-dog.png');
      await expect(overlay.getByRole('button', { name: 'Continue' })).toHaveCount(0);
      releaseRating();

      // The real rubric rater answers with Markdown.
      await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
      await expect(overlay.getByText(TEA)).toHaveCount(0);
      await expect(overlay.locator('.markdown').first()).not.toBeEmpty();
      const modelAnswers = overlay.getByText('Model Answers', { exact: true });
      await expect(modelAnswers).toBeVisible();
      const details = overlay.locator('details', { has: page.locator('summary', { hasText: 'Model Answers' }) });
      await expect(details).not.toHaveAttribute('open', '');
      await modelAnswers.click();
      await expect(details).toHaveAttribute('open', '');
      await expect(details.locator('.markdown')).toBeVisible();

      expect(ratePayloads).toHaveLength(1);
      const payload = ratePayloads[0] as {
        transcripts: { role: string; transcript: string; at: number }[];
        durationSeconds: number;
        questionSetId: number;
        sessionId: string;
      };
      expect(payload.questionSetId).toBe(first.id);
      expect(Number.isInteger(payload.durationSeconds)).toBe(true);
      expect(payload.sessionId).toEqual(expect.any(String));
      expect(payload.transcripts.filter((t) => t.role === 'interviewee').map((t) => t.transcript.slice(0, 9))).toEqual([
        'Answer 1:',
        'Answer 2:',
        'Answer 3:',
      ]);
      expect(payload.transcripts[0]?.role).toBe('interviewer');

      // Continue reloads the page: back to a fresh main screen.
      const navigation = page.waitForEvent('framenavigated');
      await overlay.getByRole('button', { name: 'Continue' }).click();
      await navigation;
      await expect(page.getByRole('dialog', { name: 'Choose an Interview Topic' })).toBeVisible();
      await expect(overlay).toHaveCount(0);
    });

    // Behaviour the layout does not change: checked at one width (BEHAVIOUR_WIDTH, e2e/support/app.ts).
    if (name === BEHAVIOUR_WIDTH) {
      test('start with no selected set opens the topic list', async ({ page }) => {
        await loginAs(page, server, uniqueEmail('noset'));
        await page.goto(server.url + '/');
        const topics = page.getByRole('dialog', { name: 'Choose an Interview Topic' });
        await topics.press('Escape');
        await expect(topics).toHaveCount(0);
        await page.getByRole('button', { name: 'start session' }).click();
        await expect(topics).toBeVisible();
      });

      test('a 402 from the token call opens the email dialog with the out-of-tokens text', async ({ page, consoleErrors }) => {
        consoleErrors.allow(/^Failed to start session: You have run out of tokens\./);
        const email = uniqueEmail('broke');
        await ready(page, email);
        await setPlan(server, email, { isPro: false, limit: 0 });
        await page.getByRole('button', { name: 'start session' }).click();
        const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
        const alert = dialog.getByRole('alert');
        await expect(alert).toHaveText(
          `You have run out of tokens. Please contact ${FOUNDERS[0]?.name} or ${FOUNDERS[1]?.name} to get more credits.`,
        );
        for (const founder of FOUNDERS) await expect(alert.getByRole('link', { name: founder.name })).toHaveAttribute('href', founder.url);
        await page.keyboard.press('Escape');
        await expect(dialog).toHaveCount(0);
        await expect(page.getByRole('button', { name: 'start session' })).toBeEnabled();
      });

      test('a failed token call is logged and the button returns', async ({ page, consoleErrors }) => {
        consoleErrors.allow(/^(The session token request failed|Failed to start session): /);
        await ready(page);
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await page.route('**/interview/token*', (route) => route.fulfill({ status: 500, json: { error: 'Token service is down.' } }));
        await page.getByRole('button', { name: 'start session' }).click();
        await expect(page.getByRole('button', { name: 'start session' })).toBeEnabled();
        await expect.poll(() => errors.some((e) => e.includes('Failed to start session: Failed to get session token'))).toBe(true);
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await expect(page.getByTestId('status-indicator')).toHaveText('Not Connected');
      });

      for (const [label, fulfil, text] of [
        ['a server error', { status: 500, json: { error: 'The rater is unavailable.' } }, 'Error: The rater is unavailable.'],
        ['an error without a reason', { status: 502, body: '' }, 'Unknown error'],
        ['a network failure', null, 'Error submitting transcript for rating.'],
      ] as const) {
        test(`a rating that fails with ${label} shows "${text}"`, async ({ page, consoleErrors }) => {
          consoleErrors.allow(/^Error submitting transcript for rating: /);
          await routeDogApi(page, 'fail');
          await ready(page);
          await page.route('**/interview/rate-transcript', (route) => (fulfil ? route.fulfill(fulfil) : route.abort('connectionreset')));
          await startSession(page);
          await page.getByRole('button', { name: 'disconnect' }).click();
          const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
          await expect(overlay.getByRole('alert')).toHaveText(text);
          await expect(overlay.getByTestId('dog-picture')).toHaveCount(0);
          await expect(overlay.getByText('Model Answers')).toHaveCount(0);
          await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible();
        });
      }
    }
  });
}

test('the dog picture service failing shows no picture and nothing else', async ({ page }) => {
  await routeDogApi(page, 'fail');
  await ready(page);
  let releaseRating: () => void = () => {};
  const held = new Promise<void>((resolve) => (releaseRating = resolve));
  await page.route('**/interview/rate-transcript', async (route) => {
    await held;
    await route.continue();
  });
  await startSession(page);
  await page.getByRole('button', { name: 'disconnect' }).click();
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay.getByText(TEA, { exact: true })).toBeVisible();
  await expect(overlay.getByTestId('pulse-dots')).toBeVisible();
  await expect(overlay.getByRole('img')).toHaveCount(0);
  await expect(overlay.getByRole('alert')).toHaveCount(0);
  releaseRating();
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
});

test('the interviewer closing the session ends it about 4 seconds later and rates it', async ({ page }) => {
  await routeDogApi(page, 'fail');
  await ready(page);
  await startSession(page);
  await finishSpeech(page);
  const box = page.getByLabel('Type your answer');
  await box.fill('I want to stop.');
  await box.press('Enter');
  // The built-in interviewer answers a request to stop with its closing remark and close_session.
  const cards = page.getByTestId('message-card');
  await expect(cards.last()).toContainText('we can stop here');
  await finishSpeech(page);
  // The session is still on while the closing remark ends, then stops by itself and is rated.
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay).toBeVisible({ timeout: 15_000 });
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'start session' })).toBeVisible();
});

test('the screen stays awake while a session is active, again after the page is shown, and is released after', async ({ page }) => {
  await recordWakeLock(page);
  await routeDogApi(page, 'fail');
  await ready(page);
  expect(await wakeLog(page)).toEqual([]);
  await startSession(page);
  await expect.poll(() => wakeLog(page)).toEqual(['request:screen']);
  await page.evaluate(() => (window as unknown as { __setVisibility: (s: string) => void }).__setVisibility('hidden'));
  await page.evaluate(() => (window as unknown as { __setVisibility: (s: string) => void }).__setVisibility('visible'));
  await expect.poll(() => wakeLog(page)).toEqual(['request:screen', 'request:screen']);
  await page.getByRole('button', { name: 'disconnect' }).click();
  await expect.poll(() => wakeLog(page)).toEqual(['request:screen', 'request:screen', 'release']);
  // Hidden and shown again after the session: nothing more is requested.
  await page.evaluate(() => (window as unknown as { __setVisibility: (s: string) => void }).__setVisibility('hidden'));
  await page.evaluate(() => (window as unknown as { __setVisibility: (s: string) => void }).__setVisibility('visible'));
  await expect(page.getByRole('dialog', { name: 'Session Feedback' }).getByRole('button', { name: 'Continue' })).toBeVisible({
    timeout: 30_000,
  });
  expect(await wakeLog(page)).toEqual(['request:screen', 'request:screen', 'release']);
});

test('words the recogniser has heard so far are shown while the candidate speaks', async ({ page }) => {
  await ready(page, uniqueEmail('interim'), 'interim');
  await startSession(page);
  await finishSpeech(page);
  await expect(page.getByTestId('interim-text')).toHaveText('I think closures keep');
  await expect(page.getByTestId('session-notice')).toHaveCount(0);
  await expect(page.getByLabel('Type your answer')).toBeVisible();
});

for (const { name, viewport } of WIDTHS) {
  test.describe(`spoken answers (${name})`, () => {
    test.use({ viewport });

    test('a spoken answer shows in the conversation as it was recognised, under the interviewer’s card', async ({ page }) => {
      await ready(page, uniqueEmail('spoken'), 'spoken');
      await startSession(page);
      const greeting = (await page.getByTestId('message-card').last().textContent()) ?? '';
      // The greeting ends; the recogniser listens and hears the candidate.
      await finishSpeech(page);
      const answer = 'var is scoped to the whole function, while let and const only live inside the block, and const cannot be reassigned.';
      await hearSpoken(page, answer);
      const yours = page.getByRole('list', { name: 'Interview' });
      await expect(yours.getByTestId('your-answer')).toHaveText([`You said: ${answer}`]);
      // The interviewer goes on; the candidate's words stay.
      await expect(page.getByTestId('message-card').last()).not.toHaveText(greeting);
      await expect(yours.getByTestId('your-answer')).toHaveText([`You said: ${answer}`]);
      await page.screenshot({ path: `test-results/shots/spoken-answer-${name}.png`, fullPage: true });
    });
  });
}
