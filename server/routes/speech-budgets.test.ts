/**
 * Speech budgets (README, Security and limits), over HTTP on both databases with a local OpenAI-compatible audio server:
 * spoken answers are checked (PCM WAV, at most MAX_ANSWER_SECONDS) and counted against the
 * session's budget of answers and audio seconds before speech-to-text is paid for; the
 * interviewer's audio clips are budgeted per session, so one session cannot evict another's.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { call, startInterview } from '../../test-support/fixtures';
import { utils as vadUtils } from '@ricky0123/vad-web';
import { pcmWav } from '../../test-support/pcm-wav';
import { createPipelineApp, speechAnswer, type PipelineApp } from '../../test-support/pipeline-app';
import { describeDatabases } from '../../test-support/test-app';
import type { SpeechPipelineToken, SpeechTurnResponse } from '../../contract';
import { interviewSessions } from '../db/schema';
import { answerTooLong, NOT_HEARD_APOLOGY, NOT_PCM_WAV, speechBudgetUsed } from '../services/speech';

describeDatabases('speech budgets of a session', (database) => {
  let t: PipelineApp;

  beforeAll(async () => {
    t = await createPipelineApp(database, {
      audio: { defaultTranscript: '' },
      config: { sessionSpeechAnswers: 5, sessionSpeechSeconds: 30, maxAnswerSeconds: 12 },
    });
  }, 300_000);
  afterAll(() => t?.close());
  beforeEach(() => {
    t.audio.requests.length = 0;
  });

  const answer = (email: string, token: string, audio: Buffer, contentType?: string) =>
    speechAnswer(t.app, { email, token, audio, contentType });
  const stt = () => t.audio.requests.filter((r) => r.kind === 'stt').length;
  const budget = async (sessionId: string) => {
    const [row] = await t.db
      .select({ answers: interviewSessions.speechAnswers, seconds: interviewSessions.speechSeconds })
      .from(interviewSessions)
      .where(eq(interviewSessions.id, sessionId));
    return row;
  };

  it('refuses audio that is not a PCM WAV, or longer than one answer may be, before speech-to-text', async () => {
    const email = 'speech-check@example.com';
    const token = await startInterview<SpeechPipelineToken>(t.app, email);
    const secret = token.client_secret.value;
    expect(await answer(email, secret, Buffer.alloc(9 * 1024 * 1024, 0x41))).toMatchObject({ status: 415, body: { error: NOT_PCM_WAV } });
    expect(await answer(email, secret, Buffer.from('OggS but not really a recording at all'), 'audio/ogg')).toMatchObject({
      status: 415,
      body: { error: NOT_PCM_WAV },
    });
    // A header that claims a byte rate its format cannot have.
    const lying = pcmWav(1);
    lying.writeUInt32LE(1, 28);
    expect(await answer(email, secret, lying)).toMatchObject({ status: 415, body: { error: NOT_PCM_WAV } });
    expect(await answer(email, secret, pcmWav(13))).toMatchObject({ status: 413, body: { error: answerTooLong(12) } });
    expect(stt()).toBe(0);
    expect(await budget(token.sessionId)).toEqual({ answers: 0, seconds: 0 });
  });

  it('counts the audio a speech server will hear, not what the first data chunk announces', async () => {
    const email = 'speech-chunks@example.com';
    const token = await startInterview<SpeechPipelineToken>(t.app, email);
    const secret = token.client_secret.value;
    // 1 s announced, then a second data chunk of 9 MiB (ffmpeg decodes both: about 5 minutes at 32,000 bytes a second).
    const secondChunk = (bytes: number) => {
      const header = Buffer.alloc(8);
      header.write('data', 0, 'ascii');
      header.writeUInt32LE(bytes, 4);
      return Buffer.concat([header, Buffer.alloc(bytes, 0x11)]);
    };
    expect(await answer(email, secret, Buffer.concat([pcmWav(1), secondChunk(9 * 1024 * 1024)]))).toMatchObject({
      status: 413,
      body: { error: answerTooLong(12) },
    });
    expect(stt()).toBe(0);
    expect(await budget(token.sessionId)).toEqual({ answers: 0, seconds: 0 });
    // Within the answer's length, the second chunk's seconds are counted against the session's budget.
    expect((await answer(email, secret, Buffer.concat([pcmWav(1), secondChunk(64_000 - 8)]))).status).toBe(200);
    expect(await budget(token.sessionId)).toEqual({ answers: 1, seconds: 3 });
  });

  it("takes the web app's own recording as it comes: 32-bit float WAV from the voice detector's encoder", async () => {
    const email = 'speech-float@example.com';
    const token = await startInterview<SpeechPipelineToken>(t.app, email);
    const float = Buffer.from(vadUtils.encodeWAV(new Float32Array(16_000 * 2)));
    expect(float.readUInt16LE(20)).toBe(3);
    expect(await answer(email, token.client_secret.value, float)).toMatchObject({ status: 200, body: { heard: '', retry: true } });
    expect(stt()).toBe(1);
    expect(await budget(token.sessionId)).toEqual({ answers: 1, seconds: 2 });
  });

  it('counts every answer and its seconds, heard or not, and refuses beyond the budget without calling speech-to-text', async () => {
    const email = 'speech-budget@example.com';
    const token = await startInterview<SpeechPipelineToken>(t.app, email);
    const secret = token.client_secret.value;
    // Silence (nothing heard) still costs a transcription: it counts.
    for (let i = 0; i < 5; i++)
      expect(await answer(email, secret, pcmWav(2))).toMatchObject({ status: 200, body: { heard: '', retry: true } });
    expect(stt()).toBe(5);
    expect(await budget(token.sessionId)).toEqual({ answers: 5, seconds: 10 });
    expect(await answer(email, secret, pcmWav(1))).toMatchObject({ status: 429, body: { error: speechBudgetUsed(5, 30) } });
    expect(stt()).toBe(5);

    // The seconds run out before the answers do.
    const other = await startInterview<SpeechPipelineToken>(t.app, email);
    for (let i = 0; i < 2; i++) expect((await answer(email, other.client_secret.value, pcmWav(12))).status).toBe(200);
    expect(await answer(email, other.client_secret.value, pcmWav(7))).toMatchObject({
      status: 429,
      body: { error: speechBudgetUsed(5, 30) },
    });
    // A failed transcription was paid for too.
    t.audio.failNext('stt', 400);
    expect(await answer(email, other.client_secret.value, pcmWav(6))).toMatchObject({
      status: 200,
      body: { say: NOT_HEARD_APOLOGY, retry: true },
    });
    expect(await budget(other.sessionId)).toEqual({ answers: 3, seconds: 30 });
    expect(await answer(email, other.client_secret.value, pcmWav(0.5))).toMatchObject({ status: 429 });
    expect(stt()).toBe(5 + 3);
  });
});

describeDatabases("one session's audio clips cannot evict another's", (database) => {
  let t: PipelineApp;

  beforeAll(async () => {
    // Room for the flood below, so the clip budget is what is tested.
    t = await createPipelineApp(database, { config: { sessionSpeechAnswers: 1000, sessionSpeechSeconds: 36_000 } });
  }, 300_000);
  afterAll(() => t?.close());

  it("520 apologies in one session leave another user's fresh clip playable", { timeout: 240_000 }, async () => {
    const victim = await startInterview<SpeechPipelineToken>(t.app, 'clip-victim@example.com');
    const opening = await call<SpeechTurnResponse>(t.app, 'POST', '/interview/speech-turn', {
      email: 'clip-victim@example.com',
      body: { sessionToken: victim.client_secret.value },
    });
    const victimClip = opening.body.audio[0] ?? '';
    expect(victimClip).not.toBe('');

    const flooder = await startInterview<SpeechPipelineToken>(t.app, 'clip-flooder@example.com');
    t.audio.failNext('stt', 400, 520);
    const wav = pcmWav(0.2);
    const clips: string[] = [];
    for (let i = 0; i < 520; i++) {
      const { body } = await speechAnswer(t.app, {
        email: 'clip-flooder@example.com',
        token: flooder.client_secret.value,
        audio: wav,
        // Spread over addresses, as an attacker would, past the per-address answer limit.
        remoteAddress: `10.0.${i >> 8}.${i & 255}`,
      });
      expect(body.say).toBe(NOT_HEARD_APOLOGY);
      clips.push(...body.audio);
    }
    const victimAudio = await t.app.inject({ method: 'GET', url: victimClip });
    expect(victimAudio.statusCode).toBe(200);
    expect(victimAudio.rawPayload.length).toBeGreaterThan(0);
    // The flooder's own oldest clips made way (SESSION_AUDIO_CLIPS, 40 by default); its newest plays.
    expect((await t.app.inject({ method: 'GET', url: clips[0] ?? '' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: clips.at(-1) ?? '' })).statusCode).toBe(200);
  });
});
