/**
 * Upstream deadlines (README, Security and limits), over HTTP on both databases with local stand-ins for the speech servers, the
 * language model and the OpenAI Realtime calls API: every upstream call has an overall deadline
 * (UPSTREAM_DEADLINE_SECONDS), not only one for its first byte. A text-to-speech stream that
 * trickles is cut, and so are a slow transcription, a trickling completion and a trickling SDP answer.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { startFakeRealtimeServer, type FakeRealtimeServer } from '../../test-support/fake-realtime-server';
import { call, FIXTURE_SETS, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import type { OpenAiToken, SpeechPipelineToken, SpeechTurnResponse } from '../../contract';
import { PROVIDER_TEXTS } from '../providers/upstream/realtime-calls-client';
import { INTERVIEWER_APOLOGY, NOT_HEARD_APOLOGY } from '../services/speech';
import { pcmWav } from '../../test-support/pcm-wav';
import { createPipelineApp, speechAnswer, type PipelineApp } from '../../test-support/pipeline-app';
const DEADLINE_SECONDS = 1.5;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeDatabases('overall deadlines of upstream calls', (database) => {
  let llm: FakeLlmServer;
  let t: PipelineApp;
  let sttWaitMs = 0;

  beforeAll(async () => {
    llm = await startFakeLlmServer();
    t = await createPipelineApp(database, {
      audio: {
        // 400 bytes in 200 chunks, 200 ms apart: a line whose audio would take 40 s to arrive.
        synthesize: () => Buffer.alloc(400, 7),
        ttsChunks: 200,
        ttsChunkGapMs: 200,
        transcribe: async () => {
          await wait(sttWaitMs);
          return 'A closure keeps its scope.';
        },
      },
      config: { llmBaseUrl: llm.baseUrl, llmModel: 'local-model', upstreamDeadlineSeconds: DEADLINE_SECONDS },
    });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  const textTurn = (email: string, sessionToken: string, utterance?: string) =>
    call<SpeechTurnResponse>(t.app, 'POST', '/interview/speech-turn', {
      email,
      body: utterance === undefined ? { sessionToken } : { sessionToken, utterance },
    });

  it('cuts a trickling text-to-speech stream at the deadline', { timeout: 20_000 }, async () => {
    const email = 'tts-trickle@example.com';
    const token = await startInterview<SpeechPipelineToken>(t.app, email);
    llm.enqueue({ content: 'Welcome to the interview. What is a closure?' });
    const opening = await textTurn(email, token.client_secret.value);
    expect(opening.status).toBe(200);
    const started = performance.now();
    const clip = await t.app.inject({ method: 'GET', url: opening.body.audio[0] ?? '' });
    const took = performance.now() - started;
    expect(clip.statusCode).toBe(200);
    expect(clip.rawPayload.length).toBeGreaterThan(0);
    expect(clip.rawPayload.length).toBeLessThan(400);
    expect(took).toBeLessThan(DEADLINE_SECONDS * 1000 + 3000);
  });

  it('gives up on a transcription that takes longer than the deadline: the candidate is asked again', { timeout: 20_000 }, async () => {
    const email = 'stt-slow@example.com';
    const token = await startInterview<SpeechPipelineToken>(t.app, email);
    llm.enqueue({ content: 'Welcome. What is a closure?' });
    expect((await textTurn(email, token.client_secret.value)).status).toBe(200);
    sttWaitMs = 6000;
    try {
      const started = performance.now();
      const answer = await speechAnswer(t.app, { email, token: token.client_secret.value, audio: pcmWav(1) });
      expect(performance.now() - started).toBeLessThan(DEADLINE_SECONDS * 1000 + 2500);
      expect(answer.body).toMatchObject({ heard: null, say: NOT_HEARD_APOLOGY, retry: true });
    } finally {
      sttWaitMs = 0;
    }
  });

  it('gives up on a trickling language-model completion: the interviewer apologises', { timeout: 20_000 }, async () => {
    const email = 'llm-trickle@example.com';
    const token = await startInterview<SpeechPipelineToken>(t.app, email);
    llm.enqueue({ content: 'Welcome. What is a closure?' });
    expect((await textTurn(email, token.client_secret.value)).status).toBe(200);
    llm.enqueue({ trickle: 'Good. How does the event loop work?', gapMs: 100 });
    const started = performance.now();
    const turn = await textTurn(email, token.client_secret.value, 'A closure keeps its scope.');
    expect(performance.now() - started).toBeLessThan(DEADLINE_SECONDS * 1000 + 2500);
    expect(turn.body).toMatchObject({ say: INTERVIEWER_APOLOGY, retry: true });
  });
});

describeDatabases('overall deadline of an OpenAI call', (database) => {
  let upstream: FakeRealtimeServer;
  let t: TestApp;

  beforeAll(async () => {
    upstream = await startFakeRealtimeServer();
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { openaiApiKey: 'test-key', openaiBaseUrl: upstream.baseUrl, upstreamDeadlineSeconds: DEADLINE_SECONDS },
    });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('a trickling SDP answer is cut at the deadline and the call hung up', { timeout: 20_000 }, async () => {
    const token = await startInterview<OpenAiToken>(t.app, 'sdp-trickle@example.com');
    upstream.options.trickleAnswer = true;
    const started = performance.now();
    const answer = await t.app.inject({
      method: 'POST',
      url: token.sdpUrl,
      headers: { authorization: `Bearer ${token.client_secret.value}`, 'content-type': 'application/sdp' },
      payload: 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n',
    });
    expect(performance.now() - started).toBeLessThan(DEADLINE_SECONDS * 1000 + 2500);
    expect(answer.statusCode).toBe(504);
    expect(JSON.parse(answer.body)).toEqual({ error: PROVIDER_TEXTS.timeout });
    await expect.poll(() => upstream.liveCalls().length, { timeout: 5000 }).toBe(0);
  });
});
