/**
 * Browser-speech mode end to end, with NO key configured: the real server (scripted interviewer,
 * rubric rater) and the built web app in Debian Chromium. One interview is answered by typing in
 * a browser without speech recognition (as Firefox), one through a scripted stand-in for the
 * browser's recogniser (Chromium's own needs Google's cloud service, unreachable here).
 */
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { CLOSING_DONE, CLOSING_STOP } from '../server/providers/interviewer/scripted-interviewer-lines';
import { speakable } from '../server/providers/interviewer/speakable';
import { CONNECTION_LOST_CHOICE } from '../web/src/features/interview/session-controller';
import { openAdmin } from './support/admin';
import { expectAccessible } from './support/a11y';
import { startServer, type RunningServer } from '../test-support/server-process';
import { firstSetWithStrongAnswers, withoutSpeechRecognition, type SetInfo } from './support/strong-answers';
import { call, login, wholeEvent } from '../test-support/fixtures';

// The transport's texts (copied: the web module needs Vite's import.meta.env to load).
const NO_RECOGNITION_NOTICE = 'This browser cannot recognise speech. Type your answers in the box below and press Send.';
const TYPED_START_STEP =
  'Press Start Session to begin. This browser cannot recognise speech, so you type your answers and no microphone is used.';
const TYPED_ANSWERS_NOTICE =
  'This browser cannot recognise speech: you will type your answers. In Chrome, Edge or Safari you can speak them.';

let server: RunningServer;
let jsSet: SetInfo;
let answers: string[];

test.beforeAll(async () => {
  server = await startServer();
  ({ set: jsSet, answers } = await firstSetWithStrongAnswers(server));
});

test.afterAll(async () => {
  await server?.stop();
});

/** Logs in through the product's own call, stores the email as the app does, and picks set 1. */
async function openSessionScreen(page: Page, email: string): Promise<void> {
  await login(server, email);
  await page.addInitScript((e) => window.localStorage.setItem('userEmail', e), email);
  await page.goto(server.url);
  await page.getByTestId(`tile-${jsSet.index}`).click();
  await expect(page.getByTestId('topic-heading')).toHaveText(jsSet.name);
  await page.getByRole('button', { name: 'start session' }).click();
}

const latestCard = (page: Page) => page.getByTestId('message-card').last();

/** Which question the interviewer's line asks (null for a follow-up or a closing remark). */
function questionIndexOf(line: string): number | null {
  const i = jsSet.questions.findIndex((q) => line.includes(speakable(q)));
  return i < 0 ? null : i;
}

async function ratedEventTranscript(email: string): Promise<Array<{ role: string; transcript: string }>> {
  const admin = { headers: { 'x-admin-secret': server.adminSecret } };
  const events = await call<Array<{ id: number; userEmail: string; eventType: string }>>(server, 'GET', '/api/events', admin);
  // The list carries previews: the whole transcript comes with the event's details.
  const row = events.body.find((e) => e.userEmail === email && e.eventType === 'RATE');
  const rate = await wholeEvent<{ transcript: unknown }>(server, row, admin);
  const transcript = typeof rate?.transcript === 'string' ? (JSON.parse(rate.transcript) as unknown) : rate?.transcript;
  return (transcript ?? []) as Array<{ role: string; transcript: string }>;
}

async function expectFeedbackAndHistory(page: Page): Promise<void> {
  const overlay = page.getByTestId('results-overlay');
  await expect(overlay.getByRole('heading', { name: `Interview feedback: ${jsSet.name}` })).toBeVisible({ timeout: 20_000 });
  await expect(overlay.getByRole('heading', { name: 'Question by question' })).toBeVisible();
  await expect(overlay.getByText(/^Score: \d+\/100$/)).toBeVisible();
  await overlay.getByRole('button', { name: 'Continue' }).click();
  await page.goto(`${server.url}/history`);
  const cards = page.getByTestId('history-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.last()).toContainText(jsSet.name);
}

test('a whole interview answered by typing, in a browser that cannot recognise speech', async ({ page }) => {
  const email = 'typist@example.com';
  await withoutSpeechRecognition(page);
  await openSessionScreen(page, email);

  await expect(latestCard(page)).toContainText(jsSet.questions[0] ?? '<no question>');
  await expect(page.getByTestId('session-notice')).toContainText(NO_RECOGNITION_NOTICE);
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();

  const box = page.getByLabel('Type your answer');
  const sent: string[] = [];
  let current = 0;
  // Each question once plus at most one follow-up each: the loop is bounded by the interviewer's rules.
  for (let turn = 0; turn < jsSet.questions.length * 2; turn++) {
    const line = (await latestCard(page).textContent()) ?? '';
    if (line.includes(CLOSING_DONE)) break;
    current = questionIndexOf(line) ?? current;
    const answer = answers[current] ?? '';
    await box.fill(answer);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(box).toHaveValue('');
    // The candidate's own words stay on screen at once (docs/product-rules.md, Session lifecycle).
    await expect(page.getByTestId('your-answer').last()).toHaveText(`You typed: ${answer}`);
    if (turn === 0) await page.screenshot({ path: 'test-results/shots/your-answers.png', fullPage: true });
    sent.push(answer);
    // The first reply waits for the rater's model to load in its worker (the scripted interviewer
    // judges each answer): a few seconds of CPU, far more when CI runs every suite at once.
    await expect(latestCard(page)).not.toHaveText(line, { timeout: 60_000 });
  }

  // Closed by the server's close_session: the closing remark on screen, then the rating.
  await expect(latestCard(page)).toContainText(CLOSING_DONE);
  await expect(page.getByTestId('results-overlay')).toBeVisible({ timeout: 15_000 });
  const transcript = await ratedEventTranscript(email);
  expect(transcript[0]?.role).toBe('interviewer');
  expect(transcript.filter((t) => t.role === 'interviewee').map((t) => t.transcript)).toEqual(sent);
  for (const q of jsSet.questions) expect(transcript.some((t) => t.role === 'interviewer' && t.transcript.includes(q))).toBe(true);
  await expectFeedbackAndHistory(page);

  // The admin event details name the rater (no LLM configured: the rubric).
  const events = await call<Array<{ id: number; userEmail: string; eventType: string }>>(server, 'GET', '/api/events', {
    headers: { 'x-admin-secret': server.adminSecret },
  });
  const rated = events.body.find((e) => e.userEmail === email && e.eventType === 'RATE');
  await openAdmin(page, server, 'events');
  await page
    .locator('tbody tr')
    .filter({ has: page.getByRole('cell', { name: String(rated?.id), exact: true }) })
    .getByRole('button', { name: 'Details' })
    .click();
  await expect(page.getByRole('dialog', { name: 'Event Details' }).getByTestId('detail-rater')).toHaveText('rubric');
});

/** A scripted stand-in for the browser's recogniser, driven from the test through window.__speech. */
function installFakeRecognition(): void {
  type Result = { isFinal: boolean; length: number; 0: { transcript: string } };
  const state = { active: null as FakeRecognition | null, starts: 0, aborts: 0 };
  class FakeRecognition {
    continuous = false;
    interimResults = false;
    lang = '';
    onresult: ((e: { resultIndex: number; results: Result[] }) => void) | null = null;
    onerror: ((e: { error: string }) => void) | null = null;
    onend: (() => void) | null = null;
    results: Result[] = [];
    running = false;
    start() {
      if (this.running) throw new DOMException('recognition has already started', 'InvalidStateError');
      this.running = true;
      this.results = [];
      state.active = this;
      state.starts++;
    }
    stop() {
      this.finish();
    }
    abort() {
      state.aborts++;
      this.finish();
    }
    private finish() {
      if (!this.running) return;
      this.running = false;
      if (state.active === this) state.active = null;
      setTimeout(() => this.onend?.(), 0);
    }
  }
  const w = window as unknown as Record<string, unknown>;
  w.SpeechRecognition = FakeRecognition;
  w.webkitSpeechRecognition = FakeRecognition;
  w.__speech = {
    state,
    listening: () => state.active?.running === true,
    hear(transcript: string, isFinal: boolean) {
      const r = state.active;
      if (!r) throw new Error('The recogniser is not listening.');
      const last = r.results.at(-1);
      const result: Result = { isFinal, length: 1, 0: { transcript } };
      if (last && !last.isFinal) r.results[r.results.length - 1] = result;
      else r.results.push(result);
      r.onresult?.({ resultIndex: r.results.length - 1, results: [...r.results] });
    },
  };
}

type SpeechDriver = { listening(): boolean; hear(text: string, isFinal: boolean): void; state: { starts: number; aborts: number } };
const listening = (page: Page) => page.evaluate(() => (window as unknown as { __speech: SpeechDriver }).__speech.listening());
const hear = (page: Page, text: string, isFinal: boolean) =>
  page.evaluate(([t, f]) => (window as unknown as { __speech: SpeechDriver }).__speech.hear(t, f), [text, isFinal] as const);

test('an interview answered by voice through the recogniser, closed when the candidate asks to stop', async ({ page }) => {
  const email = 'speaker@example.com';
  await page.addInitScript(installFakeRecognition);
  await openSessionScreen(page, email);

  await expect(latestCard(page)).toContainText(jsSet.questions[0] ?? '<no question>');
  await expect.poll(() => listening(page)).toBe(true);
  await expect(page.getByText(NO_RECOGNITION_NOTICE)).toHaveCount(0);

  const answer = answers[0] ?? '';
  const words = answer.split(' ');
  const half = words.slice(0, Math.ceil(words.length / 2)).join(' ');
  await hear(page, half, false);
  await expect(page.getByTestId('interim-text')).toHaveText(half);
  await hear(page, answer, true);
  await expect(page.getByTestId('interim-text')).toHaveText(answer);
  // After the pause the answer goes to the interviewer, whose next line appears.
  await expect(latestCard(page)).toContainText(jsSet.questions[1] ?? '<no question>');
  await expect(page.getByTestId('interim-text')).toHaveCount(0);

  await expect.poll(() => listening(page)).toBe(true);
  await hear(page, 'Sorry, I want to stop the interview now.', true);
  // close_session: the closing remark, the microphone off, then rating and the overlay.
  await expect(latestCard(page)).toContainText(CLOSING_STOP);
  expect(await listening(page)).toBe(false);
  await expect(page.getByTestId('results-overlay')).toBeVisible({ timeout: 15_000 });

  const transcript = await ratedEventTranscript(email);
  expect(transcript.filter((t) => t.role === 'interviewee').map((t) => t.transcript)).toEqual([
    answer,
    'Sorry, I want to stop the interview now.',
  ]);
  await expectFeedbackAndHistory(page);
});

test("Chromium's own recogniser failing here (no speech service) leads to the plain typing notice", async ({ page }) => {
  const email = 'offline-recogniser@example.com';
  await openSessionScreen(page, email);
  await expect(latestCard(page)).toContainText(jsSet.questions[0] ?? '<no question>');
  // Chromium has webkitSpeechRecognition, but its cloud service is unreachable from this machine.
  expect(await page.evaluate(() => 'webkitSpeechRecognition' in window)).toBe(true);
  await expect(page.getByTestId('session-notice')).toContainText(
    'Speech cannot be recognised in this browser right now. Type your answers in the box below and press Send.',
  );
  await page.getByLabel('Type your answer').fill(answers[0] ?? '');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(latestCard(page)).toContainText(jsSet.questions[1] ?? '<no question>');
});

test('leaving for History mid-interview keeps what was said: it is rated and listed', async ({ page }) => {
  const email = 'leaver@example.com';
  await openSessionScreen(page, email);
  await expect(latestCard(page)).toContainText(jsSet.questions[0] ?? '<no question>');
  await page.getByLabel('Type your answer').fill(answers[0] ?? '');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(latestCard(page)).toContainText(jsSet.questions[1] ?? '<no question>');

  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(`${server.url}/history`);
  // Rated in the background; the history lists it once the rating is stored.
  await expect
    .poll(async () => (await ratedEventTranscript(email)).filter((t) => t.role === 'interviewee').map((t) => t.transcript), {
      timeout: 15_000,
    })
    .toEqual([answers[0]]);
  // The stored transcript comes before the rating's feedback (the rater's workers take a moment):
  // History lists the interview once its feedback is stored, so reload until then.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('history-card')).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId('history-card').first()).toContainText(jsSet.name);
});

test('a lost connection resumes the same interview: the unanswered answer sent again, Reconnect after going offline, one credit, one rating of all of it', async ({
  page,
  context,
  consoleErrors,
}) => {
  consoleErrors.allow(/^(Voice connection failed|Reconnecting failed): /);
  consoleErrors.allow(/^Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)/);
  const email = 'reconnector@example.com';
  await withoutSpeechRecognition(page);
  await openSessionScreen(page, email);
  const box = page.getByLabel('Type your answer');
  const sent: string[] = [];
  /** Answers the question on the latest card by typing; returns the index answered. */
  const answerLatest = async (): Promise<number> => {
    const line = (await latestCard(page).textContent()) ?? '';
    const index = questionIndexOf(line) ?? 0;
    await box.fill(answers[index] ?? '');
    await page.getByRole('button', { name: 'Send' }).click();
    sent.push(answers[index] ?? '');
    return index;
  };

  await expect(latestCard(page)).toContainText(jsSet.questions[0] ?? '<no question>');
  await answerLatest();
  await expect(latestCard(page)).toContainText(jsSet.questions[1] ?? '<no question>');

  // 1. The next answer's turn call does not get through: reconnected by itself, the answer sent again.
  let dropped = false;
  await page.route('**/interview/turn', async (route) => {
    if (dropped) return route.continue();
    dropped = true;
    return route.abort('failed');
  });
  await answerLatest();
  await expect(latestCard(page)).toContainText(`Welcome back. `);
  await expect(latestCard(page)).toContainText(jsSet.questions[2] ?? '<no question>');
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();

  // 2. The device goes offline: the reconnect choice; Reconnect once back online.
  await context.setOffline(true);
  const choice = page.getByRole('group', { name: 'Connection lost' });
  await expect(choice.getByRole('alert')).toHaveText(CONNECTION_LOST_CHOICE);
  await expect(page.getByTestId('status-indicator')).toHaveText('Not Connected');
  await expect(box).toHaveCount(0);
  await expect(choice.getByRole('button', { name: 'Reconnect' })).toBeFocused();
  await expectAccessible(page, 'the reconnect choice');
  await context.setOffline(false);
  await choice.getByRole('button', { name: 'Reconnect' }).click();
  await expect(latestCard(page)).toContainText(`Welcome back. `);
  await expect(latestCard(page)).toContainText(jsSet.questions[2] ?? '<no question>');

  // The rest of the interview as usual.
  for (let turn = 0; turn < jsSet.questions.length * 2; turn++) {
    const line = (await latestCard(page).textContent()) ?? '';
    if (line.includes(CLOSING_DONE)) break;
    await answerLatest();
    await expect(box).toHaveValue('');
    await expect(latestCard(page)).not.toHaveText(line);
  }
  await expect(page.getByTestId('results-overlay')).toBeVisible({ timeout: 15_000 });
  const transcript = await ratedEventTranscript(email);
  expect(transcript.filter((t) => t.role === 'interviewee').map((t) => t.transcript)).toEqual(sent);
  expect(transcript.filter((t) => t.role === 'interviewer' && t.transcript.startsWith('Welcome back.'))).toHaveLength(2);
  const events = await call<Array<{ userEmail: string; eventType: string }>>(server, 'GET', '/api/events', {
    headers: { 'x-admin-secret': server.adminSecret },
  });
  expect(
    events.body
      .filter((e) => e.userEmail === email)
      .map((e) => e.eventType)
      .sort(),
  ).toEqual(['RATE', 'START']);
});

test('a browser that cannot recognise speech is told before a credit is spent: on the welcome dialog and beside the start button', async ({
  page,
}) => {
  const email = 'no-recogniser@example.com';
  await withoutSpeechRecognition(page);
  let tokens = 0;
  page.on('request', (request) => {
    if (request.url().includes('/interview/token')) tokens += 1;
  });
  await page.goto(server.url);
  const dialog = page.getByRole('dialog', { name: 'Enter your email to continue' });
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const welcome = page.getByRole('dialog', { name: /^Welcome to / });
  await expect(welcome).toContainText(TYPED_START_STEP);
  await expect(welcome).not.toContainText('Your microphone is used');
  await welcome.getByRole('button', { name: 'Got it!' }).click();
  await expect(page.getByTestId('typed-answers-notice')).toHaveText(TYPED_ANSWERS_NOTICE);
  expect(tokens).toBe(0);
});
