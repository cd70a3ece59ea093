/**
 * The candidate's side on a server whose operator set no support links and small credit limits
 * (docs/product-rules.md, Credits; Login and identity; Screens and routes): interviews left before
 * a start, the out-of-credits dialog that keeps the signed-in email, support shown as not set up,
 * and the unknown-route page. Screenshots of each state at both widths go to test-results/shots/ (looked at by hand).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import type { ProgressResponse } from '../contract';
import { expectAccessible } from './support/a11y';
import {
  WIDTHS,
  completeSet,
  loginAs,
  questionSets,
  setPlan,
  startAppServer,
  uniqueEmail,
  type RunningServer,
  BEHAVIOUR_WIDTH,
} from './support/app';
import { call } from '../test-support/fixtures';

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

    // Behaviour the layout does not change: checked at one width (BEHAVIOUR_WIDTH, e2e/support/app.ts).
    if (name === BEHAVIOUR_WIDTH) {
      test('interviews left are shown before a start; Pro has more; no green dot without support links', async ({ page }) => {
        await loginAs(page, server, uniqueEmail('credits'));
        await page.goto(server.url + '/');
        await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).press('Escape');
        await expect(page.getByTestId('credits')).toHaveText('You have 3 interviews left. Pro accounts get 20 interviews.');
        await expect(page.getByRole('button', { name: 'Live Support' }).locator('span[aria-hidden]')).toHaveCount(0);
        await shot(page, `credits-${name}`);
      });

      test('out of credits: the email dialog keeps the signed-in email, says so plainly and names the operator', async ({
        page,
        consoleErrors,
      }) => {
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
        await expect(dialog.getByRole('alert')).toHaveText(
          'You have run out of tokens. Please contact the operator of this site to get more credits.',
        );
        await expect(dialog.getByTestId('out-of-credits-account')).toHaveText(
          `You are still signed in as ${email}, but this account has no interviews left.`,
        );
        await expect(dialog.getByLabel('Email')).toHaveValue(email);
        await expect(dialog.getByRole('button', { name: 'Continue' })).toBeEnabled();
        await shot(page, `out-of-credits-${name}`);
        await page.keyboard.press('Escape');
        await expect(dialog).toHaveCount(0);
      });

      test("the topic header says which level of its topic the set is, and the candidate's own level", async ({ page }) => {
        const email = uniqueEmail('level');
        await loginAs(page, server, email);
        const sets = await questionSets(server, email);
        const first = sets.find((set) => set.index === 1);
        const second = sets.find((set) => set.index === 2);
        // The shipped catalogue has two JavaScript sets: the header tells them apart.
        if (!first || second?.name !== first.name) throw new Error('expected two sets of one topic at index 1 and 2');
        await page.goto(server.url + '/');
        const topics = page.getByRole('dialog', { name: 'Choose an Interview Topic' });
        await expect(topics.getByTestId('tile-2')).toContainText('Level 2 of 2');
        await shot(page, `topics-${name}`);
        await topics.getByTestId('tile-1').click();
        await expect(page.getByTestId('topic-heading')).toHaveText(first.name);
        await expect(page.getByTestId('topic-level')).toHaveText('Level 1 of 2 · No level completed yet');

        // A rated interview on level 1: after a reload (the topic is kept) the candidate's level is 1.
        await completeSet(server, email, first.id, `A short answer about ${first.name}.`);
        await page.reload();
        await expect(page.getByTestId('topic-heading')).toHaveText(first.name);
        await expect(page.getByTestId('topic-level')).toHaveText('Level 1 of 2 · Your level: 1');
        await page.getByRole('button', { name: 'Change topic' }).click();
        await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-2').click();
        await expect(page.getByTestId('topic-heading')).toHaveText(second.name);
        await expect(page.getByTestId('topic-level')).toHaveText('Level 2 of 2 · Your level: 1');
        await shot(page, `topic-level-${name}`);
        await expectAccessible(page, `topic header with its level (${name})`);
      });

      test('an unknown route keeps the fallback heading, says the page does not exist and links home', async ({ page }) => {
        await page.goto(server.url + '/no/such/page');
        await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
        await expect(page.getByText('This page does not exist. Check the address, or go back to the home page.')).toBeVisible();
        await expect(page.getByText('404 Not Found')).toBeVisible();
        await shot(page, `not-found-${name}`);
        await page.getByRole('link', { name: 'Go to Home' }).click();
        await expect(page.getByRole('dialog', { name: 'Enter your email to continue' })).toBeVisible();
      });
    }

    test("History shows progress: practise next, each topic's scores as a chart or a table, and the key points missed most often", async ({
      page,
    }) => {
      const email = uniqueEmail('progress');
      await loginAs(page, server, email);
      const sets = await questionSets(server, email);
      const first = sets.find((set) => set.index === 1);
      if (!first) throw new Error('no set 1');
      await completeSet(server, email, first.id, 'I am not sure about this one.');
      await completeSet(server, email, first.id, `A short answer about ${first.name} with one example.`);
      const progress = (await call<ProgressResponse>(server, 'GET', '/user/progress', { headers: { 'x-user-email': email } })).body;
      const topic = progress.topics[0];
      const next = progress.practiseNext;
      if (!topic || !next) throw new Error('expected a topic and something to practise');

      await page.goto(server.url + '/history');
      const panel = page.getByTestId('progress');
      await expect(panel.getByRole('heading', { name: 'Your progress' })).toBeVisible();
      await expect(panel.getByTestId('practise-next')).toContainText(
        `${next.topic}, set ${next.setIndex}: “${next.question}” Your latest score there is ${next.score}%.`,
      );
      const chart = panel.getByRole('img', {
        name: `${topic.topic}: scores of 2 interviews, oldest first: ${topic.points.map((p) => `${p.score}%`).join(', ')}.`,
      });
      await expect(chart).toBeVisible();
      // Each key point once, under its question; each question once.
      const missed = panel.getByTestId('missed-key-point');
      await expect(missed).toHaveCount(progress.missedKeyPoints.length);
      const top = progress.missedKeyPoints[0];
      if (!top) throw new Error('expected a missed key point');
      const questions = panel.getByTestId('missed-question');
      await expect(questions).toHaveCount(new Set(progress.missedKeyPoints.map((p) => `${p.topic}|${p.setIndex}|${p.question}`)).size);
      await expect(questions.first().locator('p')).toHaveText(`${top.topic}, set ${top.setIndex}: “${top.question}”`);
      await expect(missed.first()).toHaveText(
        `${top.keyPoint} Missed ${top.missed === 2 ? 'twice' : 'once'} in 2 interviews that asked this question.`,
      );
      await expect(page.getByRole('heading', { name: 'Your interviews' })).toBeVisible();
      await shot(page, `progress-${name}`);
      await expectAccessible(page, `history progress (${name})`);

      await panel.getByRole('button', { name: 'Show as tables' }).click();
      const table = panel.getByRole('table', { name: `${topic.topic}: scores over time` });
      await expect(table.getByRole('row')).toHaveCount(3);
      await expect(table.getByRole('row').nth(1)).toContainText(`${topic.points[0]?.score}%`);
      // Two interviews on one day: the table tells them apart by the time.
      await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText(
        /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/,
      );
      await expect(panel.getByRole('button', { name: 'Show as charts' })).toHaveAttribute('aria-pressed', 'true');
      await shot(page, `progress-tables-${name}`);
      await expectAccessible(page, `history progress tables (${name})`);

      // Every History item offers the whole transcript, both sides, with the feedback.
      await page.getByTestId('history-card').first().click();
      const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
      const transcript = overlay.getByTestId('transcript');
      await transcript.getByText('Transcript', { exact: true }).click();
      // completeSet asks every question of the set and answers each (a completed level).
      await expect(transcript.getByRole('listitem')).toHaveText(
        first.questions.flatMap((question) => [`Interviewer: ${question}`, `You: A short answer about ${first.name} with one example.`]),
      );
      await shot(page, `transcript-${name}`);
      await page.keyboard.press('Escape');

      // Practise next selects that set on the main screen, and it stays chosen across a reload.
      await panel.getByRole('button', { name: `Practise ${next.topic}, set ${next.setIndex}` }).click();
      await expect(page.getByTestId('topic-heading')).toHaveText(next.topic);
      await page.reload();
      await expect(page.getByTestId('topic-heading')).toHaveText(next.topic);
    });
  });
}
