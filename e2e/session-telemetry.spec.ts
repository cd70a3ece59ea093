/**
 * Session telemetry in Chromium (docs/product-rules.md, Session telemetry): a real OpenAI-mode
 * interview against the local realtime peer (its usage, estimated cost, a recoverable error and
 * the interviewer's close), and a typed browser-speech interview the candidate stops (the
 * browser's connected and ended reports), each shown in the admin event details; the dashboard's
 * session figures for the range.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { chromiumArgs } from '../playwright.config';
import type { AdminEvent, SessionTelemetry } from '../contract';
import { BROWSER_LOCALE, openAdmin } from './support/admin';
import {
  controllableSpeech,
  loginAs,
  questionSets,
  routeDogApi,
  startAppServer,
  uniqueEmail,
  type RunningServer,
  type SetInfo,
} from './support/app';
import { defaultPeerOptions } from '../test-support/realtime-peer/options';
import { startRealtimePeer, type RealtimePeer } from '../test-support/realtime-peer/server';
import { makeSpeechWav } from '../test-support/realtime-peer/speech-wav';
import { call } from '../test-support/fixtures';

const wav = makeSpeechWav();
test.use({
  ...BROWSER_LOCALE,
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'],
  },
});

let peer: RealtimePeer;
let voice: RunningServer;
let typed: RunningServer;

test.beforeAll(async () => {
  peer = await startRealtimePeer();
  [voice, typed] = await Promise.all([startAppServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: peer.baseUrl }), startAppServer()]);
});
test.afterAll(async () => {
  await Promise.all([voice?.stop(), typed?.stop()]);
  await peer?.close();
});

async function firstSet(server: RunningServer): Promise<SetInfo> {
  const set = (await questionSets(server)).find((s) => s.index === 1);
  if (!set) throw new Error('The catalogue has no set 1');
  return set;
}

async function startInterview(page: Page, server: RunningServer, email: string): Promise<void> {
  const set = await firstSet(server);
  await routeDogApi(page);
  await loginAs(page, server, email);
  await page.goto(server.url + '/');
  await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
  await expect(page.getByTestId('topic-heading')).toHaveText(set.name);
  await page.getByRole('button', { name: 'start session' }).click();
}

/** The candidate's RATE event, as the admin API answers it. */
async function ratedEvent(server: RunningServer, email: string): Promise<AdminEvent & { session: SessionTelemetry }> {
  const answer = await call<AdminEvent[]>(server, 'GET', '/api/events?limit=50', { headers: { 'x-admin-secret': server.adminSecret } });
  const event = answer.body.find((e) => e.eventType === 'RATE' && e.userEmail === email);
  if (!event?.session) throw new Error(`no RATE event with a session for ${email}`);
  return event as AdminEvent & { session: SessionTelemetry };
}

async function openDetails(page: Page, server: RunningServer, eventId: number) {
  await openAdmin(page, server, 'events');
  await page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: String(eventId), exact: true }) })
    .getByRole('button', { name: 'Details' })
    .click();
  return page.getByRole('dialog', { name: 'Event Details' });
}

const DURATION = /^(\d+ ms|\d+\.\d s|\d+ s|\d+ min( \d+ s)?)$/;
const thousands = (n: number) => n.toLocaleString('en-US');

test('an OpenAI interview: usage, estimated cost, the kept error and the close in the event details; the dashboard figures', async ({
  page,
}) => {
  test.setTimeout(120_000);
  peer.options = {
    ...defaultPeerOptions(),
    maxQuestions: 1,
    midSessionFailure: { afterTurns: 1, kind: 'recoverable-error', message: 'Item content is invalid.' },
  };
  const email = uniqueEmail('telemetry-voice');
  await startInterview(page, voice, email);
  await expect(page.getByRole('dialog', { name: 'Session Feedback' }).getByRole('button', { name: 'Continue' })).toBeVisible({
    timeout: 60_000,
  });

  const { id, session } = await ratedEvent(voice, email);
  // The peer's usage per response (100 text + 200 audio in, 20 text + 100 audio out) and per transcription (50 audio + 15 text).
  const responses = session.usage.responses ?? 0;
  const transcriptions = (session.usage.transcriptionAudioTokens ?? 0) / 50;
  expect(responses).toBeGreaterThanOrEqual(3);
  expect(transcriptions).toBeGreaterThanOrEqual(1);
  expect(session.usage).toEqual({
    realtimeModel: 'gpt-realtime-2.1',
    responses,
    textInTokens: 100 * responses,
    audioInTokens: 200 * responses,
    textOutTokens: 20 * responses,
    audioOutTokens: 100 * responses,
    transcriptionModel: 'gpt-transcribe',
    transcriptionAudioTokens: 50 * transcriptions,
    transcriptionTextTokens: 15 * transcriptions,
  });
  // gpt-realtime-2.1: text 4 / 24, audio 32 / 64 per 1M tokens; gpt-transcribe: audio 1.25 in, text 5 out.
  const cost = (responses * (100 * 4 + 200 * 32 + 20 * 24 + 100 * 64) + transcriptions * (50 * 1.25 + 15 * 5)) / 1_000_000;
  expect(session.estimatedCostUsd).toBeCloseTo(cost, 10);
  const costText = cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;

  const dialog = await openDetails(page, voice, id);
  await expect(dialog.getByTestId('session-transport')).toHaveText('OpenAI Realtime');
  await expect(dialog.getByTestId('session-end')).toHaveText('Closed by the interviewer: all questions covered');
  await expect(dialog.getByTestId('session-turns')).toHaveText(String(session.candidateTurns));
  expect(session.candidateTurns).toBeGreaterThanOrEqual(1);
  await expect(dialog.getByTestId('session-resumes')).toHaveText('0');
  await expect(dialog.getByTestId('session-connect')).toHaveText(DURATION);
  await expect(dialog.getByTestId('session-length')).toHaveText(DURATION);
  await expect(dialog.getByTestId('session-usage').getByRole('listitem')).toHaveText([
    `gpt-realtime-2.1: ${responses} responses; in ${thousands(100 * responses)} text + ${thousands(200 * responses)} audio tokens; out ${thousands(20 * responses)} text + ${thousands(100 * responses)} audio tokens`,
    `Transcription (gpt-transcribe): ${thousands(50 * transcriptions)} audio + ${thousands(15 * transcriptions)} text tokens`,
  ]);
  await expect(dialog.getByTestId('session-cost')).toHaveText(costText);
  await expect(dialog.getByTestId('session-errors-heading')).toHaveText('Errors (1)');
  await expect(dialog.getByTestId('session-errors').getByRole('listitem')).toHaveText([
    /^\d{1,2}:\d{2}:\d{2} [AP]M realtime \(invalid_value\): Item content is invalid\.$/,
  ]);

  // The dashboard: this server's one session, in the default 30 days and in 7.
  await openAdmin(page, voice, 'dashboard');
  const figures = page.getByTestId('session-figures');
  await expect(figures.getByRole('heading')).toHaveText('Sessions in the last 30 days');
  await expect(figures.getByTestId('figure-sessions')).toHaveText('1');
  await expect(figures.getByTestId('figure-length')).toHaveText(
    /^median (\d+ s|\d+ min( \d+ s)?), p90 (\d+ s|\d+ min( \d+ s)?) \(1 measured\)$/,
  );
  await expect(figures.getByTestId('figure-connect')).toHaveText(/^median (\d+ ms|\d+\.\d s), p90 (\d+ ms|\d+\.\d s) \(1 measured\)$/);
  await expect(figures.getByTestId('figure-cost')).toHaveText(costText);
  await page.getByTestId('dashboard-charts').getByRole('button', { name: '7 days' }).click();
  await expect(figures.getByRole('heading')).toHaveText('Sessions in the last 7 days');
  await expect(figures.getByTestId('figure-sessions')).toHaveText('1');
});

test('a typed browser-speech interview the candidate stops: the browser reports connected and the end', async ({ page }) => {
  await controllableSpeech(page);
  const email = uniqueEmail('telemetry-typed');
  await startInterview(page, typed, email);
  const box = page.getByLabel('Type your answer');
  await expect(box).toBeVisible();
  await box.fill('A closure is a function that keeps access to the variables of its outer scope.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(box).toHaveValue('');
  await expect(page.getByTestId('message-card')).toHaveCount(2);
  await page.getByRole('button', { name: 'disconnect' }).click();
  // Rated: the overlay offers Continue.
  await expect(page.getByRole('dialog', { name: 'Session Feedback' }).getByRole('button', { name: 'Continue' })).toBeVisible({
    timeout: 30_000,
  });

  const { id, session } = await ratedEvent(typed, email);
  expect(session).toMatchObject({
    transport: 'browser-speech',
    input: 'typed',
    endReason: 'stopped-by-candidate',
    candidateTurns: 1,
    estimatedCostUsd: null,
  });
  expect(session.connectMs).not.toBeNull();
  const dialog = await openDetails(page, typed, id);
  await expect(dialog.getByTestId('session-transport')).toHaveText('Browser speech (typed answers)');
  await expect(dialog.getByTestId('session-end')).toHaveText('Stopped by the candidate');
  await expect(dialog.getByTestId('session-turns')).toHaveText('1');
  await expect(dialog.getByTestId('session-connect')).toHaveText(DURATION);
  await expect(dialog.getByTestId('session-length')).toHaveText(DURATION);
  await expect(dialog.getByTestId('session-usage')).toHaveText('None reported');
  await expect(dialog.getByTestId('session-cost')).toHaveText('Not priced');
  await expect(dialog.getByTestId('session-errors-heading')).toHaveCount(0);
});
