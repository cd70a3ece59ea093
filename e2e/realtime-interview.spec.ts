/**
 * The product's main job in OpenAI realtime mode, end to end: the real server (OPENAI_API_KEY set,
 * OPENAI_BASE_URL = the local realtime peer), the built app in Debian Chromium, a fake microphone
 * fed by an espeak-ng speech WAV, WebRTC + Opus to the werift peer.
 */
import { expect, test, type Page, type Request } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import { formatDuration } from '../domain/format';
import { PROVIDER_TEXTS } from '../server/providers/openai-realtime';
import {
  FOUNDERS, loginAs, questionSets, routeDogApi, setPlan, startAppServer, uniqueEmail, type RunningServer, type SetInfo,
} from './fixtures/app-fixtures';
import { holdAt } from './realtime-peer/gates';
import { defaultPeerOptions } from './realtime-peer/options';
import { startRealtimePeer, type RealtimePeer } from './realtime-peer/server';
import { makeSpeechWav } from './realtime-peer/speech-wav';

const wav = makeSpeechWav();
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'],
  },
});

interface RatePayload {
  transcripts: Array<{ role: string; transcript: string; at?: number }>;
  durationSeconds: number;
  questionSetId: number;
  sessionId?: string;
}

let peer: RealtimePeer;
let server: RunningServer;
let first: SetInfo;

test.beforeAll(async () => {
  peer = await startRealtimePeer();
  server = await startAppServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: peer.baseUrl });
  const set = (await questionSets(server)).find((s) => s.index === 1);
  if (!set) throw new Error('The catalogue has no set 1');
  first = set;
});
test.afterAll(async () => {
  await server?.stop();
  await peer?.close();
});
test.beforeEach(() => {
  peer.options = { ...defaultPeerOptions(), maxQuestions: 3, speechMs: 1500 };
});

/** Logged in, set 1 selected, on the main screen. */
async function ready(page: Page, email = uniqueEmail('realtime')): Promise<string> {
  await routeDogApi(page);
  await loginAs(page, server, email);
  await page.goto(server.url + '/');
  await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
  await expect(page.getByTestId('topic-heading')).toHaveText(first.name);
  return email;
}

function ratePayloads(page: Page): RatePayload[] {
  const payloads: RatePayload[] = [];
  page.on('request', (request: Request) => {
    if (request.url().endsWith('/interview/rate-transcript')) payloads.push(request.postDataJSON() as RatePayload);
  });
  return payloads;
}

test('a whole voice interview: connected, cards, speaking, close_session, overlay, history', async ({ page }) => {
  test.setTimeout(120_000);
  await ready(page);
  const payloads = ratePayloads(page);
  const rated = page.waitForResponse((r) => r.url().endsWith('/interview/rate-transcript'));
  const secretsBefore = peer.secretRequests.length;

  // Hold the greeting while it is spoken, and the second question before it starts, to see both states.
  const gates = holdAt('speaking:1', 'before:2');
  peer.options.turnGate = gates.turnGate;

  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
  const status = page.getByTestId('status-indicator');
  const cards = page.getByTestId('message-card');
  await expect(status).toHaveText('Bot is speaking...');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(`Hello and welcome to your practice interview. ${first.questions[0]}`);
  gates.release('speaking:1');
  await expect(status).toHaveText('Connected');
  await expect(cards).toHaveCount(1);
  gates.release('before:2');

  // The peer asks three questions, then calls close_session; the app ends the session by itself.
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay).toBeVisible({ timeout: 60_000 });
  // Four interviewer lines were spoken (three questions and the closing remark); the last three are
  // shown, newest first.
  await expect(cards).toHaveCount(3);
  await expect(cards.nth(0)).toContainText(defaultPeerOptions().closingRemark);
  await expect(cards.nth(1)).toContainText(first.questions[2]!);
  await expect(cards.nth(2)).toContainText(first.questions[1]!);

  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  await expect(overlay.locator('.markdown').first()).not.toBeEmpty();
  const rating = (await (await rated).json()) as { score: number };

  // What was said went to the rater: the interviewer lines and the candidate's heard answers.
  expect(payloads).toHaveLength(1);
  const payload = payloads[0]!;
  expect(payload.questionSetId).toBe(first.id);
  expect(payload.sessionId).toEqual(expect.any(String));
  const interviewer = payload.transcripts.filter((t) => t.role === 'interviewer').map((t) => t.transcript);
  expect(interviewer).toEqual([
    `Hello and welcome to your practice interview. ${first.questions[0]}`,
    first.questions[1],
    first.questions[2],
    defaultPeerOptions().closingRemark,
  ]);
  const answers = payload.transcripts.filter((t) => t.role === 'interviewee').map((t) => t.transcript);
  expect(answers.length).toBeGreaterThanOrEqual(3);
  expect(answers.slice(0, 3)).toEqual(defaultPeerOptions().answers);
  expect(payload.transcripts.every((t) => Number.isInteger(t.at))).toBe(true);
  expect(Number.isInteger(payload.durationSeconds) && payload.durationSeconds >= 4).toBe(true);

  // The server minted exactly one secret and the call is over.
  expect(peer.secretRequests.length).toBe(secretsBefore + 1);
  await expect.poll(() => peer.activeCalls()).toBe(0);

  // A new history card with the score and the duration.
  await page.goto(server.url + '/history');
  const card = page.getByTestId('history-card').first();
  await expect(card).toContainText(first.name);
  await expect(card.getByTestId('history-score')).toHaveText(`${Math.round(rating.score)}%`);
  await expect(card).toContainText(formatDuration(payload.durationSeconds));
});

test('a manual disconnect ends the call and submits what was said', async ({ page }) => {
  peer.options.maxQuestions = null;
  // The second question waits, so the candidate disconnects at a known point.
  const gates = holdAt('before:2');
  peer.options.turnGate = gates.turnGate;
  await ready(page);
  const payloads = ratePayloads(page);
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByTestId('message-card').first()).toContainText(first.questions[0]!);
  await page.getByRole('button', { name: 'disconnect' }).click();
  gates.releaseAll();
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay).toBeVisible();
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => peer.activeCalls()).toBe(0);
  expect(payloads).toHaveLength(1);
  expect(payloads[0]!.transcripts[0]).toMatchObject({
    role: 'interviewer',
    transcript: `Hello and welcome to your practice interview. ${first.questions[0]}`,
  });
  // The interviewer never called close_session in this session.
  expect(peer.calls.at(-1)!.serverEvents.some((e) => JSON.stringify(e).includes('close_session'))).toBe(false);
});

test('out of credits (402): the email dialog with the out-of-tokens text, and no secret minted', async ({ page }) => {
  // The operator set this email's allowance to zero before the candidate's first visit.
  const email = uniqueEmail('broke');
  await setPlan(server, email, { limit: 0 });
  await ready(page, email);
  const before = peer.secretRequests.length;
  await page.getByRole('button', { name: 'start session' }).click();
  const alert = page.getByRole('dialog', { name: 'Enter your email to continue' }).getByRole('alert');
  await expect(alert).toHaveText(`You have run out of tokens. Please contact ${FOUNDERS[0]?.name} or ${FOUNDERS[1]?.name} to get more credits.`);
  expect(peer.secretRequests.length).toBe(before);
});

test('an upstream failure (rejected key): a clear error answer, logged, and the button returns', async ({ page }) => {
  peer.options.secretFailure = 'reject-key';
  await ready(page);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const token = page.waitForResponse((r) => r.url().includes('/interview/token'));
  await page.getByRole('button', { name: 'start session' }).click();
  const answer = await token;
  expect(answer.status()).toBe(502);
  expect(await answer.json()).toEqual({ error: PROVIDER_TEXTS.rejectedKey });
  await expect(page.getByRole('button', { name: 'start session' })).toBeEnabled();
  await expect(page.getByTestId('status-indicator')).toHaveText('Not Connected');
  await expect.poll(() => errors.some((e) => e.includes('Failed to start session'))).toBe(true);
  expect(server.output()).toContain('"upstreamStatus":401');
});

test('a dropped connection ends the session cleanly and still submits what was said', async ({ page }) => {
  peer.options.maxQuestions = null;
  peer.options.midSessionFailure = { afterTurns: 1, kind: 'drop' };
  await ready(page);
  const payloads = ratePayloads(page);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.getByRole('button', { name: 'start session' }).click();
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay).toBeVisible({ timeout: 30_000 });
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  expect(errors.some((e) => e.includes('The connection to the voice service was lost.'))).toBe(true);
  expect(payloads).toHaveLength(1);
  expect(payloads[0]!.transcripts[0]).toMatchObject({ role: 'interviewer', transcript: `Hello and welcome to your practice interview. ${first.questions[0]}` });
});

test('a closing remark still playing after the 4-second close delay is heard to its end', async ({ page }) => {
  test.setTimeout(120_000);
  await ready(page);
  const payloads = ratePayloads(page);
  // Greeting, two questions, then close_session; the closing remark is turn 4. Hold it mid-speech.
  const gates = holdAt('speaking:4');
  peer.options.turnGate = gates.turnGate;
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByTestId('message-card').first()).toContainText(defaultPeerOptions().closingRemark, { timeout: 60_000 });
  await expect(page.getByTestId('status-indicator')).toHaveText('Bot is speaking...');
  // Well past the 4-second delay: the session is still open because the goodbye is still playing.
  await page.waitForTimeout(6_000);
  expect(payloads).toHaveLength(0);
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
  gates.release('speaking:4');
  await expect(page.getByRole('dialog', { name: 'Session Feedback' })).toBeVisible({ timeout: 15_000 });
  expect(payloads).toHaveLength(1);
  expect(payloads[0]!.transcripts.filter((t) => t.role === 'interviewer').at(-1)?.transcript).toBe(defaultPeerOptions().closingRemark);
});
