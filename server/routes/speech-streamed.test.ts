/**
 * Streamed speech turns (issue 37 item 2) over HTTP on both databases: the language model's reply
 * arrives in server-sent chunks from the local chat-completions server, which holds its last piece
 * until the test lets it go; the first sentence's clip path and its audio reach the client before
 * that, and the whole reply (text, transcript) is the one a plain turn gives.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SPEECH_TURN_STREAM_TYPE } from '../../contract/limits';
import type { SpeechTurnLine, SpeechTurnResponse } from '../../contract';
import { fakeMp3 } from '../../test-support/fake-audio-server';
import { startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { call, login, setIds } from '../../test-support/fixtures';
import { createPipelineApp, type PipelineApp } from '../../test-support/pipeline-app';
import { describeDatabases } from '../../test-support/test-app';
import { INTERVIEWER_APOLOGY, speechParts } from '../services/speech';
import { UNKNOWN_SESSION } from '../services/turns';
import { deferred, lineReader as linesOf, postTurnCall } from '../../test-support/ndjson-lines';

const lineReader = (body: ReadableStream<Uint8Array>) => linesOf<SpeechTurnLine>(body);

interface Token {
  client_secret: { value: string };
}

const OPENING = [
  'Welcome to the interview, it is good to have you here today. ',
  'Let us start with the first question. ',
  'What is a closure?',
];
const OPENING_LINE = OPENING.join('');

describeDatabases('streamed speech turns', (database) => {
  let llm: FakeLlmServer;
  let t: PipelineApp;
  let setId = -1;

  beforeAll(async () => {
    llm = await startFakeLlmServer();
    t = await createPipelineApp(database, { listen: true, config: { llmBaseUrl: llm.baseUrl, llmModel: 'fake-model' } });
    setId = (await setIds(t.app)).get(1) ?? -1;
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
    t.audio.requests.length = 0;
  });

  async function start(email: string): Promise<string> {
    await login(t.app, email);
    const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    return token.body.client_secret.value;
  }

  const turn = (email: string, body: Record<string, unknown>, streamed = true) =>
    postTurnCall(t.baseUrl, '/interview/speech-turn', email, body, streamed);

  it("plays the first sentence's audio while the language model still writes the line; the reply is the whole line", async () => {
    const email = 'streamed@example.com';
    const sessionToken = await start(email);
    const hold = deferred();
    llm.enqueue({ pieces: OPENING, hold: hold.promise });

    const response = await turn(email, { sessionToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(SPEECH_TURN_STREAM_TYPE);
    const next = lineReader(response.body as ReadableStream<Uint8Array>);
    const first = await next();
    expect(first).toEqual({ audio: expect.stringMatching(/^\/interview\/speech\/\S+$/) });
    const firstPath = (first as { audio: string }).audio;

    // The model still holds its last piece: the first sentence's audio is there already, whole.
    const clip = await fetch(`${t.baseUrl}${firstPath}`);
    expect(clip.status).toBe(200);
    expect(Buffer.from(await clip.arrayBuffer())).toEqual(fakeMp3('Welcome to the interview, it is good to have you here today.'));
    expect(t.audio.requests.map((r) => r.fields.input)).toEqual(['Welcome to the interview, it is good to have you here today.']);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    hold.resolve();
    const second = await next();
    expect(second).toEqual({ audio: expect.stringMatching(/^\/interview\/speech\/\S+$/) });
    const last = await next();
    expect(last).toEqual({
      reply: {
        heard: null,
        say: OPENING_LINE,
        closeSession: null,
        audio: [firstPath, (second as { audio: string }).audio],
        retry: false,
      },
    });
    expect(await next()).toBeNull();
    // The parts are those of the whole line, each synthesised once.
    const secondClip = await fetch(`${t.baseUrl}${(second as { audio: string }).audio}`);
    expect(Buffer.from(await secondClip.arrayBuffer())).toEqual(fakeMp3('Let us start with the first question. What is a closure?'));
    expect(t.audio.requests.map((r) => r.fields.input)).toEqual(speechParts(OPENING_LINE));

    // The stored transcript holds the whole line, as a plain turn stores it.
    const live = await call<{ session: { transcript: Array<{ role: string; transcript: string }> } }>(
      t.app,
      'GET',
      '/interview/sessions/live',
      { email },
    );
    expect(live.body.session.transcript.map((e) => [e.role, e.transcript])).toEqual([['interviewer', OPENING_LINE]]);
  });

  it('says the same line as a plain turn, which answers one JSON body', async () => {
    const email = 'plain@example.com';
    const sessionToken = await start(email);
    llm.enqueue({ pieces: OPENING });
    const response = await turn(email, { sessionToken }, false);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as SpeechTurnResponse;
    expect(body).toEqual({
      heard: null,
      say: OPENING_LINE,
      closeSession: null,
      audio: [expect.any(String), expect.any(String)],
      retry: false,
    });
  });

  it('a reply cut off before its first sentence was said is asked again', async () => {
    const email = 'retried@example.com';
    const sessionToken = await start(email);
    llm.enqueue({ content: 'Welcome! What is a closure?' });
    expect((await turn(email, { sessionToken }, false)).status).toBe(200);
    llm.requests.length = 0;
    llm.enqueue({ pieces: ['Good. ', 'Now tell me'], cut: true }, { content: 'Good. How does the event loop work?' });
    const response = await turn(email, { sessionToken, utterance: 'A closure keeps its scope.', spoken: true });
    const next = lineReader(response.body as ReadableStream<Uint8Array>);
    const lines: SpeechTurnLine[] = [];
    for (let line = await next(); line; line = await next()) lines.push(line);
    expect(lines.at(-1)).toMatchObject({ reply: { say: 'Good. How does the event loop work?', retry: false } });
    expect(llm.requests).toHaveLength(2);
  });

  it('a reply cut off after its first sentence is not asked again: the apology follows the words already said', async () => {
    const email = 'cut@example.com';
    const sessionToken = await start(email);
    llm.enqueue({ content: 'Welcome! What is a closure?' });
    expect((await turn(email, { sessionToken }, false)).status).toBe(200);
    llm.requests.length = 0;

    llm.enqueue({ pieces: ['That is a clear answer with a good example of scope. ', 'Now tell me', ' about'], cut: true });
    const response = await turn(email, { sessionToken, utterance: 'A closure keeps its scope.', spoken: true });
    expect(response.status).toBe(200);
    const next = lineReader(response.body as ReadableStream<Uint8Array>);
    const lines: SpeechTurnLine[] = [];
    for (let line = await next(); line; line = await next()) lines.push(line);
    const apology = speechParts(INTERVIEWER_APOLOGY);
    expect(lines).toHaveLength(1 + apology.length + 1);
    expect(lines.at(-1)).toEqual({
      reply: {
        heard: 'A closure keeps its scope.',
        say: INTERVIEWER_APOLOGY,
        closeSession: null,
        audio: lines.slice(1, -1).map((l) => (l as { audio: string }).audio),
        retry: true,
      },
    });
    expect(llm.requests).toHaveLength(1);
    // Each clip says its part: the sentence already written, then the apology.
    const said = ['That is a clear answer with a good example of scope.', ...apology];
    for (const [i, line] of lines.slice(0, -1).entries()) {
      const clip = await fetch(`${t.baseUrl}${(line as { audio: string }).audio}`);
      expect(Buffer.from(await clip.arrayBuffer())).toEqual(fakeMp3(said[i] as string));
    }
  });

  describe('before any audio exists', () => {
    it('a refusal answers its status and sentence as a plain turn does', async () => {
      await login(t.app, 'nobody@example.com');
      const response = await turn('nobody@example.com', { sessionToken: 'sp_not-a-session' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: UNKNOWN_SESSION });
    });

    it('an interviewer that fails before writing a word answers the plain sentence (the opening line)', async () => {
      const email = 'down@example.com';
      const sessionToken = await start(email);
      llm.enqueue({ status: 401, message: 'bad key' });
      const response = await turn(email, { sessionToken });
      expect(response.status).toBe(502);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ error: 'The interviewer is not available right now. Please try again in a few minutes.' });
    });
  });
});
