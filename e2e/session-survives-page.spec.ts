/**
 * docs/product-rules.md, Session lifecycle (Leaving and coming back), on both databases: leaving a
 * running interview asks first (the browser's own leave prompt); after a reload, or a closed tab and
 * a new one, the app finds the interview the server still holds open and offers, in one dialog, to
 * continue it (the same session through resume: no new token, no credit) or to end it and get
 * feedback on everything that reached the server.
 */
import type { Page } from '@playwright/test';
import { WELCOME_BACK } from '../domain/interviewer-protocol';
import {
  controllableSpeech,
  finishSpeech,
  loginAs,
  questionSets,
  routeDogApi,
  startAppServer,
  uniqueEmail,
  type RunningServer,
  type SetInfo,
} from './support/app';
import { E2E_DATABASES, e2eDatabase } from './support/databases';
import { expect, test } from './support/test';
import { call } from '../test-support/fixtures';

const answer = (n: number) => `Answer ${n}: a closure keeps the variables of its outer scope alive after that function returned.`;

for (const database of E2E_DATABASES) {
  test.describe(`an interview survives the page (${database})`, () => {
    const db = e2eDatabase(database);
    let server: RunningServer;
    let first: SetInfo;
    test.beforeAll(async () => {
      server = await startAppServer(await db.env());
      const set = (await questionSets(server)).find((s) => s.index === 1);
      if (!set) throw new Error('The catalogue has no set 1');
      first = set;
    });
    test.afterAll(async () => {
      await server?.stop();
      await db.drop();
    });

    /** Logged in on the main screen, set 1 chosen, the session started and `answers` typed answers sent. */
    async function interview(page: Page, email: string, answers: number): Promise<void> {
      await controllableSpeech(page);
      await routeDogApi(page);
      await page.goto(server.url + '/');
      await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
      await page.getByRole('button', { name: 'start session' }).click();
      const cards = page.getByTestId('message-card');
      await expect(cards.last()).toContainText(first.questions[0] ?? '<no question>');
      await finishSpeech(page);
      const box = page.getByLabel('Type your answer');
      for (let i = 1; i <= answers; i++) {
        const turn = page.waitForResponse((response) => response.url().endsWith('/interview/turn') && response.status() === 200);
        await box.fill(answer(i));
        await box.press('Enter');
        await turn;
        await finishSpeech(page);
      }
    }

    const interviewee = (payload: unknown) =>
      (payload as { transcripts: { role: string; transcript: string }[] }).transcripts
        .filter((t) => t.role === 'interviewee')
        .map((t) => t.transcript);

    test('a reload asks first, then continues the same interview: no new token, "Welcome back.", one rating of every answer', async ({
      page,
    }) => {
      const email = uniqueEmail('reload');
      await loginAs(page, server, email);
      await controllableSpeech(page);
      await page.goto(server.url + '/');
      // No interview: leaving asks nothing.
      const prompts: string[] = [];
      page.on('dialog', (dialog) => {
        prompts.push(dialog.type());
        void dialog.accept();
      });
      await page.reload();
      expect(prompts).toEqual([]);

      await interview(page, email, 2);
      await page.reload();
      expect(prompts).toEqual(['beforeunload']);

      const tokens: string[] = [];
      const rates: unknown[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/interview/token')) tokens.push(request.url());
        if (request.url().endsWith('/interview/rate-transcript')) rates.push(request.postDataJSON());
      });
      const choice = page.getByRole('dialog', { name: 'Your interview is still open' });
      await expect(choice).toContainText(`Your ${first.name} interview from earlier has not ended: your 2 answers are kept.`);
      await expect(page.getByRole('dialog', { name: 'Choose an Interview Topic' })).toHaveCount(0);
      await expect(page.getByTestId('topic-heading')).toHaveText(first.name);
      await choice.getByRole('button', { name: 'Continue interview' }).click();
      await expect(choice).toHaveCount(0);
      // The newest line comes first.
      await expect(page.getByTestId('message-card').last()).toContainText(WELCOME_BACK);
      await finishSpeech(page);
      await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();

      const box = page.getByLabel('Type your answer');
      const turn = page.waitForResponse((response) => response.url().endsWith('/interview/turn') && response.status() === 200);
      await box.fill(answer(3));
      await box.press('Enter');
      await turn;
      await finishSpeech(page);
      await page.getByRole('button', { name: 'disconnect' }).click();
      const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
      await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
      await expect(overlay.getByText('Model Answers', { exact: true })).toBeVisible();
      expect(tokens).toEqual([]);
      expect(rates.map(interviewee)).toEqual([[answer(1), answer(2), answer(3)]]);
      const live = await call<{ session: unknown }>(server, 'GET', '/interview/sessions/live', { headers: { 'x-user-email': email } });
      expect(live.body).toEqual({ session: null });
    });

    test('coming back exactly: the unsent answer is back in the box, the line heard is not said again, typed answers stay typed', async ({
      page,
    }) => {
      const email = uniqueEmail('exactly');
      await loginAs(page, server, email);
      await interview(page, email, 2);
      // The last line is heard to its end; half an answer is typed, then the page reloads.
      const spoken = () => page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken);
      await expect.poll(async () => (await spoken()).length).toBe(3);
      await finishSpeech(page);
      const heard = () =>
        page.evaluate(() =>
          Object.keys(sessionStorage)
            .filter((key) => key.startsWith('interview:'))
            .map((key) => (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { heard?: string }).heard),
        );
      const lastLine = (await spoken()).at(-1);
      await expect.poll(heard).toEqual([lastLine]);
      await page.getByLabel('Type your answer').fill('Answer 3: the event loop runs');
      page.on('dialog', (dialog) => void dialog.accept());
      await page.reload();

      const choice = page.getByRole('dialog', { name: 'Your interview is still open' });
      await choice.getByRole('button', { name: 'Continue interview' }).click();
      await expect(page.getByTestId('message-card').last()).toContainText(WELCOME_BACK);
      await expect(page.getByLabel('Type your answer')).toHaveValue('Answer 3: the event loop runs');
      // Shown again, but only "Welcome back." is said: the line itself was heard before the reload.
      await expect(page.getByTestId('message-card').last()).toContainText(lastLine ?? '<no line>');
      await expect.poll(spoken).toEqual([WELCOME_BACK]);
      // The answers typed before the reload come back from the server as typed, not "You said".
      const answers = page.getByTestId('your-answer');
      await expect(answers.last()).toContainText(`You typed: ${answer(2)}`);
      await expect(page.getByText(/You said:/)).toHaveCount(0);

      await finishSpeech(page);
      const box = page.getByLabel('Type your answer');
      const turn = page.waitForResponse((response) => response.url().endsWith('/interview/turn') && response.status() === 200);
      await box.fill(answer(3));
      await box.press('Enter');
      await turn;
      await expect(box).toHaveValue('');
      // Sent: a reload now brings back no draft.
      await page.reload();
      await page.getByRole('dialog', { name: 'Your interview is still open' }).getByRole('button', { name: 'Continue interview' }).click();
      await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
      await expect(page.getByLabel('Type your answer')).toHaveValue('');
      // The reply to answer 3 was never heard to its end (the speech stand-in did not finish it): said again in full.
      await expect.poll(async () => (await spoken()).length).toBe(1);
      expect((await spoken())[0]).not.toBe(WELCOME_BACK);
      expect((await spoken())[0]).toContain(WELCOME_BACK);
    });

    test('a closed tab, then a new one: end it and get feedback on what reached the server; History lists it', async ({
      page,
      context,
    }) => {
      const email = uniqueEmail('closed-tab');
      await loginAs(page, server, email);
      await interview(page, email, 2);
      await page.close();

      const tab = await context.newPage();
      await controllableSpeech(tab);
      await routeDogApi(tab);
      await tab.goto(server.url + '/');
      const choice = tab.getByRole('dialog', { name: 'Your interview is still open' });
      await expect(choice).toContainText('your 2 answers are kept');
      const rated = tab.waitForRequest((request) => request.url().endsWith('/interview/rate-transcript'));
      await choice.getByRole('button', { name: 'End and get feedback' }).click();
      expect(interviewee((await rated).postDataJSON())).toEqual([answer(1), answer(2)]);
      const overlay = tab.getByRole('dialog', { name: 'Session Feedback' });
      await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
      await expect(overlay.locator('.markdown').first()).not.toBeEmpty();

      const history = await call<{ ratings: { topic: string }[] }>(server, 'GET', '/user/ratings?page=1&limit=10', {
        headers: { 'x-user-email': email },
      });
      expect(history.body.ratings.map((r) => r.topic)).toEqual([first.name]);
      // Continue reloads: nothing is open any more, so no choice comes back.
      await overlay.getByRole('button', { name: 'Continue' }).click();
      await expect(tab.getByRole('dialog', { name: 'Choose an Interview Topic' })).toBeVisible();
      await expect(tab.getByRole('dialog', { name: 'Your interview is still open' })).toHaveCount(0);
    });
  });
}
