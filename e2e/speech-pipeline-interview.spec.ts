/**
 * The speech-pipeline mode end to end with real audio: the real server (VOICE_MODE=pipeline,
 * scripted interviewer, rubric rater), Chromium whose microphone plays a WAV spoken by espeak-ng,
 * the voice-activity detector cutting the answers, pocketsphinx recognising them behind an
 * OpenAI-compatible /audio/transcriptions, and espeak-ng + ffmpeg voicing the interviewer as mp3
 * behind /audio/speech. The candidate answers one question, then asks to stop; the interviewer
 * closes the session, which ends by itself and is rated.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { CLOSING_STOP } from '../server/providers/interviewer/scripted-interviewer-lines';
import { spokenPipelineSuite } from './support/speech-pipeline';
import { call, login, wholeEvent } from '../test-support/fixtures';

const ANSWER = 'A closure is a function that remembers the variables of the scope where it was created.';
const STOP = 'I want to stop.';
// Seconds of silence: the detector loads while the greeting plays; the pause after the answer
// lets the interviewer's reply start before the candidate speaks again (and talks over it).
const pipeline = spokenPipelineSuite('speech-pipeline-e2e-mic.wav', [5, ANSWER, 7, STOP, 60]);

/** Every <audio> the page plays: its path and whether it started, ended or was cut short. */
function recordPlayback(): void {
  const played: Array<{ src: string; events: string[] }> = [];
  (window as unknown as { __played: typeof played }).__played = played;
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    const entry = { src: new URL(this.src).pathname, events: [] as string[] };
    played.push(entry);
    for (const type of ['playing', 'ended', 'pause', 'error']) this.addEventListener(type, () => entry.events.push(type));
    return play.call(this);
  };
}

const played = (page: Page) => page.evaluate(() => (window as unknown as { __played: Array<{ src: string; events: string[] }> }).__played);

const words = (text: string) => text.toLowerCase().match(/[a-z']+/g) ?? [];

test('a spoken interview through the speech pipeline: VAD, real recognition, streamed voice, closed and rated', async ({ page }) => {
  test.setTimeout(240_000);
  const email = 'voice@example.com';
  await login(pipeline.server, email);
  expect((await call<{ voiceMode: string }>(pipeline.server, 'GET', '/api/config')).body.voiceMode).toBe('speech-pipeline');
  const sets = (await call<Array<{ index: number; name: string; questions: string[] }>>(pipeline.server, 'GET', '/api/question-sets')).body;
  const set = sets.find((s) => s.index === 1);
  if (!set) throw new Error('The catalogue has no set with index 1.');

  await page.addInitScript(recordPlayback);
  await page.addInitScript((e) => window.localStorage.setItem('userEmail', e), email);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(pipeline.server.url);
  await page.getByTestId(`tile-${set.index}`).click();
  // The first screen never downloads the detector; the session then gets it from our own server.
  expect(requested.filter((p) => p.startsWith('/vad/'))).toEqual([]);
  await page.getByRole('button', { name: 'start session' }).click();

  const cards = page.getByTestId('message-card');
  await expect(cards.last()).toContainText(set.questions[0] ?? '<no question>');
  await expect(page.getByLabel('Type your answer')).toBeVisible();

  // The spoken answer is cut by the detector, recognised for real, and answered.
  await expect(cards).toHaveCount(2, { timeout: 80_000 });
  // Asking to stop closes the interview; the session ends by itself and is rated.
  await expect(cards.last()).toContainText(CLOSING_STOP, { timeout: 80_000 });
  await expect(page.getByTestId('results-overlay')).toBeVisible({ timeout: 30_000 });

  // The STT server received the answers as real audio (16 kHz WAV from the detector).
  const uploads = pipeline.audio.requests.filter((r) => r.kind === 'stt');
  expect(uploads.length).toBeGreaterThanOrEqual(2);
  for (const upload of uploads) {
    expect(upload.file?.type).toBe('audio/wav');
    expect(upload.file?.bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(upload.file?.bytes.readUInt32LE(24)).toBe(16000);
  }

  // Most spoken words reached the rated transcript.
  const admin = { headers: { 'x-admin-secret': pipeline.server.adminSecret } };
  const events = await call<Array<{ id: number; userEmail: string; eventType: string }>>(pipeline.server, 'GET', '/api/events', admin);
  // The list carries previews: the whole transcript comes with the event's details.
  const rate = await wholeEvent<{ transcript: unknown }>(
    pipeline.server,
    events.body.find((e) => e.userEmail === email && e.eventType === 'RATE'),
    admin,
  );
  const transcript = (typeof rate?.transcript === 'string' ? JSON.parse(rate.transcript) : rate?.transcript) as Array<{
    role: string;
    transcript: string;
  }>;
  const answers = transcript.filter((t) => t.role === 'interviewee').map((t) => t.transcript);
  expect(answers).toHaveLength(2);
  const heard = new Set(words(answers[0] ?? ''));
  const spoken = [...new Set(words(ANSWER))];
  expect(spoken.filter((w) => heard.has(w)).length / spoken.length).toBeGreaterThanOrEqual(0.6);
  expect(answers[1]?.toLowerCase()).toContain('want to stop');

  expect(requested).toEqual(
    expect.arrayContaining(['/vad/silero_vad_v5.onnx', '/vad/ort-wasm-simd-threaded.mjs', '/vad/ort-wasm-simd-threaded.wasm']),
  );

  // The interviewer's voice played: the greeting's clips, the reply, the closing remark.
  const clips = await played(page);
  expect(clips.every((c) => c.src.startsWith('/interview/speech/'))).toBe(true);
  expect(clips.filter((c) => c.events.includes('playing')).length).toBeGreaterThanOrEqual(3);
  expect(clips.some((c) => c.events.includes('ended'))).toBe(true);
  expect(pipeline.audio.requests.filter((r) => r.kind === 'tts').length).toBeGreaterThanOrEqual(3);
});
