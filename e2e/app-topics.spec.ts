import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import {
  CHAT_URL,
  FOUNDERS,
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
test.beforeAll(async () => {
  server = await startAppServer();
  sets = (await questionSets(server)).sort((a, b) => a.index - b.index);
});
test.afterAll(async () => {
  await server?.stop();
});

const byIndex = (index: number): SetInfo => {
  const set = sets.find((s) => s.index === index);
  if (!set) throw new Error(`No set with index ${index}`);
  return set;
};
const premium = () => sets.find((s) => s.isPremium) ?? byIndex(999);
const needsFeedback = () => sets.find((s) => s.requiresFeedback && !s.isPremium) ?? byIndex(999);

async function openTopics(page: Page, server: RunningServer, email: string): Promise<Locator> {
  await loginAs(page, server, email);
  await page.goto(server.url + '/');
  const topics = page.getByRole('dialog', { name: 'Choose an Interview Topic' });
  await expect(topics).toBeVisible();
  return topics;
}

const tile = (topics: Locator, index: number) => topics.getByTestId(`tile-${index}`);

for (const { name, viewport } of WIDTHS) {
  test.describe(`topic tiles (${name})`, () => {
    test.use({ viewport });

    test('a new free user: set 1 is next, later sets are progress-locked, premium sets ask to upgrade', async ({ page }) => {
      const topics = await openTopics(page, server, uniqueEmail('tiles'));
      await expect(tile(topics, 1).getByTestId('next-dot')).toBeVisible();
      // Two sets of one topic say which level each is; a topic of one set does not.
      expect(byIndex(2).name).toBe(byIndex(1).name);
      await expect(tile(topics, 1)).toContainText('Question set 1 · Level 1 of 2');
      await expect(tile(topics, 2)).toContainText('Question set 2 · Level 2 of 2');
      await expect(tile(topics, 3)).not.toContainText('Level');
      // Every tile, with its icon, fits the screen width.
      const overflowing = await page.evaluate(
        () =>
          [...document.querySelectorAll('[data-testid^="tile-"]')].filter((el) => el.getBoundingClientRect().right > window.innerWidth)
            .length,
      );
      expect(overflowing).toBe(0);
      await expect(topics.getByTestId('next-dot')).toHaveCount(1);
      await expect(tile(topics, 1)).not.toContainText('✅');
      await expect(tile(topics, 2)).toContainText('Go through previous questions first');
      await expect(tile(topics, 2)).toContainText('🚀');
      await expect(tile(topics, 2)).toHaveAttribute('aria-disabled', 'true');
      await expect(tile(topics, premium().index)).toContainText('Premium');
      await expect(tile(topics, premium().index)).toContainText('🔒');

      // Progress-locked: a click does nothing.
      await tile(topics, 2).click({ force: true });
      await expect(topics).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(1);

      // Premium for a free user: the upgrade dialog with the chat group and both contacts.
      await tile(topics, premium().index).click();
      const upgrade = page.getByRole('dialog', { name: 'Upgrade to Pro' });
      await expect(upgrade).toBeVisible();
      await expect(upgrade.getByRole('link', { name: 'our chat group' })).toHaveAttribute('href', CHAT_URL);
      for (const founder of FOUNDERS) await expect(upgrade.getByRole('link', { name: founder.name })).toHaveAttribute('href', founder.url);
      await upgrade.getByRole('button', { name: 'Got it!' }).click();
      await expect(topics).toBeVisible();

      // Selecting the next set closes the list and names the topic.
      await tile(topics, 1).click();
      await expect(topics).toHaveCount(0);
      await expect(page.getByTestId('topic-heading')).toHaveText(byIndex(1).name);
    });

    // Behaviour the layout does not change: checked at one width (BEHAVIOUR_WIDTH, e2e/support/app.ts).
    if (name === BEHAVIOUR_WIDTH) {
      test('progress: completed sets get ✅, the next set gets the dot, feedback-gated sets ask for feedback first', async ({ page }) => {
        const email = uniqueEmail('progress');
        const gated = needsFeedback();
        await login(server, email);
        for (let index = 1; index < gated.index; index++)
          await completeSet(server, email, byIndex(index).id, 'A thorough answer with examples and trade-offs.');
        const topics = await openTopics(page, server, email);
        for (let index = 1; index < gated.index; index++) await expect(tile(topics, index)).toContainText('✅');
        await expect(tile(topics, gated.index)).toContainText('Please provide feedback first');
        await expect(tile(topics, gated.index)).toContainText('💬');
        await expect(topics.getByTestId('next-dot')).toHaveCount(0);

        await tile(topics, gated.index).click();
        const feedback = page.getByRole('dialog', { name: 'Share Your Feedback' });
        await expect(feedback).toBeVisible();
        const box = feedback.getByLabel('Your feedback');
        const submit = feedback.getByRole('button', { name: 'Submit Feedback' });
        const counter = feedback.getByTestId('feedback-counter');
        await expect(counter).toContainText('0/20 minimum');
        await expect(counter).toContainText('0/1000');
        await expect(submit).toBeDisabled();

        await box.fill('   too short    ');
        await expect(counter).toContainText('9/20 minimum');
        await expect(counter).toContainText('16/1000');
        await expect(feedback.getByRole('alert')).toHaveText('Feedback must be at least 20 characters');
        await expect(submit).toBeDisabled();

        await box.fill('x'.repeat(1200));
        await expect(box).toHaveValue('x'.repeat(1000));
        await expect(counter).toContainText('1000/1000');

        await box.fill('The questions were clear and the pace felt right.');
        await expect(feedback.getByRole('alert')).toHaveCount(0);
        await expect(submit).toBeEnabled();
        await submit.click();
        await expect(feedback).toHaveCount(0);
        await expect(topics).toHaveCount(0);
        await expect(page.getByTestId('topic-heading')).toHaveText(gated.name);

        // The topic now counts as having feedback: the tile is the next available one.
        await page.getByRole('button', { name: 'Change topic' }).click();
        await expect(tile(topics, gated.index).getByTestId('next-dot')).toBeVisible();
        await expect(tile(topics, gated.index)).not.toContainText('Please provide feedback first');
      });

      test('a failed feedback call keeps the dialog open with the server error', async ({ page }) => {
        const email = uniqueEmail('fberr');
        const gated = needsFeedback();
        await login(server, email);
        for (let index = 1; index < gated.index; index++) await completeSet(server, email, byIndex(index).id, 'An answer.');
        const topics = await openTopics(page, server, email);
        await page.route('**/user/feedback', (route) => route.fulfill({ status: 500, json: { error: 'Feedback could not be saved.' } }));
        await tile(topics, gated.index).click();
        const feedback = page.getByRole('dialog', { name: 'Share Your Feedback' });
        await feedback.getByLabel('Your feedback').fill('This is long enough to be sent to the server.');
        await feedback.getByRole('button', { name: 'Submit Feedback' }).click();
        await expect(feedback.getByRole('alert')).toHaveText('Failed to send feedback: Feedback could not be saved.');
        await page.keyboard.press('Escape');
        await expect(feedback).toHaveCount(0);
        await expect(topics).toBeVisible();
      });

      test('an active pro user can pick a premium set', async ({ page }) => {
        const email = uniqueEmail('pro');
        await login(server, email);
        await setPlan(server, email, { isPro: true });
        const topics = await openTopics(page, server, email);
        await expect(tile(topics, premium().index)).not.toContainText('Premium');
        await expect(tile(topics, premium().index)).not.toContainText('🔒');
      });

      test('/test/question-set-item shows the tiles of a free, a pro and a new user', async ({ page }) => {
        await page.goto(server.url + '/test/question-set-item');
        const free = page.getByRole('region', { name: 'Free user' });
        const pro = page.getByRole('region', { name: 'Pro user' });
        const fresh = page.getByRole('region', { name: 'New user' });
        await expect(free.getByTestId('tile-1')).toContainText('✅');
        await expect(free.getByTestId('tile-3')).toContainText('Please provide feedback first');
        await expect(free.getByTestId('tile-4')).toContainText('Premium');
        await expect(free.getByTestId('tile-5')).toContainText('Go through previous questions first');
        await expect(pro.getByTestId('tile-3')).toContainText('✅');
        await expect(pro.getByTestId('tile-4')).not.toContainText('Premium');
        await expect(pro.getByTestId('tile-4').getByTestId('next-dot')).toBeVisible();
        await expect(fresh.getByTestId('tile-1').getByTestId('next-dot')).toBeVisible();
        await expect(fresh.getByTestId('tile-2')).toContainText('Go through previous questions first');
        await expect(page.getByText('✅')).toHaveCount(5);
      });
    }
  });
}
