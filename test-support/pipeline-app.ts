/**
 * The speech pipeline under test: the real app (createTestApp) with its speech-to-text and
 * text-to-speech pointed at one fake OpenAI-compatible audio server (fake-audio-server.ts),
 * started and closed together, and a spoken answer sent as the web app sends it.
 *
 *   const t = await createPipelineApp(database, { audio: { defaultTranscript: '' }, config: { sessionSpeechAnswers: 5 } });
 *   const answer = await speechAnswer(t.app, { email, token: secret, audio: pcmWav(2) });
 *   // t.audio.requests, t.audio.failNext('stt', 400); await t.close();
 */
import type { FastifyInstance } from 'fastify';
import type { SpeechTurnResponse } from '../contract';
import type { AppConfig } from '../server/config';
import { startFakeAudioServer, type FakeAudioOptions, type FakeAudioServer } from './fake-audio-server';
import { FIXTURE_SETS } from './fixtures';
import { createTestApp, type TestApp, type TestDatabaseKind } from './test-app';

/** Model and voice names the fake expects (a local server's own names, so no OpenAI default is used). */
export const PIPELINE_MODELS = { sttModel: 'whisper-local', ttsModel: 'kokoro', ttsVoice: 'af_heart' };

export interface PipelineApp extends TestApp {
  audio: FakeAudioServer;
}

/**
 * An app in the speech-pipeline mode on FIXTURE_SETS, 20 interviews per free account (a suite
 * starts many), its STT and TTS on a fresh fake audio server without an API key. `audio` adds to
 * the fake's options, `config` to the app's settings.
 */
export async function createPipelineApp(
  database: TestDatabaseKind,
  /** `listen`: on a loopback port (t.baseUrl), for tests over HTTP. */
  options: { audio?: Partial<FakeAudioOptions>; config?: Partial<AppConfig>; listen?: boolean } = {},
): Promise<PipelineApp> {
  const audio = await startFakeAudioServer({ apiKey: null, ...PIPELINE_MODELS, ...options.audio });
  try {
    const t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      listen: options.listen ?? false,
      config: {
        voiceModeSetting: 'pipeline',
        sttBaseUrl: audio.baseUrl,
        sttModel: PIPELINE_MODELS.sttModel,
        ttsBaseUrl: audio.baseUrl,
        ttsModel: PIPELINE_MODELS.ttsModel,
        ttsVoice: PIPELINE_MODELS.ttsVoice,
        freeSessionLimit: 20,
        ...options.config,
      },
    });
    return {
      ...t,
      audio,
      async close() {
        await t.close();
        await audio.close();
      },
    };
  } catch (error) {
    await audio.close();
    throw error;
  }
}

/** POST /interview/speech-answer: the answer's audio as the raw body, with the caller's email and session token. */
export async function speechAnswer(
  app: FastifyInstance,
  answer: { email: string; token: string; audio: Buffer; contentType?: string; remoteAddress?: string },
): Promise<{ status: number; body: SpeechTurnResponse & { error?: string } }> {
  const response = await app.inject({
    method: 'POST',
    url: '/interview/speech-answer',
    headers: { 'x-user-email': answer.email, 'x-session-token': answer.token, 'content-type': answer.contentType ?? 'audio/wav' },
    payload: answer.audio,
    ...(answer.remoteAddress ? { remoteAddress: answer.remoteAddress } : {}),
  });
  return { status: response.statusCode, body: JSON.parse(response.body) as SpeechTurnResponse & { error?: string } };
}
