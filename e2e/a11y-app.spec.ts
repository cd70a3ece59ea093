/**
 * Accessibility of the interviewee app in Debian Chromium against the real server: axe-core on
 * every screen and dialog at phone and desktop width (no WCAG 2.1 A/AA finding, no serious or
 * critical one: expectAccessible in e2e/support/a11y.ts), and keyboard use (Tab reaches the
 * controls, Enter and Space activate them, Escape closes dialogs, focus stays inside dialogs).
 */
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { expectFocusTrapped, expectAccessible, tabTo } from './support/a11y';
import {
  PRODUCT,
  WIDTHS,
  completeSet,
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
import { login } from '../test-support/fixtures';

let server: RunningServer;
let sets: SetInfo[];
/** Sets 1-5 completed: history cards, and the feedback-gated set is reachable. */
const veteran = uniqueEmail('a11y-veteran');

test.beforeAll(async () => {
  server = await startAppServer();
  sets = (await questionSets(server)).sort((a, b) => a.index - b.index);
  await login(server, veteran);
  for (const set of sets.filter((s) => !s.isPremium && !s.requiresFeedback).slice(0, 5)) {
    await completeSet(
      server,
      veteran,
      set.id,
      `I would explain ${set.name} with a concrete example, the trade-offs and how I would test it.`,
    );
  }
});
test.afterAll(async () => {
  await server?.stop();
});

const topicsDialog = (page: Page) => page.getByRole('dialog', { name: 'Choose an Interview Topic' });
const setBy = (predicate: (s: SetInfo) => boolean): SetInfo => {
  const set = sets.find(predicate);
  if (!set) throw new Error('no such set in the catalogue');
  return set;
};

/** Logged in (returning user), topic list closed by picking set 1: the main screen. */
async function mainScreen(page: Page, email = uniqueEmail('a11y')): Promise<void> {
  await loginAs(page, server, email);
  await page.goto(server.url + '/');
  await topicsDialog(page).getByTestId('tile-1').click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

for (const { name, viewport } of WIDTHS) {
  test.describe(`axe-core: every screen and dialog of the interviewee app (${name})`, () => {
    test.use({ viewport });

    test('email dialog, then the welcome dialog of a new user', async ({ page }) => {
      await page.goto(server.url + '/');
      const email = page.getByRole('dialog', { name: 'Enter your email to continue' });
      await expect(email).toBeVisible();
      await expectAccessible(page, 'email dialog');
      await email.getByLabel('Email').fill('not an email');
      await expectAccessible(page, 'email dialog with an invalid address');
      await email.getByLabel('Email').fill(uniqueEmail('a11y-new'));
      await email.getByLabel('Email').press('Enter');
      await expect(page.getByRole('dialog', { name: `Welcome to ${PRODUCT} Feedback!` })).toBeVisible();
      await expectAccessible(page, 'welcome dialog');
    });

    test('topic list, main screen, support, upgrade', async ({ page }) => {
      await loginAs(page, server, uniqueEmail('a11y-topics'));
      await page.goto(server.url + '/');
      await expect(topicsDialog(page)).toBeVisible();
      await expectAccessible(page, 'topic list');
      await topicsDialog(page)
        .getByTestId(`tile-${setBy((s) => s.isPremium).index}`)
        .click();
      await expect(page.getByRole('dialog', { name: 'Upgrade to Pro' })).toBeVisible();
      await expectAccessible(page, 'upgrade dialog');
      await page.getByRole('dialog', { name: 'Upgrade to Pro' }).getByRole('button', { name: 'Got it!' }).click();
      await topicsDialog(page).getByTestId('tile-1').click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'start session' })).toBeVisible();
      await expectAccessible(page, 'main screen');
      await page.getByRole('button', { name: 'Live Support' }).click();
      await expect(page.getByRole('dialog', { name: 'Need some help?' })).toBeVisible();
      await expectAccessible(page, 'support dialog');
    });

    test('feedback dialog, empty and with an error', async ({ page }) => {
      await loginAs(page, server, veteran);
      await page.goto(server.url + '/');
      await topicsDialog(page)
        .getByTestId(`tile-${setBy((s) => s.requiresFeedback && !s.isPremium).index}`)
        .click();
      const feedback = page.getByRole('dialog', { name: 'Share Your Feedback' });
      await expect(feedback).toBeVisible();
      await expectAccessible(page, 'feedback dialog');
      await feedback.getByLabel('Your feedback').fill('too short');
      await feedback.getByLabel('Your feedback').blur();
      await expectAccessible(page, 'feedback dialog with a short text');
    });

    test('history with cards, the results overlay, empty history, logged out', async ({ page }) => {
      await routeDogApi(page);
      await loginAs(page, server, veteran);
      await page.goto(server.url + '/history');
      await expect(page.getByTestId('history-card')).toHaveCount(5);
      await expectAccessible(page, 'history with cards');
      await page.getByTestId('history-card').first().click();
      const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
      await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible();
      await expectAccessible(page, 'results overlay');
    });

    test('a live session (bot speaking, typed answers), the loading results overlay and the finished one', async ({ page }) => {
      await routeDogApi(page);
      await controllableSpeech(page);
      await mainScreen(page);
      // Started and stopped from the keyboard: Enter on 'start session', Space on 'disconnect'.
      await page.getByRole('button', { name: 'start session' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
      await expect(page.getByTestId('status-indicator')).toHaveText('Bot is speaking...');
      await expectAccessible(page, 'session, bot speaking');
      await finishSpeech(page);
      await expect(page.getByTestId('status-indicator')).toHaveText('Connected');
      const box = page.getByLabel('Type your answer');
      await box.fill('A closure keeps the variables of its outer function alive.');
      await box.press('Enter');
      await expect(page.getByTestId('message-card')).toHaveCount(2);
      await finishSpeech(page);
      await expectAccessible(page, 'session with messages and a typed answer');

      let releaseRating: () => void = () => {};
      const held = new Promise<void>((resolve) => (releaseRating = resolve));
      await page.route('**/interview/rate-transcript', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'disconnect' }).focus();
      await page.keyboard.press('Space');
      const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
      await expect(overlay.getByTestId('dog-picture')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Loading Results ...' })).toBeDisabled();
      await expectAccessible(page, 'results overlay while loading');
      releaseRating();
      await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
      await expectAccessible(page, 'results overlay after a session');
    });

    test('empty history', async ({ page }) => {
      await loginAs(page, server, uniqueEmail('a11y-empty'));
      await page.goto(server.url + '/history');
      await expect(page.getByRole('heading', { name: 'No Interview History' })).toBeVisible();
      await expectAccessible(page, 'empty history');
    });

    test('logged-out history', async ({ page }) => {
      await page.goto(server.url + '/history');
      await expect(page.getByRole('heading', { name: 'Please Log In' })).toBeVisible();
      await expectAccessible(page, 'logged-out history');
    });

    test('/test/question-set-item', async ({ page }) => {
      await page.goto(server.url + '/test/question-set-item');
      await expect(page.getByTestId('tile-1').first()).toBeVisible();
      await expectAccessible(page, 'tile test page');
    });

    test('the router fallback', async ({ page }) => {
      await page.goto(server.url + '/no/such/page');
      await expect(page.getByText('Unexpected Application Error!')).toBeVisible();
      await expectAccessible(page, 'router fallback');
    });
  });
}

test.describe('keyboard', () => {
  test('email dialog: focus starts in the field, stays in the dialog, Enter submits', async ({ page }) => {
    await page.goto(server.url + '/');
    const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
    await expect(dialog.getByLabel('Email')).toBeFocused();
    await expectFocusTrapped(page, dialog);
    await dialog.getByLabel('Email').focus();
    await page.keyboard.type(uniqueEmail('a11y-keys'));
    await page.keyboard.press('Enter');
    const welcome = page.getByRole('dialog', { name: `Welcome to ${PRODUCT} Feedback!` });
    await expect(welcome).toBeVisible();
    await expectFocusTrapped(page, welcome);
    await tabTo(page, welcome.getByRole('button', { name: 'Got it!' }));
    await page.keyboard.press('Enter');
    await expect(welcome).toHaveCount(0);
  });

  test('topic list: tiles are reachable by Tab, Enter picks one, Escape closes the list', async ({ page }) => {
    await loginAs(page, server, uniqueEmail('a11y-tiles'));
    await page.goto(server.url + '/');
    const topics = topicsDialog(page);
    await expect(topics).toBeVisible();
    await expectFocusTrapped(page, topics, 20);
    await tabTo(page, topics.getByTestId('tile-1'));
    await page.keyboard.press('Enter');
    await expect(topics).toHaveCount(0);
    await expect(page.getByTestId('topic-heading')).toHaveText(setBy((s) => s.index === 1).name);
    await page.getByRole('button', { name: 'Change topic' }).focus();
    await page.keyboard.press('Space');
    await expect(topicsDialog(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(topicsDialog(page)).toHaveCount(0);
  });

  test('main screen: Tab reaches every control in order; Enter and Space open dialogs; Escape closes and focus returns', async ({
    page,
  }) => {
    await mainScreen(page);
    await page.locator('body').focus();
    const support = page.getByRole('button', { name: 'Live Support' });
    const how = page.getByRole('button', { name: 'How does it work?' });
    const start = page.getByRole('button', { name: 'start session' });
    const order: number[] = [];
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    order.push(await tabTo(page, page.getByRole('link', { name: `${PRODUCT} Feedback` })));
    order.push(order[0]! + (await tabTo(page, page.getByRole('link', { name: 'History' }))));
    order.push(order[1]! + (await tabTo(page, support)));
    order.push(order[2]! + (await tabTo(page, how)));
    order.push(order[3]! + (await tabTo(page, start)));
    // One pass through the page in reading order: top bar, body, bottom bar, with no detours.
    expect(order[4]).toBeLessThanOrEqual(8);
    console.log(
      `a11y: main screen Tab stops: home ${order[0]}, history ${order[1]}, support ${order[2]}, how ${order[3]}, start ${order[4]}`,
    );

    await support.focus();
    await page.keyboard.press('Enter');
    const help = page.getByRole('dialog', { name: 'Need some help?' });
    await expect(help).toBeVisible();
    await expectFocusTrapped(page, help);
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);
    await expect(support).toBeFocused();

    await how.focus();
    await page.keyboard.press('Space');
    const welcome = page.getByRole('dialog', { name: `Welcome to ${PRODUCT} Feedback!` });
    await expect(welcome).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(welcome).toHaveCount(0);
    await expect(how).toBeFocused();
  });

  test('upgrade and feedback dialogs: trapped focus, Escape closes, feedback is typed and sent by keyboard', async ({ page }) => {
    await loginAs(page, server, veteran);
    await page.goto(server.url + '/');
    const topics = topicsDialog(page);
    await tabTo(page, topics.getByTestId(`tile-${setBy((s) => s.isPremium).index}`));
    await page.keyboard.press('Enter');
    const upgrade = page.getByRole('dialog', { name: 'Upgrade to Pro' });
    await expect(upgrade).toBeVisible();
    await expectFocusTrapped(page, upgrade);
    await page.keyboard.press('Escape');
    await expect(upgrade).toHaveCount(0);
    await expect(topics).toBeVisible();

    const gated = setBy((s) => s.requiresFeedback && !s.isPremium);
    await topics.getByTestId(`tile-${gated.index}`).focus();
    await page.keyboard.press('Space');
    const feedback = page.getByRole('dialog', { name: 'Share Your Feedback' });
    await expect(feedback).toBeVisible();
    await expectFocusTrapped(page, feedback);
    await feedback.getByLabel('Your feedback').focus();
    await page.keyboard.type('The questions were clear and the pace felt right to me.');
    await tabTo(page, feedback.getByRole('button', { name: 'Submit Feedback' }));
    await page.keyboard.press('Enter');
    await expect(feedback).toHaveCount(0);
    await expect(page.getByTestId('topic-heading')).toHaveText(gated.name);
  });

  test('history: cards open the results overlay by keyboard; focus stays in it; Continue by keyboard', async ({ page }) => {
    await routeDogApi(page);
    await loginAs(page, server, veteran);
    await page.goto(server.url + '/history');
    const card = page.getByTestId('history-card').first();
    await tabTo(page, card);
    await page.keyboard.press('Enter');
    const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
    await expect(overlay).toBeVisible();
    await expectFocusTrapped(page, overlay);
    // The collapsible 'Model Answers' opens with Enter like a button.
    const summary = overlay.locator('summary', { hasText: 'Model Answers' });
    await tabTo(page, summary);
    await page.keyboard.press('Enter');
    await expect(overlay.locator('details', { has: page.locator('summary', { hasText: 'Model Answers' }) })).toHaveAttribute('open', '');
    await tabTo(page, overlay.getByRole('button', { name: 'Continue' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/history|\/$/);
  });
});
