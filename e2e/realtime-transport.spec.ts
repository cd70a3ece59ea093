/**
 * The OpenAI WebRTC transport in Debian Chromium against the local realtime peer, without the app:
 * token from the real provider code, SDP to the peer, Opus both ways, the data-channel protocol,
 * close_session, and failures. (The full product flow is in realtime-interview.spec.ts.)
 */
import { expect, test, type Page } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import type { OpenAiToken } from '../contract';
import { closingRemarkInstructions } from '../domain/interviewer-protocol';
import { createOpenAiRealtimeVoice } from '../server/providers/openai-realtime';
import type { QuestionSetRecord } from '../server/db/schema';
import type { TransportEvent } from '../web/src/lib/realtime/types';
import { startHarness, type Harness } from './realtime-peer/harness';
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
test.describe.configure({ mode: 'serial' });

const set: QuestionSetRecord = {
  id: 1,
  name: 'Harness Set',
  index: 1,
  isPremium: false,
  requiresFeedback: false,
  questions: ['What is a closure?', 'Explain the event loop.', 'What does this question never get asked?'],
  instructions: '',
  modelAnswers: '',
};

let peer: RealtimePeer;
let harness: Harness;

test.beforeAll(async () => {
  peer = await startRealtimePeer();
  harness = await startHarness();
});
test.afterAll(async () => {
  await harness?.close();
  await peer?.close();
});
test.beforeEach(() => {
  peer.options = { ...defaultPeerOptions(), maxQuestions: 2, speechMs: 1200 };
});

async function mint(): Promise<OpenAiToken> {
  const voice = createOpenAiRealtimeVoice(
    { openaiApiKey: 'test-key', openaiBaseUrl: peer.baseUrl, realtimeModel: 'gpt-realtime-2.1', realtimeTranscriptionModel: 'gpt-4o-mini-transcribe' },
    { warn: () => undefined },
  );
  const token = await voice.createSession({ sessionId: `s-${Date.now()}`, set, userEmail: 'h@example.com' });
  if (token.transport !== 'openai-realtime') throw new Error('expected an OpenAI token');
  return token;
}

async function start(page: Page, token: OpenAiToken): Promise<boolean> {
  await page.goto(harness.url);
  await page.waitForFunction(() => 'startSession' in window);
  return page.evaluate((t) => (window as unknown as { startSession(t: unknown): Promise<boolean> }).startSession(t), token);
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { events: TransportEvent[] }).events);

async function waitForEvent(page: Page, type: TransportEvent['type']) {
  await page.waitForFunction((t) => (window as unknown as { events: TransportEvent[] }).events.some((e) => e.type === t), type, {
    timeout: 45_000,
  });
}

test('a whole interview: greeting, spoken answers heard, close_session honoured once, microphone stopped', async ({ page }) => {
  const token = await mint();
  expect(await start(page, token)).toBe(true);

  await waitForEvent(page, 'close-requested');
  const got = await events(page);
  const interviewer = got.filter((e) => e.type === 'interviewer').map((e) => e.text);
  expect(interviewer.slice(0, 2)).toEqual([
    'Hello and welcome to your practice interview. What is a closure?',
    'Explain the event loop.',
  ]);
  const candidate = got.filter((e) => e.type === 'candidate');
  expect(candidate.length).toBeGreaterThanOrEqual(2);
  expect(candidate[0]).toMatchObject({ text: defaultPeerOptions().answers[0] });
  const ats = got.filter((e) => e.type === 'interviewer' || e.type === 'candidate').map((e) => ('at' in e ? e.at : -1));
  expect(ats.every((at, i) => Number.isInteger(at) && at >= 0 && (i === 0 || at >= ats[i - 1]!))).toBe(true);
  expect(got.filter((e) => e.type === 'speaking').slice(0, 2)).toEqual([
    { type: 'speaking', speaking: true },
    { type: 'speaking', speaking: false },
  ]);
  expect(got.filter((e) => e.type === 'close-requested')).toEqual([{ type: 'close-requested', reason: 'all questions covered' }]);
  expect(got.some((e) => e.type === 'failed')).toBe(false);

  // The microphone was opened with echo cancellation and stopped by close_session.
  const mic = await page.evaluate(() =>
    (window as unknown as { micTracks: MediaStreamTrack[] }).micTracks.map((t) => ({ state: t.readyState, ec: t.getSettings().echoCancellation })),
  );
  expect(mic).toEqual([{ state: 'ended', ec: true }]);

  // The peer saw the protocol: first response.create, the function result, then the closing-remark request.
  await expect.poll(() => peer.calls.at(-1)?.clientEvents.filter((e) => e.type === 'response.create').length).toBeGreaterThanOrEqual(2);
  const client = peer.calls.at(-1)!.clientEvents;
  expect(client[0]).toEqual({ type: 'response.create' });
  const output = client.find((e) => e.type === 'conversation.item.create') as unknown as { item: { type: string; call_id: string; output: string } };
  expect(output.item).toMatchObject({ type: 'function_call_output', output: '{"ok":true}' });
  expect(output.item.call_id).toMatch(/^call_/);
  expect(client.at(-1)).toEqual({
    type: 'response.create',
    response: { instructions: closingRemarkInstructions('all questions covered'), tool_choice: 'none' },
  });

  // The closing remark is spoken (audio on the track) and shown.
  await page.waitForFunction(() =>
    (window as unknown as { events: TransportEvent[] }).events.some(
      (e) => e.type === 'interviewer' && e.text === 'Thank you for your time today. Your written feedback is being prepared.',
    ),
  );
  await page.evaluate(() => (window as unknown as { closeSession(): void }).closeSession());
  await expect.poll(() => peer.activeCalls()).toBe(0);
});

test('the interviewer voice arrives as audio on the remote track', async ({ page }) => {
  // The greeting's tone keeps playing until the measurement is done.
  const gates = holdAt('speaking:1');
  peer.options.turnGate = gates.turnGate;
  expect(await start(page, await mint())).toBe(true);
  await waitForEvent(page, 'speaking');
  const level = await page.evaluate(() => (window as unknown as { remoteAudioLevel(): Promise<number> }).remoteAudioLevel());
  gates.releaseAll();
  expect(level).toBeGreaterThan(0.05);
  await page.evaluate(() => (window as unknown as { closeSession(): void }).closeSession());
});

test('beta event names still give interviewer lines', async ({ page }) => {
  peer.options.eventNames = 'beta';
  expect(await start(page, await mint())).toBe(true);
  await waitForEvent(page, 'interviewer');
  expect((await events(page)).find((e) => e.type === 'interviewer')).toMatchObject({
    text: 'Hello and welcome to your practice interview. What is a closure?',
  });
  expect(peer.calls.at(-1)!.serverEvents.some((e) => e.type === 'response.audio_transcript.done')).toBe(true);
  await page.evaluate(() => (window as unknown as { closeSession(): void }).closeSession());
});

test('a dropped connection is reported once as failed', async ({ page }) => {
  peer.options.midSessionFailure = { afterTurns: 1, kind: 'drop' };
  expect(await start(page, await mint())).toBe(true);
  await waitForEvent(page, 'failed');
  const failed = (await events(page)).filter((e) => e.type === 'failed');
  expect(failed).toEqual([{ type: 'failed', message: 'The connection to the voice service was lost.' }]);
});

test('an error event from the provider is reported as failed with its message', async ({ page }) => {
  peer.options.midSessionFailure = { afterTurns: 1, kind: 'error', message: 'Your session hit the maximum duration of 60 minutes.' };
  expect(await start(page, await mint())).toBe(true);
  await waitForEvent(page, 'failed');
  expect((await events(page)).filter((e) => e.type === 'failed')).toEqual([
    { type: 'failed', message: 'The voice service reported an error: Your session hit the maximum duration of 60 minutes.' },
  ]);
  await page.evaluate(() => (window as unknown as { closeSession(): void }).closeSession());
});

test('a refused SDP exchange makes start fail with the provider message', async ({ page }) => {
  const token = await mint();
  expect(await start(page, { ...token, client_secret: { ...token.client_secret, value: 'ek_not_issued' } })).toBe(false);
  expect(await page.evaluate(() => (window as unknown as { startError: string }).startError)).toBe(
    'The voice service refused the connection (HTTP 401): Invalid or expired ephemeral key.',
  );
  const mic = await page.evaluate(() => (window as unknown as { micTracks: MediaStreamTrack[] }).micTracks.map((t) => t.readyState));
  expect(mic).toEqual(['ended']);
});
