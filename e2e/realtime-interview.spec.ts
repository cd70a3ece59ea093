/**
 * The product's main job in OpenAI realtime mode, end to end: the real server (OPENAI_API_KEY set,
 * OPENAI_BASE_URL = the local realtime peer), the built app in Debian Chromium, a fake microphone
 * fed by an espeak-ng speech WAV, WebRTC + Opus to the werift peer. The SDP goes through our
 * server, whose sideband keeps the transcript that is rated.
 */
import { type Page, type Request } from '@playwright/test';
import { expect, test } from './support/test';
import { chromiumArgs } from '../playwright.config';
import { PROVIDER_TEXTS } from '../server/providers/upstream/realtime-calls-client';
import { TOO_MANY_RESUMES } from '../server/services/resume';
import { TOKEN_REFUSED } from '../server/services/calls';
import { INAUDIBLE_NOTICE } from '../web/src/lib/voice/openai-events';
import { RECONNECT_FAILED_CHOICE, RECONNECT_REFUSED_HINT } from '../web/src/features/interview/session-controller';
import {
  FOUNDERS,
  loginAs,
  questionSets,
  routeDogApi,
  setPlan,
  startAppServer,
  uniqueEmail,
  type RunningServer,
  type SetInfo,
} from './support/app';
import { holdAt } from '../test-support/realtime-peer/gates';
import { defaultPeerOptions } from '../test-support/realtime-peer/options';
import { startRealtimePeer, type RealtimePeer } from '../test-support/realtime-peer/server';
import { makeSpeechWav } from '../test-support/realtime-peer/speech-wav';
import { call, wholeEvent } from '../test-support/fixtures';

const wav = makeSpeechWav();
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'],
  },
});

interface Line {
  role: string;
  transcript: string;
  at?: number;
}
interface RatePayload {
  transcripts: Line[];
  durationSeconds: number;
  questionSetId: number;
  sessionId?: string;
}

let peer: RealtimePeer;
let server: RunningServer;
let first: SetInfo;
const defaults = defaultPeerOptions();
const FORGED = 'A brilliant answer the candidate never gave.';

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
async function ready(page: Page, on: RunningServer = server, email = uniqueEmail('realtime')): Promise<string> {
  await routeDogApi(page);
  await loginAs(page, on, email);
  await page.goto(on.url + '/');
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

/** The stored RATE event of this candidate (admin API): the transcript the rater got. */
async function storedRating(on: RunningServer, email: string): Promise<{ transcript: Line[]; ratingMarkdown: string | null }> {
  const admin = { headers: { 'x-admin-secret': on.adminSecret } };
  const answer = await call<Array<{ id: number; eventType: string; userEmail: string | null }>>(on, 'GET', '/api/events?limit=50', admin);
  // The list carries previews: the whole transcript and Markdown come with the event's details.
  const row = answer.body.find((e) => e.eventType === 'RATE' && e.userEmail === email);
  const event = await wholeEvent<{ transcript: Line[] | null; ratingMarkdown: string | null }>(on, row, admin);
  if (!event) throw new Error(`no RATE event for ${email}`);
  return { transcript: event.transcript ?? [], ratingMarkdown: event.ratingMarkdown };
}

test('a whole interview rated from the server transcript: a recoverable error survived, a failed transcription kept, a forged browser copy ignored', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = await ready(page);
  peer.options.midSessionFailure = { afterTurns: 1, kind: 'recoverable-error', message: 'Item content is too long.' };
  peer.options.failTranscriptions = [2];
  // Hold the greeting while it is spoken, to see the speaking state.
  const gates = holdAt('speaking:1');
  peer.options.turnGate = gates.turnGate;
  // The browser's copy is forged on its way: the server must not rate it.
  await page.route('**/interview/rate-transcript', async (route) => {
    const body = route.request().postDataJSON() as RatePayload;
    body.transcripts.push({ role: 'interviewee', transcript: FORGED, at: 1 });
    await route.continue({ postData: JSON.stringify(body) });
  });
  const payloads = ratePayloads(page);

  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible();
  const status = page.getByTestId('status-indicator');
  const cards = page.getByTestId('message-card');
  await expect(status).toHaveText('Bot is speaking...');
  await expect(cards.last()).toContainText(`${defaults.greeting} ${first.questions[0]}`);
  gates.release('speaking:1');

  await expect(page.getByText(INAUDIBLE_NOTICE)).toBeVisible({ timeout: 60_000 });
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay).toBeVisible({ timeout: 60_000 });
  await expect(cards.last()).toContainText(defaults.closingRemark);
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  expect(payloads).toHaveLength(1);
  expect(payloads[0]!.sessionId).toEqual(expect.any(String));

  const stored = await storedRating(server, email);
  const said = stored.transcript.map((l) => `${l.role}: ${l.transcript}`);
  expect(said.filter((l) => l.startsWith('interviewer'))).toEqual([
    `interviewer: ${defaults.greeting} ${first.questions[0]}`,
    `interviewer: ${first.questions[1]}`,
    `interviewer: ${first.questions[2]}`,
    `interviewer: ${defaults.closingRemark}`,
  ]);
  const answers = stored.transcript.filter((l) => l.role === 'interviewee').map((l) => l.transcript);
  expect(answers.slice(0, 3)).toEqual([defaults.answers[0], '[inaudible]', defaults.answers[2]]);
  expect(said.join('\n')).not.toContain(FORGED);
  expect(stored.ratingMarkdown).toContain('One answer could not be heard');
  // The call is over, hung up by the server once; the recoverable error did not end it.
  await expect.poll(() => peer.activeCalls()).toBe(0);
  expect(peer.hangups).toContain(peer.calls.at(-1)!.id);
  expect(server.output()).toContain('realtime error (the call goes on)');
});

test('a VAD response overlapping the close: one goodbye', async ({ page }) => {
  // No console error is allowed: the server hanging up after the goodbye is the normal end, not a lost connection.
  test.setTimeout(90_000);
  peer.options.maxQuestions = 1;
  peer.options.overlapOnClose = true;
  const email = await ready(page);
  await page.getByRole('button', { name: 'start session' }).click();
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay).toBeVisible({ timeout: 60_000 });
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  const record = peer.calls.at(-1)!;
  // Our closing request met the VAD response and was refused once, then asked again after it.
  const refusals = record.serverEvents.filter((e) => JSON.stringify(e).includes('conversation_already_has_active_response'));
  expect(refusals).toHaveLength(1);
  const goodbyes = record.serverEvents.filter((e) => e.type === 'response.created' && JSON.stringify(e).includes('"purpose":"closing"'));
  expect(goodbyes).toHaveLength(1);
  expect(record.sidebandEvents.filter((e) => e.type === 'response.cancel')).toHaveLength(1);
  const stored = await storedRating(server, email);
  const interviewer = stored.transcript.filter((l) => l.role === 'interviewer').map((l) => l.transcript);
  expect(interviewer.filter((t) => t === defaults.closingRemark)).toHaveLength(1);
  expect(interviewer).not.toContain(defaults.overlapLine);
});

test('an upstream failure at the call (rejected key): a clear answer, logged, the credit back, and the button returns', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/^(The session token request failed|Failed to start session|Voice connection failed): /);
  peer.options.callFailure = 'reject-key';
  await ready(page);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const sdp = page.waitForResponse((r) => r.url().endsWith('/sdp'));
  await page.getByRole('button', { name: 'start session' }).click();
  const answer = await sdp;
  expect(answer.status()).toBe(502);
  expect(await answer.json()).toEqual({ error: PROVIDER_TEXTS.rejectedKey });
  await expect(page.getByRole('button', { name: 'start session' })).toBeEnabled();
  await expect(page.getByTestId('status-indicator')).toHaveText('Not Connected');
  await expect.poll(() => errors.some((e) => e.includes('Failed to start session'))).toBe(true);
  expect(server.output()).toContain('"upstreamStatus":401');
});

test('out of credits (402): the email dialog with the out-of-tokens text, and no call made', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/^Failed to start session: You have run out of tokens\./);
  const email = uniqueEmail('broke');
  await setPlan(server, email, { limit: 0 });
  await ready(page, server, email);
  const before = peer.callRequests.length;
  await page.getByRole('button', { name: 'start session' }).click();
  const alert = page.getByRole('dialog', { name: 'Enter your email to continue' }).getByRole('alert');
  await expect(alert).toHaveText(
    `You have run out of tokens. Please contact ${FOUNDERS[0]?.name} or ${FOUNDERS[1]?.name} to get more credits.`,
  );
  expect(peer.callRequests.length).toBe(before);
});

test('a dropped connection reconnects by itself: the unanswered question is asked again, one credit, one rating of the whole interview', async ({
  page,
  consoleErrors,
}) => {
  // The drop itself may be logged before the transport reconnects.
  consoleErrors.allow(/^Voice connection/);
  test.setTimeout(120_000);
  // Dropped right after the first question, before the candidate's answer got through.
  peer.options.midSessionFailure = { afterTurns: 1, kind: 'drop-before-answer' };
  const email = await ready(page);
  const calls = peer.calls.length;
  await page.getByRole('button', { name: 'start session' }).click();
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay).toBeVisible({ timeout: 90_000 });
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  expect(peer.calls.length).toBe(calls + 2);
  const stored = await storedRating(server, email);
  const interviewer = stored.transcript.filter((l) => l.role === 'interviewer').map((l) => l.transcript);
  expect(interviewer).toEqual([
    `${defaults.greeting} ${first.questions[0]}`,
    `Welcome back. ${first.questions[0]}`,
    first.questions[1],
    first.questions[2],
    defaults.closingRemark,
  ]);
  await expectOneInterview(email);
});

/** The candidate's START and RATE events (admin API). */
async function eventTypes(on: RunningServer, email: string): Promise<string[]> {
  const events = await call<Array<{ eventType: string; userEmail: string | null }>>(on, 'GET', '/api/events?limit=100', {
    headers: { 'x-admin-secret': on.adminSecret },
  });
  return events.body.filter((e) => e.userEmail === email).map((e) => e.eventType);
}

/** One credit, one rating: one START and one RATE event, however often the call was reconnected. */
async function expectOneInterview(email: string): Promise<void> {
  const mine = await eventTypes(server, email);
  expect(mine.filter((t) => t === 'START')).toHaveLength(1);
  expect(mine.filter((t) => t === 'RATE')).toHaveLength(1);
}

/**
 * A reconnect the server refused: its sentence with the hint, no Reconnect, focus on ending; ending
 * rates what was said before the drop (the opening, the first answer, the second question).
 */
async function endAfterRefusedReconnect(page: Page, email: string, sentence: string): Promise<void> {
  const choice = page.getByRole('group', { name: 'Connection lost' });
  await expect(choice.getByRole('alert')).toHaveText(`${sentence}${RECONNECT_REFUSED_HINT}`, { timeout: 60_000 });
  await expect(choice.getByRole('button', { name: 'Reconnect' })).toHaveCount(0);
  const end = choice.getByRole('button', { name: 'End and get feedback' });
  await expect(end).toBeFocused();
  await end.click();
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  await expect(overlay.getByText(/^Score: \d+\/100$/)).toBeVisible();
  const stored = await storedRating(server, email);
  expect(stored.transcript.map((l) => l.transcript).slice(0, 3)).toEqual([
    `${defaults.greeting} ${first.questions[0]}`,
    defaults.answers[0],
    first.questions[1],
  ]);
  await expectOneInterview(email);
}

test('the automatic reconnect fails: the reconnect choice, Reconnect pressed, the interview goes on with the next question; one credit, one rating of both halves', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/^(Voice connection failed|Reconnecting failed): /);
  consoleErrors.allow(/^Failed to load resource: net::ERR_FAILED/);
  test.setTimeout(120_000);
  // Dropped once the first answer was heard, before the second question.
  peer.options.midSessionFailure = { afterTurns: 1, kind: 'drop-after-answer' };
  const email = await ready(page);
  // The browser's own first try does not get through (as when the network is still down).
  let resumeTries = 0;
  await page.route('**/interview/sessions/*/resume', async (route) => {
    resumeTries++;
    if (resumeTries === 1) await route.abort('failed');
    else await route.continue();
  });
  const calls = peer.calls.length;
  await page.getByRole('button', { name: 'start session' }).click();

  const choice = page.getByRole('group', { name: 'Connection lost' });
  await expect(choice.getByRole('alert')).toHaveText(RECONNECT_FAILED_CHOICE, { timeout: 60_000 });
  await expect(page.getByTestId('status-indicator')).toHaveText('Not Connected');
  const reconnect = choice.getByRole('button', { name: 'Reconnect' });
  await expect(reconnect).toBeFocused();
  await expect(choice.getByRole('button', { name: 'End and get feedback' })).toBeVisible();
  // Nothing is rated while the candidate decides.
  expect(await eventTypes(server, email)).toEqual(['START']);
  await reconnect.click();
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible({ timeout: 30_000 });
  await expect(choice).toHaveCount(0);

  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay).toBeVisible({ timeout: 90_000 });
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
  expect(resumeTries).toBe(2);
  expect(peer.calls.length).toBe(calls + 2);
  const stored = await storedRating(server, email);
  expect(stored.transcript.filter((l) => l.role === 'interviewer').map((l) => l.transcript)).toEqual([
    `${defaults.greeting} ${first.questions[0]}`,
    `Welcome back. ${first.questions[1]}`,
    first.questions[2],
    defaults.closingRemark,
  ]);
  // Answers from before and after the drop are both in the one rating.
  const answers = stored.transcript.filter((l) => l.role === 'interviewee').map((l) => l.transcript);
  expect(answers[0]).toBe(defaults.answers[0]);
  expect(answers.length).toBeGreaterThanOrEqual(2);
  await expectOneInterview(email);
});

test("resumes used up: the server's sentence, only ending is offered, and what was said is rated once", async ({ page, consoleErrors }) => {
  consoleErrors.allow(/^(Voice connection failed|Reconnecting failed): /);
  consoleErrors.allow(/^Failed to load resource: the server responded with a status of 429/);
  test.setTimeout(120_000);
  // Dropped after the second question, so the first answer is there to rate.
  peer.options.midSessionFailure = { afterTurns: 2, kind: 'drop' };
  const email = await ready(page);
  // Before the browser's own resume arrives, the session's two resumes are used elsewhere.
  await page.route('**/interview/sessions/*/resume', async (route) => {
    const path = new URL(route.request().url()).pathname;
    for (let i = 0; i < 2; i++) {
      expect((await call(server, 'POST', path, { headers: { 'x-user-email': email } })).status).toBe(200);
    }
    await route.continue();
  });
  await page.getByRole('button', { name: 'start session' }).click();

  await endAfterRefusedReconnect(page, email, TOO_MANY_RESUMES);
});

test("the continuation call's SDP offer refused by our server (4xx): its sentence, only ending is offered, what was said is rated", async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/^(Voice connection failed|Reconnecting failed): /);
  consoleErrors.allow(/^Failed to load resource: the server responded with a status of 401/);
  test.setTimeout(120_000);
  peer.options.midSessionFailure = { afterTurns: 2, kind: 'drop' };
  const email = await ready(page);
  // The resumed connection's offer reaches the real server with a token it does not know.
  let offers = 0;
  await page.route('**/interview/sessions/*/sdp', async (route) => {
    offers++;
    if (offers === 1) return route.continue();
    return route.continue({ headers: { ...route.request().headers(), authorization: 'Bearer not-this-session' } });
  });
  await page.getByRole('button', { name: 'start session' }).click();

  await endAfterRefusedReconnect(page, email, TOKEN_REFUSED);
  expect(offers).toBe(2);
});

test.describe('with MAX_SESSION_MINUTES', () => {
  let limited: RunningServer;
  test.beforeAll(async () => {
    // 0.25 minutes: the server closes at 15 s.
    limited = await startAppServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: peer.baseUrl, MAX_SESSION_MINUTES: '0.25' });
  });
  test.afterAll(async () => {
    await limited?.stop();
  });

  test('at the limit the server asks for the goodbye, then hangs up', async ({ page }) => {
    test.setTimeout(90_000);
    peer.options.maxQuestions = null;
    // The interview would go on: the second question never starts.
    const gates = holdAt('before:2');
    peer.options.turnGate = gates.turnGate;
    const email = await ready(page, limited);
    await page.getByRole('button', { name: 'start session' }).click();
    await expect(page.getByTestId('message-card').last()).toContainText(first.questions[0]!);
    const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
    await expect(overlay).toBeVisible({ timeout: 45_000 });
    gates.releaseAll();
    await expect(page.getByTestId('message-card').last()).toContainText(defaults.closingRemark);
    await expect.poll(() => peer.activeCalls()).toBe(0);
    expect(limited.output()).toContain('the time limit for this interview was reached');
    const closing = peer.calls
      .at(-1)!
      .sidebandEvents.find((e) => e.type === 'response.create' && JSON.stringify(e).includes('"purpose":"closing"'));
    expect(JSON.stringify(closing)).toContain('the time limit for this interview was reached');
    await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 30_000 });
    expect((await storedRating(limited, email)).transcript.at(-1)?.transcript).toBe(defaults.closingRemark);
  });
});
