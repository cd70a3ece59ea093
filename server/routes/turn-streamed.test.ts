/**
 * Streamed browser-speech turns (issue 37 item 2) over HTTP on both databases: with
 * `Accept: application/x-ndjson`, each settled part of the line a language model writes reaches
 * the browser (to be spoken) while the model still writes the rest; the whole reply and the stored
 * transcript are those of a plain turn. The local chat-completions server holds its last piece
 * until the test lets it go.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SPEECH_TURN_STREAM_TYPE } from '../../contract/limits';
import type { TurnLine } from '../../contract';
import { speechParts } from '../../domain/line-parts';
import { startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { call, login, setIds } from '../../test-support/fixtures';
import { allLines, deferred, lineReader, postTurnCall } from '../../test-support/ndjson-lines';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { INTERVIEWER_UNAVAILABLE, UNKNOWN_SESSION } from '../services/turns';

const OPENING = [
  'Welcome to the interview, it is good to have you here today. ',
  'Let us start with the first question. ',
  'What is a closure?',
];
const OPENING_LINE = OPENING.join('');

describeDatabases('streamed browser-speech turns', (database) => {
  let llm: FakeLlmServer;
  let t: TestApp;
  let setId = -1;

  beforeAll(async () => {
    llm = await startFakeLlmServer();
    t = await createTestApp({ database, listen: true, config: { llmBaseUrl: llm.baseUrl, llmModel: 'fake-model' } });
    setId = (await setIds(t.app)).get(1) ?? -1;
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });

  async function start(email: string): Promise<string> {
    await login(t.app, email);
    const token = await call<{ transport: string; client_secret: { value: string } }>(
      t.app,
      'GET',
      `/interview/token?questionSetId=${setId}`,
      { email },
    );
    expect(token.body.transport).toBe('browser-speech');
    return token.body.client_secret.value;
  }

  const turn = (email: string, body: Record<string, unknown>, streamed = true) =>
    postTurnCall(t.baseUrl, '/interview/turn', email, body, streamed);

  it('tells the first sentence while the language model still writes the line; the reply is the whole line', async () => {
    const email = 'spoken-early@example.com';
    const sessionToken = await start(email);
    const hold = deferred();
    llm.enqueue({ pieces: OPENING, hold: hold.promise });

    const response = await turn(email, { sessionToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(SPEECH_TURN_STREAM_TYPE);
    const next = lineReader<TurnLine>(response.body as ReadableStream<Uint8Array>);
    // The model still holds its last piece: the first sentence is told, and only it.
    expect(await next()).toEqual({ say: 'Welcome to the interview, it is good to have you here today.' });
    expect(llm.requests[0]?.body).toMatchObject({ stream: true });

    hold.resolve();
    expect(await next()).toEqual({ reply: { say: OPENING_LINE, closeSession: null } });
    expect(await next()).toBeNull();
    // What is left to say after the parts told is the rest of the whole line's parts.
    expect(speechParts(OPENING_LINE)).toEqual([
      'Welcome to the interview, it is good to have you here today.',
      'Let us start with the first question. What is a closure?',
    ]);

    const live = await call<{ session: { transcript: Array<{ role: string; transcript: string }> } }>(
      t.app,
      'GET',
      '/interview/sessions/live',
      { email },
    );
    expect(live.body.session.transcript.map((e) => [e.role, e.transcript])).toEqual([['interviewer', OPENING_LINE]]);
  });

  it('without the header answers one JSON body, and the model is not asked to stream', async () => {
    const email = 'plain-turn@example.com';
    const sessionToken = await start(email);
    llm.enqueue({ pieces: OPENING });
    const response = await turn(email, { sessionToken }, false);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ say: OPENING_LINE, closeSession: null });
    expect(llm.requests[0]?.body).not.toHaveProperty('stream', true);
  });

  it('a line whole before any part settled (one sentence) answers one JSON body', async () => {
    const email = 'one-sentence@example.com';
    const sessionToken = await start(email);
    llm.enqueue({ pieces: ['Welcome! ', 'What is a closure?'] });
    const response = await turn(email, { sessionToken });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ say: 'Welcome! What is a closure?', closeSession: null });
  });

  it('a reply that breaks off after its first sentence is told ends with the failure as its last line', async () => {
    const email = 'broke-off@example.com';
    const sessionToken = await start(email);
    llm.enqueue({ content: 'Welcome! What is a closure?' });
    expect((await turn(email, { sessionToken }, false)).status).toBe(200);
    llm.requests.length = 0;
    llm.enqueue({ pieces: ['That is a clear answer with a good example of scope. ', 'Now tell me', ' about'], cut: true });
    const response = await turn(email, { sessionToken, utterance: 'A closure keeps its scope.' });
    expect(response.status).toBe(200);
    expect(await allLines<TurnLine>(response.body as ReadableStream<Uint8Array>)).toEqual([
      { say: 'That is a clear answer with a good example of scope.' },
      { error: INTERVIEWER_UNAVAILABLE, status: 502 },
    ]);
    // Words already said are not followed by a second reply: the model was asked once.
    expect(llm.requests).toHaveLength(1);
  });

  describe('before any part is told', () => {
    it('a refusal answers its status and sentence as a plain turn does', async () => {
      await login(t.app, 'stranger@example.com');
      const response = await turn('stranger@example.com', { sessionToken: 'bs_not-a-session' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: UNKNOWN_SESSION });
    });

    it('an interviewer that fails before writing a word answers the plain sentence', async () => {
      const email = 'down-early@example.com';
      const sessionToken = await start(email);
      llm.enqueue({ status: 401, message: 'bad key' });
      const response = await turn(email, { sessionToken });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: INTERVIEWER_UNAVAILABLE });
    });
  });
});
