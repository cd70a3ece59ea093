/**
 * The speech-pipeline calls over HTTP in the real app on both databases, with a local
 * OpenAI-compatible audio server in place of the STT and TTS servers and the scripted interviewer.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeMp3, startFakeAudioServer, type FakeAudioServer } from '../../test-support/fake-audio-server';
import { startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { accounts, interviewSessions } from '../db/schema';
import { CLOSING_STOP } from '../providers/interviewer/scripted-interviewer-lines';
import {
  CLIP_FAILED,
  CLIP_GONE,
  INTERVIEWER_APOLOGY,
  MAX_LINE_PARTS,
  NO_AUDIO,
  NOT_A_PIPELINE_SERVER,
  NOT_HEARD_APOLOGY,
  speechParts,
} from '../services/speech';
import { SESSION_FINISHED, WELCOME_BACK } from '../services/turns';
import { hashToken } from '../services/sessions';

interface Token {
  transport: string;
  sessionId: string;
  client_secret: { value: string };
}
interface SpeechTurn {
  heard: string | null;
  say: string;
  closeSession: { reason: string } | null;
  audio: string[];
  retry: boolean;
}

const MODELS = { sttModel: 'Systran/faster-whisper-small', ttsModel: 'kokoro', ttsVoice: 'af_heart' };
/** A tiny but real RIFF/WAVE header with a little silence: what the browser's encoder sends. */
const WAV = (() => {
  const data = Buffer.alloc(3200);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
})();

function pipelineConfig(audio: FakeAudioServer, extra: Record<string, unknown> = {}) {
  return {
    voiceModeSetting: 'pipeline' as const,
    sttBaseUrl: audio.baseUrl,
    sttModel: MODELS.sttModel,
    sttApiKey: 'local-key',
    ttsBaseUrl: audio.baseUrl,
    ttsModel: MODELS.ttsModel,
    ttsVoice: MODELS.ttsVoice,
    ttsApiKey: 'local-key',
    freeSessionLimit: 20,
    // Priced here so the session's estimated cost can be checked (a local server's models have no default price).
    modelPrices: { [MODELS.sttModel]: { audioMinute: 0.006 }, [MODELS.ttsModel]: { characters: 15 } },
    ...extra,
  };
}

async function start(t: TestApp, setId: number, email: string): Promise<string> {
  await login(t.app, email);
  const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
  expect(token.body.transport).toBe('speech-pipeline');
  return token.body.client_secret.value;
}

const textTurn = (t: TestApp, email: string, sessionToken: string, utterance?: string) =>
  call<SpeechTurn>(t.app, 'POST', '/interview/speech-turn', {
    email,
    body: utterance === undefined ? { sessionToken } : { sessionToken, utterance },
  });

async function audioTurn(t: TestApp, email: string, sessionToken: string, body: Buffer = WAV) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/interview/speech-answer',
    headers: { 'x-user-email': email, 'x-session-token': sessionToken, 'content-type': 'audio/wav' },
    payload: body,
  });
  return { status: response.statusCode, body: JSON.parse(response.body) as SpeechTurn & { error?: string } };
}

async function clip(t: TestApp, path: string) {
  const response = await t.app.inject({ method: 'GET', url: path });
  return { status: response.statusCode, type: response.headers['content-type'], bytes: response.rawPayload, text: response.body };
}

describe('speechParts', () => {
  it('puts the first sentence alone and joins very short ones to the next', () => {
    expect(speechParts('Welcome to the interview. Let us begin. What is a closure?')).toEqual([
      'Welcome to the interview.',
      'Let us begin. What is a closure?',
    ]);
    expect(speechParts('Hi! Tell me about closures.')).toEqual(['Hi! Tell me about closures.']);
    // A resume's repeat of a line heard already plays only its first clip, "Welcome back." (heard-again.ts).
    expect(speechParts('Welcome back. What is a closure?')).toEqual(['Welcome back.', 'What is a closure?']);
    expect(speechParts('No punctuation at the end')).toEqual(['No punctuation at the end']);
    expect(speechParts('')).toEqual([]);
    // At most MAX_LINE_PARTS text-to-speech calls for one line, however many sentences it has.
    const long = Array.from({ length: 20 }, (_, i) => `This is sentence number ${i + 1} of a very long line.`).join(' ');
    expect(speechParts(long)).toHaveLength(MAX_LINE_PARTS);
    expect(speechParts(long).join(' ')).toBe(long);
  });
});

describeDatabases('speech-pipeline calls', (database) => {
  let audio: FakeAudioServer;
  let t: TestApp;
  let setId = -1;
  let heard: string[] = [];

  beforeAll(async () => {
    audio = await startFakeAudioServer({ apiKey: 'local-key', ...MODELS, transcribe: () => heard.shift() ?? '' });
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: pipelineConfig(audio) });
    setId = (await setIds(t.app)).get(1) ?? -1;
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await audio?.close();
  });
  beforeEach(() => {
    audio.requests.length = 0;
    heard = [];
  });

  it('tells the app the mode and mints speech-pipeline sessions', async () => {
    expect((await call<{ voiceMode: string }>(t.app, 'GET', '/api/config')).body.voiceMode).toBe('speech-pipeline');
    const token = await start(t, setId, 'mint@example.com');
    expect(token).toMatch(/^sp_[A-Za-z0-9_-]{43}$/);
  });

  it('a resumed session goes on: no credit, its first turn says the last line again with its voice, led by "Welcome back."', async () => {
    const email = 'pipeline-resume@example.com';
    await login(t.app, email);
    const minted = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    const opening = await textTurn(t, email, minted.body.client_secret.value);
    expect(opening.body.say).toContain('What is a closure?');
    const resumed = await call<Token>(t.app, 'POST', `/interview/sessions/${minted.body.sessionId}/resume`, { email });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ transport: 'speech-pipeline', sessionId: minted.body.sessionId });
    const [before] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, minted.body.sessionId));
    const again = await call<SpeechTurn>(t.app, 'POST', '/interview/speech-turn', {
      email,
      body: { sessionToken: resumed.body.client_secret.value, resume: true },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ heard: null, say: `${WELCOME_BACK} ${opening.body.say}`, closeSession: null, retry: false });
    expect(again.body.audio).toHaveLength(speechParts(again.body.say).length);
    expect((await clip(t, again.body.audio[0] ?? '')).bytes.equals(fakeMp3(speechParts(again.body.say)[0] ?? ''))).toBe(true);
    // Every clip played to its end, so no synthesis of this test is still running in the next one.
    for (const path of [...opening.body.audio, ...again.body.audio.slice(1)]) expect((await clip(t, path)).status).toBe(200);
    const [after] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, minted.body.sessionId));
    expect(after?.turns.map((l) => l.transcript)).toEqual([...(before?.turns ?? []).map((l) => l.transcript), again.body.say]);
    expect(after?.resumes).toBe(1);
    const [account] = await t.db.select().from(accounts).where(eq(accounts.email, email));
    expect(account?.sessionsUsed).toBe(1);
  });

  it('an answer in pieces: each written down without a turn, budgeted; the words then sent as a spoken turn; nothing written down gets the apology', async () => {
    const email = 'pieces@example.com';
    const token = await start(t, setId, email);
    const opening = await textTurn(t, email, token);
    const piece = async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/interview/speech-transcript',
        headers: { 'x-user-email': email, 'x-session-token': token, 'content-type': 'audio/wav' },
        payload: WAV,
      });
      return { status: response.statusCode, body: JSON.parse(response.body) as { heard: string | null; error?: string } };
    };
    heard = ['A closure is um', 'a function that keeps its scope.'];
    expect(await piece()).toEqual({ status: 200, body: { heard: 'A closure is um' } });
    expect(await piece()).toEqual({ status: 200, body: { heard: 'a function that keeps its scope.' } });
    audio.failNext('stt', 500, 2);
    expect(await piece()).toEqual({ status: 200, body: { heard: null } });
    const [session] = await t.db
      .select()
      .from(interviewSessions)
      .where(eq(interviewSessions.tokenHash, hashToken(token)));
    // Three pieces written down (or tried), no turn taken: the transcript holds the opening only.
    expect(session?.speechAnswers).toBe(3);
    expect(session?.turns.map((l) => l.transcript)).toEqual([opening.body.say]);

    const words = 'A closure is um a function that keeps its scope.';
    const spoken = await call<SpeechTurn>(t.app, 'POST', '/interview/speech-turn', {
      email,
      body: { sessionToken: token, utterance: words, spoken: true },
    });
    expect(spoken.status).toBe(200);
    expect(spoken.body).toMatchObject({ heard: words, retry: false });
    const lost = await call<SpeechTurn>(t.app, 'POST', '/interview/speech-turn', { email, body: { sessionToken: token, spoken: true } });
    expect(lost.body).toMatchObject({ heard: null, say: NOT_HEARD_APOLOGY, retry: true });
    for (const path of [...opening.body.audio, ...spoken.body.audio, ...lost.body.audio]) expect((await clip(t, path)).status).toBe(200);
    const [after] = await t.db
      .select()
      .from(interviewSessions)
      .where(eq(interviewSessions.tokenHash, hashToken(token)));
    expect(after?.turns.map((l) => l.transcript)).toEqual([opening.body.say, words, spoken.body.say]);
  });

  it('a whole spoken interview: audio in, the heard words and the next line out, its voice streamed; close_session ends it', async () => {
    const email = 'speaker@example.com';
    const token = await start(t, setId, email);

    const opening = await textTurn(t, email, token);
    expect(opening.status).toBe(200);
    expect(opening.body).toMatchObject({ heard: null, closeSession: null, retry: false });
    expect(opening.body.say).toContain('What is a closure?');
    expect(opening.body.audio).toHaveLength(speechParts(opening.body.say).length);
    const first = await clip(t, opening.body.audio[0] ?? '');
    expect(first.status).toBe(200);
    expect(first.type).toBe('audio/mpeg');
    expect(first.bytes.equals(fakeMp3(speechParts(opening.body.say)[0] ?? ''))).toBe(true);
    const tts = audio.requests.find((r) => r.kind === 'tts');
    expect(tts?.headers.authorization).toBe('Bearer local-key');
    expect(tts?.fields).toEqual({ model: 'kokoro', voice: 'af_heart', input: speechParts(opening.body.say)[0], response_format: 'mp3' });

    heard = ['A closure is a function that keeps access to the variables of its outer scope after that scope has returned.'];
    const second = await audioTurn(t, email, token);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      heard: 'A closure is a function that keeps access to the variables of its outer scope after that scope has returned.',
      retry: false,
      closeSession: null,
    });
    expect(second.body.say).not.toBe(opening.body.say);
    expect(second.body.audio.length).toBeGreaterThan(0);
    const stt = audio.requests.find((r) => r.kind === 'stt');
    expect(stt?.fields).toMatchObject({ model: MODELS.sttModel, response_format: 'json' });
    expect(stt?.file?.type).toBe('audio/wav');
    expect(stt?.file?.bytes.equals(WAV)).toBe(true);

    heard = ['I want to stop.'];
    const last = await audioTurn(t, email, token);
    expect(last.body).toMatchObject({
      heard: 'I want to stop.',
      say: CLOSING_STOP,
      closeSession: { reason: 'the candidate asked to stop' },
    });
    expect((await clip(t, last.body.audio.at(-1) ?? '')).status).toBe(200);

    const [session] = await t.db
      .select()
      .from(interviewSessions)
      .where(eq(interviewSessions.tokenHash, (await import('../services/sessions')).hashToken(token)));
    expect(session?.turns.filter((e) => e.role === 'interviewee').map((e) => e.transcript)).toEqual([
      'A closure is a function that keeps access to the variables of its outer scope after that scope has returned.',
      'I want to stop.',
    ]);
    expect(session?.transport).toBe('speech-pipeline');
    const sttCalls = audio.requests.filter((r) => r.kind === 'stt').length;
    expect(await audioTurn(t, email, token)).toMatchObject({ status: 409, body: { error: SESSION_FINISHED } });
    // A finished session is refused before the speech-to-text server is paid for.
    expect(audio.requests.filter((r) => r.kind === 'stt').length).toBe(sttCalls);

    // The rating binds to this session like any other.
    const rate = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        transcripts: session?.turns.map(({ role, transcript }) => ({ role, transcript })),
        durationSeconds: 60,
        questionSetId: setId,
        sessionId: session?.id,
      },
    });
    expect(rate.status).toBe(200);

    // Telemetry: the audio transcribed (two answers of 0.1 s) and the characters synthesised, priced.
    const characters = [opening.body.say, second.body.say, last.body.say].flatMap(speechParts).reduce((sum, part) => sum + part.length, 0);
    const usageOf = async () =>
      (
        await t.db
          .select()
          .from(interviewSessions)
          .where(eq(interviewSessions.id, session?.id ?? ''))
      )[0];
    await expect.poll(async () => (await usageOf())?.usage.synthesisedCharacters, { timeout: 10_000 }).toBe(characters);
    const recorded = await usageOf();
    expect(recorded?.usage).toEqual({
      transcriptionModel: MODELS.sttModel,
      transcribedSeconds: 0.2,
      speechModel: MODELS.ttsModel,
      synthesisedCharacters: characters,
    });
    expect(recorded?.estimatedCostUsd).toBeCloseTo((0.2 / 60) * 0.006 + (characters * 15) / 1_000_000, 12);
    expect(recorded?.endReason).toBe('closed-by-interviewer');
  });

  it('typed answers go through the same turn', async () => {
    const email = 'typist@example.com';
    const token = await start(t, setId, email);
    await textTurn(t, email, token);
    const typed = await textTurn(t, email, token, 'A closure keeps access to its outer scope, even after the outer function returned.');
    expect(typed.body).toMatchObject({ heard: null, retry: false, closeSession: null });
    expect(typed.body.say).not.toContain('What is a closure?');
    expect(audio.requests.filter((r) => r.kind === 'stt')).toHaveLength(0);
  });

  it('the speech-to-text server failing (after its retry) gives a spoken apology and the candidate answers again', async () => {
    const email = 'unheard@example.com';
    const token = await start(t, setId, email);
    await textTurn(t, email, token);
    audio.failNext('stt', 500, 2);
    const failed = await audioTurn(t, email, token);
    expect(failed).toMatchObject({ status: 200, body: { heard: null, say: NOT_HEARD_APOLOGY, closeSession: null, retry: true } });
    expect((await clip(t, failed.body.audio[0] ?? '')).bytes.equals(fakeMp3('Sorry, I could not hear that answer.'))).toBe(true);
    // Kept for the admin event details.
    const [row] = await t.db
      .select()
      .from(interviewSessions)
      .where(eq(interviewSessions.tokenHash, (await import('../services/sessions')).hashToken(token)));
    expect(row?.errorCount).toBe(1);
    expect(row?.errors[0]).toMatchObject({
      source: 'speech-to-text',
      code: 'HTTP 500',
      message: expect.stringMatching(/^The speech-to-text server \(http:\/\/127\.0\.0\.1:\d+\) answered HTTP 500/),
    });

    heard = ['A closure keeps the variables of its outer scope alive after the outer function returned.'];
    const again = await audioTurn(t, email, token);
    expect(again.body).toMatchObject({
      heard: 'A closure keeps the variables of its outer scope alive after the outer function returned.',
      retry: false,
    });
    expect(again.body.say).not.toBe(NOT_HEARD_APOLOGY);
  });

  it('silence (nothing heard) is no turn and no apology', async () => {
    const email = 'quiet@example.com';
    const token = await start(t, setId, email);
    await textTurn(t, email, token);
    heard = [''];
    expect(await audioTurn(t, email, token)).toMatchObject({ status: 200, body: { heard: '', say: '', audio: [], retry: true } });
  });

  it('the text-to-speech server failing leaves the line as text: its clip answers 502 with a sentence', async () => {
    const email = 'mute@example.com';
    const token = await start(t, setId, email);
    // Only this session's opening (lines of earlier tests may still be synthesising).
    audio.failNext('tts', 500, 2, (r) => String(r.fields.input).startsWith('Hello, and welcome'));
    const opening = await textTurn(t, email, token);
    expect(opening.status).toBe(200);
    expect(await clip(t, opening.body.audio[0] ?? '')).toMatchObject({ status: 502, text: JSON.stringify({ error: CLIP_FAILED }) });
  });

  it('refuses what it cannot use, with sentences', async () => {
    const email = 'bad@example.com';
    const token = await start(t, setId, email);
    expect(await audioTurn(t, email, token, Buffer.alloc(0))).toMatchObject({ status: 400, body: { error: NO_AUDIO } });
    await login(t.app, 'other@example.com');
    expect((await audioTurn(t, 'other@example.com', token)).status).toBe(403);
    expect((await audioTurn(t, email, 'sp_unknown')).status).toBe(404);
    expect(await clip(t, '/interview/speech/no-such-clip')).toMatchObject({ status: 404, text: JSON.stringify({ error: CLIP_GONE }) });
    expect(audio.requests.filter((r) => r.kind === 'stt')).toHaveLength(0);
  });
});

describe('speech pipeline with an LLM interviewer that fails mid-interview', () => {
  let audio: FakeAudioServer;
  let llm: FakeLlmServer;
  let t: TestApp;
  let setId = -1;

  beforeAll(async () => {
    audio = await startFakeAudioServer({ apiKey: 'local-key', ...MODELS, defaultTranscript: 'A closure remembers its scope.' });
    llm = await startFakeLlmServer();
    t = await createTestApp({
      database: 'pglite',
      questionSets: FIXTURE_SETS,
      config: pipelineConfig(audio, { llmBaseUrl: llm.baseUrl, llmModel: 'fake-model' }),
    });
    setId = (await setIds(t.app)).get(1) ?? -1;
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
    await audio?.close();
  });

  it('apologises and keeps the session: the same answer works once the model is back', async () => {
    const email = 'llm-down@example.com';
    const token = await start(t, setId, email);
    llm.enqueue({ content: 'Welcome! What is a closure?' });
    expect((await textTurn(t, email, token)).body.say).toBe('Welcome! What is a closure?');
    llm.enqueue({ status: 500, message: 'overloaded' }, { status: 500, message: 'overloaded' });
    const failed = await audioTurn(t, email, token);
    expect(failed).toMatchObject({ status: 200, body: { heard: 'A closure remembers its scope.', say: INTERVIEWER_APOLOGY, retry: true } });
    llm.enqueue({ content: 'Good. How does the event loop work?' });
    expect((await audioTurn(t, email, token)).body).toMatchObject({ say: 'Good. How does the event loop work?', retry: false });
    const [session] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.transport, 'speech-pipeline'));
    expect(session?.turns.filter((e) => e.role === 'interviewee')).toHaveLength(1);
  });
});

describe('a server not in the pipeline mode', () => {
  it('refuses the speech calls plainly', async () => {
    const t = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS });
    try {
      await login(t.app, 'bs@example.com');
      const res = await call(t.app, 'POST', '/interview/speech-turn', { email: 'bs@example.com', body: { sessionToken: 'bs_x' } });
      expect(res).toMatchObject({ status: 409, body: { error: NOT_A_PIPELINE_SERVER } });
    } finally {
      await t.close();
    }
  });
});
