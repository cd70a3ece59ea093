import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import {
  WIDTHS,
  completeSet,
  loginAs,
  questionSets,
  setPlan,
  startAppServer,
  uniqueEmail,
  type RunningServer,
  type SetInfo,
  BEHAVIOUR_WIDTH,
} from './support/app';
import { login } from '../test-support/fixtures';

let server: RunningServer;
let sets: SetInfo[];
/** A user with ten rated interviews: sets 1-5 twice. */
const veteran = uniqueEmail('veteran');
const ratings: { setIndex: number; markdown: string; score: number }[] = [];

test.beforeAll(async () => {
  server = await startAppServer();
  sets = (await questionSets(server)).sort((a, b) => a.index - b.index);
  await login(server, veteran);
  await setPlan(server, veteran, { isPro: true });
  const plain = sets.filter((s) => !s.isPremium && !s.requiresFeedback).slice(0, 5);
  for (let round = 0; round < 2; round++)
    for (const set of plain) {
      const rated = await completeSet(
        server,
        veteran,
        set.id,
        `Round ${round}: I would explain ${set.name} with a concrete example and its trade-offs.`,
      );
      ratings.push({ setIndex: set.index, ...rated });
    }
});
test.afterAll(async () => {
  await server?.stop();
});

async function openHistory(page: Page, email: string, query = ''): Promise<void> {
  await loginAs(page, server, email);
  await page.goto(`${server.url}/history${query}`);
}

/** A line of the Markdown that renders as the same plain text. */
function plainLine(markdown: string): string {
  const line = markdown
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 25 && /^[A-Za-z][A-Za-z0-9 ,.'()?:;%-]+$/.test(l));
  if (!line) throw new Error(`No plain line in: ${markdown.slice(0, 200)}`);
  return line.slice(0, 25);
}

const colourOf = (score: number) => (score >= 80 ? 'green' : score >= 60 ? 'yellow' : 'red');

for (const { name, viewport } of WIDTHS) {
  test.describe(`history (${name})`, () => {
    test.use({ viewport, timezoneId: 'UTC', locale: 'en-US' });

    test('ten interviews: nine cards per page, card fields, Previous/Next and "Showing page X of Y"', async ({ page }) => {
      await openHistory(page, veteran);
      await expect(page.getByRole('heading', { name: 'Interview History (Experimental)' })).toBeVisible();
      await expect(page.getByTestId('history-total')).toHaveText('10 interviews in total');
      const cards = page.getByTestId('history-card');
      await expect(cards).toHaveCount(9);
      await expect(page.getByText('Showing page 1 of 2')).toBeVisible();
      const nav = page.getByRole('navigation', { name: 'History pages' });
      await expect(nav.getByRole('button', { name: 'Previous' })).toBeDisabled();
      await expect(nav.getByRole('button', { name: /^Page \d+$/ })).toHaveText(['1', '2']);
      await expect(nav.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

      // Newest first: the last rated interview leads. Its fields as docs/product-rules.md (Results and history) lists them.
      const newest = ratings[ratings.length - 1];
      if (!newest) throw new Error('no ratings seeded');
      const card = cards.first();
      const set = sets.find((s) => s.index === newest.setIndex);
      await expect(card).toContainText(set?.name ?? '?');
      await expect(card.getByTestId('history-score')).toHaveText(`${Math.round(newest.score)}%`);
      await expect(card.getByTestId('history-score')).toHaveAttribute('data-colour', colourOf(newest.score));
      await expect(card).toContainText('2m 5s');
      await expect(card).toContainText(`#${newest.setIndex}`);
      const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
      await expect(card).toContainText(today);

      await nav.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByText('Showing page 2 of 2')).toBeVisible();
      await expect(cards).toHaveCount(1);
      await expect(nav.getByRole('button', { name: 'Next' })).toBeDisabled();
      await expect(page).toHaveURL(/\?page=2$/);
      await nav.getByRole('button', { name: 'Page 1' }).click();
      await expect(page.getByText('Showing page 1 of 2')).toBeVisible();
    });

    // Behaviour the layout does not change: checked at one width (BEHAVIOUR_WIDTH, e2e/support/app.ts).
    if (name === BEHAVIOUR_WIDTH) {
      test('a card opens the overlay with its Markdown and the model answers of set questionSetIndex+1', async ({ page }) => {
        await openHistory(page, veteran);
        const newest = ratings[ratings.length - 1];
        const set = sets.find((s) => s.index === newest?.setIndex);
        if (!newest || !set?.modelAnswers) throw new Error('seed missing');
        // The progress panel loads after the cards and pushes them down: click once it is there, or
        // the click lands where the card was (CI saw the overlay never open that way).
        await expect(page.getByTestId('progress')).toBeVisible();
        await page.getByTestId('history-card').first().click();
        const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
        await expect(overlay).toBeVisible();
        await expect(overlay.locator('.markdown').first()).toContainText(plainLine(newest.markdown));
        await overlay.getByText('Model Answers', { exact: true }).click();
        await expect(overlay.locator('details .markdown')).toContainText(plainLine(set.modelAnswers));
        await page.keyboard.press('Escape');
        await expect(overlay).toHaveCount(0);
        await page.getByTestId('history-card').nth(1).click();
        // docs/product-rules.md, Results and history: Continue reloads the page.
        await Promise.all([page.waitForEvent('load'), overlay.getByRole('button', { name: 'Continue' }).click()]);
        await expect(overlay).toHaveCount(0);
        await expect(page.getByTestId('history-card').first()).toBeVisible();
      });

      test('a page outside 1..totalPages is never shown', async ({ page }) => {
        await openHistory(page, veteran, '?page=7');
        await expect(page.getByText('Showing page 2 of 2')).toBeVisible();
        await expect(page.getByTestId('history-card')).toHaveCount(1);
      });

      test('no interviews yet: "No Interview History" with a link to start', async ({ page }) => {
        await openHistory(page, uniqueEmail('empty'));
        await expect(page.getByRole('heading', { name: 'No Interview History' })).toBeVisible();
        await page.getByRole('link', { name: 'Start Your First Interview' }).click();
        await expect(page).toHaveURL(`${server.url}/`);
      });

      test('logged out: "Please Log In" with a link home, and no history button', async ({ page }) => {
        await page.goto(`${server.url}/history`);
        await expect(page.getByRole('heading', { name: 'Please Log In' })).toBeVisible();
        await expect(page.getByText('Please log in to view your history')).toBeVisible();
        await expect(page.getByRole('link', { name: 'History' })).toHaveCount(0);
        await page.getByRole('link', { name: 'Go to Home' }).click();
        await expect(page.getByRole('dialog', { name: 'Enter your email to continue' })).toBeVisible();
      });

      for (const [label, answer, text] of [
        [
          'a server error',
          { status: 500, json: { error: 'The history is unavailable.' } },
          'Failed to fetch history: The history is unavailable.',
        ],
        ['a status without a reason', { status: 503, body: '' }, 'Failed to fetch history: Service Unavailable'],
        ['a network failure', null, 'An error occurred while fetching your history.'],
      ] as const) {
        test(`${label} shows "${text}"`, async ({ page, consoleErrors }) => {
          consoleErrors.allow(/^History request failed: /);
          await page.route('**/user/ratings*', (route) => (answer ? route.fulfill(answer) : route.abort('connectionrefused')));
          await openHistory(page, veteran);
          await expect(page.getByRole('alert')).toHaveText(text);
          await expect(page.getByTestId('history-card')).toHaveCount(0);
        });
      }
    }
  });
}

test.describe('history rendering rules', () => {
  test.use({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-US' });

  test('score colours at 80 / 60, Untitled Interview, and a window of at most five page numbers', async ({ page }) => {
    // A synthetic page 6 of 12 checks the window and the colour thresholds exactly.
    const rows = [
      {
        id: 1,
        topic: 'React',
        questionSetIndex: 2,
        score: 80,
        eventTimestamp: '2026-03-04T10:00:00.000Z',
        durationSeconds: 61,
        ratingMarkdown: '# A',
      },
      {
        id: 2,
        topic: 'React',
        questionSetIndex: 2,
        score: 79.4,
        eventTimestamp: '2026-03-04T10:00:00.000Z',
        durationSeconds: 0,
        ratingMarkdown: '# B',
      },
      {
        id: 3,
        topic: 'React',
        questionSetIndex: 2,
        score: 60,
        eventTimestamp: '2026-03-04T10:00:00.000Z',
        durationSeconds: 3599,
        ratingMarkdown: '# C',
      },
      {
        id: 4,
        topic: null,
        questionSetIndex: 0,
        score: 59,
        eventTimestamp: '2026-03-04T10:00:00.000Z',
        durationSeconds: 5,
        ratingMarkdown: '# D',
      },
    ];
    const pagination = { page: 6, limit: 9, totalCount: 104, totalPages: 12, hasNextPage: true, hasPreviousPage: true };
    const asked: string[] = [];
    await page.route('**/user/ratings*', (route) => {
      asked.push(new URL(route.request().url()).search);
      return route.fulfill({ json: { ratings: rows, pagination } });
    });
    await openHistory(page, veteran, '?page=6');
    const cards = page.getByTestId('history-card');
    await expect(cards).toHaveCount(4);
    await expect(cards.getByTestId('history-score')).toHaveText(['80%', '79%', '60%', '59%']);
    expect(await cards.getByTestId('history-score').evaluateAll((els) => els.map((e) => e.getAttribute('data-colour')))).toEqual([
      'green',
      'yellow',
      'yellow',
      'red',
    ]);
    await expect(cards.nth(0)).toContainText('1m 1s');
    await expect(cards.nth(1)).toContainText('0m 0s');
    await expect(cards.nth(2)).toContainText('59m 59s');
    await expect(cards.nth(3)).toContainText('Untitled Interview');
    await expect(cards.nth(3)).toContainText('#1');
    await expect(cards.nth(0)).toContainText('Mar 4, 2026');
    const nav = page.getByRole('navigation', { name: 'History pages' });
    await expect(nav.getByRole('button', { name: /^Page \d+$/ })).toHaveText(['4', '5', '6', '7', '8']);
    await expect(page.getByText('Showing page 6 of 12')).toBeVisible();
    expect(asked).toContain('?page=6&limit=9');
    await nav.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => asked).toContain('?page=7&limit=9');
  });
});
