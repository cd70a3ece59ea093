/**
 * The speech pipeline's audio clips live in the database (services/speech/clips.ts), so two
 * servers on one PostgreSQL need no sticky routing: a clip made by one server is served by the
 * other over HTTP, while it is still being synthesised too; a failed clip answers the same 502
 * there; a server that closes finishes the clips it is synthesising first; and the per-session clip
 * budget (SESSION_AUDIO_CLIPS) holds across both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMp3, startFakeAudioServer, type FakeAudioServer } from '../../test-support/fake-audio-server';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { createTestApp, postgresAvailable, type TestApp } from '../../test-support/test-app';
import type { SpeechPipelineToken, SpeechTurnResponse, TokenResponse } from '../../contract';
import { CLIP_FAILED, CLIP_GONE } from '../services/speech';

const MODELS = { sttModel: 'whisper-local', ttsModel: 'kokoro', ttsVoice: 'af_heart' };
const PER_SESSION = 4;

describe.skipIf(!postgresAvailable)('speech clips shared by two servers on one PostgreSQL', () => {
  let audio: FakeAudioServer;
  let a: TestApp;
  let b: TestApp;

  const config = (baseUrl: string) => ({
    voiceModeSetting: 'pipeline' as const,
    sttBaseUrl: baseUrl,
    sttModel: MODELS.sttModel,
    ttsBaseUrl: baseUrl,
    ttsModel: MODELS.ttsModel,
    ttsVoice: MODELS.ttsVoice,
    freeSessionLimit: 20,
    sessionAudioClips: PER_SESSION,
  });

  beforeAll(async () => {
    // Each line's audio comes in three parts 150 ms apart, so the other server reads while it is written.
    audio = await startFakeAudioServer({ apiKey: null, ...MODELS, ttsChunks: 3, ttsChunkGapMs: 150 });
    a = await createTestApp({ database: 'postgres', questionSets: FIXTURE_SETS, listen: true, config: config(audio.baseUrl) });
    b = await createTestApp({
      database: 'postgres',
      postgresUrl: a.databaseUrl,
      questionSets: FIXTURE_SETS,
      listen: true,
      config: config(audio.baseUrl),
    });
  }, 300_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await audio?.close();
  });

  async function http<T>(base: string | undefined, path: string, init: { email?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    if (init.email) headers['x-user-email'] = init.email;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${path}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  async function interview(email: string): Promise<string> {
    expect((await http(a.baseUrl, '/user/login', { body: { email } })).status).toBe(200);
    const sets = (await http<Array<{ id: number; index: number }>>(a.baseUrl, '/api/question-sets')).body;
    const set = sets.find((s) => s.index === 1);
    const token = await http<TokenResponse>(a.baseUrl, `/interview/token?questionSetId=${set?.id}`, { email });
    expect(token.status).toBe(200);
    return (token.body as SpeechPipelineToken).client_secret.value;
  }

  const turn = (base: string | undefined, email: string, sessionToken: string, utterance?: string) =>
    http<SpeechTurnResponse>(base, '/interview/speech-turn', { email, body: { sessionToken, ...(utterance ? { utterance } : {}) } });

  it("serves one server's clip from the other, as it is synthesised and after", async () => {
    const email = 'shared-clips@example.com';
    const session = await interview(email);
    const opening = await turn(a.baseUrl, email, session);
    expect(opening.status).toBe(200);
    expect(opening.body.audio.length).toBeGreaterThan(0);
    const started = performance.now();
    // Asked of server B at once, while server A is still receiving the audio.
    const clips = await Promise.all(opening.body.audio.map((path) => fetch(`${b.baseUrl}${path}`)));
    const bodies = await Promise.all(clips.map(async (clip) => ({ status: clip.status, bytes: Buffer.from(await clip.arrayBuffer()) })));
    expect(bodies.map((clip) => clip.status)).toEqual(opening.body.audio.map(() => 200));
    // The first clip is the opening's first sentence, whole (the fake's mp3 names its line).
    expect(bodies[0]?.bytes.subarray(0, 10)).toEqual(fakeMp3('').subarray(0, 10));
    expect(bodies.map((clip) => clip.bytes.toString('latin1')).join(' ')).toContain(opening.body.say.split(/[.!?]/)[0] ?? '<none>');
    // Three parts 150 ms apart: B streamed what A was still writing.
    expect(performance.now() - started).toBeGreaterThan(250);

    // And the same clips again afterwards, from either server.
    for (const base of [a.baseUrl, b.baseUrl]) {
      const again = await fetch(`${base}${opening.body.audio[0]}`);
      expect(again.status).toBe(200);
      expect(Buffer.from(await again.arrayBuffer())).toEqual(bodies[0]?.bytes);
    }
  });

  it('a server that closes (SIGTERM) while it synthesises a line finishes its clips first: the other server serves them whole', async () => {
    const email = 'shared-clips-closing@example.com';
    const session = await interview(email);
    const c = await createTestApp({
      database: 'postgres',
      postgresUrl: a.databaseUrl,
      questionSets: FIXTURE_SETS,
      listen: true,
      config: config(audio.baseUrl),
    });
    const opening = await turn(c.baseUrl, email, session);
    expect(opening.status).toBe(200);
    // Closed at once: its synthesis (three parts 150 ms apart per clip) has only begun.
    await c.close();
    const started = performance.now();
    const clips = await Promise.all(opening.body.audio.map((path) => fetch(`${b.baseUrl}${path}`)));
    expect(clips.map((clip) => clip.status)).toEqual(opening.body.audio.map(() => 200));
    const bytes = await Promise.all(clips.map(async (clip) => Buffer.from(await clip.arrayBuffer()).toString('latin1')));
    expect(bytes.join(' ')).toContain(opening.body.say.split(/[.!?]/)[0] ?? '<none>');
    // Served from what was stored, not after the stall wait of a clip whose writer was gone.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a clip whose synthesis failed on one server answers 502 with a sentence on the other', async () => {
    const email = 'shared-clips-failed@example.com';
    const session = await interview(email);
    audio.failNext('tts', 500, 10);
    const opening = await turn(a.baseUrl, email, session);
    const clip = await fetch(`${b.baseUrl}${opening.body.audio[0]}`);
    expect([clip.status, await clip.json()]).toEqual([502, { error: CLIP_FAILED }]);
  });

  it("keeps one session's clip budget across both servers: its oldest clips make way on both", async () => {
    const email = 'shared-clips-budget@example.com';
    const session = await interview(email);
    const paths: string[] = [];
    // Turns alternate between the servers, as a round-robin balancer would send them.
    paths.push(...(await turn(a.baseUrl, email, session)).body.audio);
    for (let i = 0; paths.length < PER_SESSION + 3; i++) {
      const answer = await turn(i % 2 === 0 ? b.baseUrl : a.baseUrl, email, session, `Answer number ${i} about closures and scope.`);
      expect(answer.status).toBe(200);
      paths.push(...answer.body.audio);
    }
    const oldest = paths[0] ?? '';
    const newest = paths.at(-1) ?? '';
    for (const base of [a.baseUrl, b.baseUrl]) {
      const gone = await fetch(`${base}${oldest}`);
      expect([gone.status, await gone.json()]).toEqual([404, { error: CLIP_GONE }]);
      expect((await fetch(`${base}${newest}`)).status).toBe(200);
    }
  });
});
