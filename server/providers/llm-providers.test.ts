/**
 * The LLM providers inside the real app (buildApp, PGlite, createProviders from the config),
 * with a local OpenAI-compatible server in place of the model.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, TEST_ADMIN_SECRET, type TestApp } from '../../test-support/test-app';

interface Token {
  transport: string;
  sessionId: string;
  client_secret: { value: string };
}
type Turn = { say: string; closeSession: { reason: string } | null };

describe('an app configured with an LLM (LLM_BASE_URL + LLM_MODEL)', () => {
  let llm: FakeLlmServer;
  let t: TestApp;
  let setId = -1;

  beforeAll(async () => {
    llm = await startFakeLlmServer();
    t = await createTestApp({
      database: 'pglite',
      questionSets: FIXTURE_SETS,
      config: { llmBaseUrl: llm.baseUrl, llmModel: 'fake-model' },
    });
    setId = (await setIds(t.app)).get(1) ?? -1;
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });
  afterEach(() => {
    // Every request to the model (interviewer turns, closing remarks, ratings, retries) bounds its answer (issue 33 item 6).
    for (const request of llm.requests) expect(request.body.max_tokens).toEqual(expect.any(Number));
  });

  it('runs the interview with the LLM interviewer and rates with the LLM rater, recorded as llm:<model>', async () => {
    const email = 'llm@example.com';
    await login(t.app, email);
    const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    expect(token.body.transport).toBe('browser-speech');
    const turn = (utterance?: string) =>
      call<Turn>(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: token.body.client_secret.value, utterance } });

    llm.enqueue({ content: 'Welcome! What is a closure?' });
    expect(await turn()).toMatchObject({ status: 200, body: { say: 'Welcome! What is a closure?', closeSession: null } });
    const first = llm.requests[0]?.body as { model: string; messages: Array<{ role: string; content: string }>; tools: unknown[] };
    expect(first.model).toBe('fake-model');
    expect(first.messages[0]?.content).toContain('1. What is a closure?\n2. How does the event loop work?');
    expect(first.tools).toHaveLength(1);

    llm.enqueue({ tool: { name: 'close_session', arguments: '{"reason":"the candidate asked to stop"}' }, content: 'Thanks, goodbye!' });
    expect(await turn('A function that keeps its scope. I want to stop now.')).toMatchObject({
      status: 200,
      body: { say: 'Thanks, goodbye!', closeSession: { reason: 'the candidate asked to stop' } },
    });
    // The stored history reaches the model on the next call.
    expect((llm.requests[1]?.body as { messages: unknown[] }).messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Welcome! What is a closure?' },
      { role: 'user', content: 'A function that keeps its scope. I want to stop now.' },
    ]);

    llm.enqueue({
      content: JSON.stringify({
        summary: 'A short start on closures, then you stopped.',
        questions: [
          // This test catalogue gives no key points, so no credit can be verified.
          { number: 1, credits: [{ keyPoint: 'closures', quote: 'A function that keeps its scope' }], feedback: 'Give an example.' },
          { number: 2, credits: [], feedback: 'Not reached.' },
        ],
        improvements: ['Finish the interview next time.'],
      }),
    });
    const transcripts = [
      { role: 'interviewer', transcript: 'Welcome! What is a closure?', at: 500 },
      { role: 'interviewee', transcript: 'A function that keeps its scope. I want to stop now.', at: 9000 },
      { role: 'interviewer', transcript: 'Thanks, goodbye!', at: 9500 },
    ];
    const rated = await call<{ markdown: string; score: number }>(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts, durationSeconds: 12, questionSetId: setId, sessionId: token.body.sessionId },
    });
    expect(rated.status).toBe(200);
    // The server computes the score from verified credits, never taking the model's word for it.
    expect(rated.body.score).toBe(0);
    expect(rated.body.markdown).toContain('Give an example.');
    expect(rated.body.markdown).toContain('### 2. How does the event loop work?\n\n**Not answered**');
    expect(rated.body.markdown).toContain('## Delivery');
    expect(llm.requests.at(-1)?.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });

    const events = await call<Array<{ eventType: string; userEmail: string; rater: string | null }>>(t.app, 'GET', '/api/events', {
      admin: TEST_ADMIN_SECRET,
    });
    expect(events.body.find((e) => e.eventType === 'RATE' && e.userEmail === email)?.rater).toBe('llm:fake-model');
  });

  it('falls back to the rubric rater when the model keeps failing, and says so', async () => {
    const email = 'llm-down@example.com';
    await login(t.app, email);
    llm.setFallback({ status: 503, message: 'model is loading' });
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email })).status).toBe(200);
    const transcripts = [
      { role: 'interviewer', transcript: 'What is a closure?' },
      { role: 'interviewee', transcript: 'A closure keeps access to its outer scope after the function returns.' },
    ];
    const rated = await call<{ markdown: string; score: number }>(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts, durationSeconds: 30, questionSetId: setId },
    });
    expect(rated.status).toBe(200);
    expect(rated.body.markdown).toMatch(
      /^> The AI rater could not rate this interview, so this feedback comes from the built-in rubric rater\./,
    );
    expect(rated.body.markdown).not.toContain('127.0.0.1');
    expect(rated.body.markdown).not.toContain('model is loading');
    const events = await call<Array<{ eventType: string; userEmail: string; rater: string | null }>>(t.app, 'GET', '/api/events', {
      admin: TEST_ADMIN_SECRET,
    });
    // The admin's event details say why: the model's endpoint and its answer.
    expect(events.body.find((e) => e.eventType === 'RATE' && e.userEmail === email)?.rater).toMatch(
      /^rubric \(llm:fake-model failed: The language model endpoint \(http:\/\/127\.0\.0\.1:\d+\) answered HTTP 503: model is loading\)$/,
    );
  });

  it('answers the turn with an {error} sentence when the model cannot be reached', async () => {
    const email = 'llm-turn-down@example.com';
    await login(t.app, email);
    const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    llm.setFallback({ status: 401, message: 'invalid key' });
    const answer = await call<{ error: string }>(t.app, 'POST', '/interview/turn', {
      email,
      body: { sessionToken: token.body.client_secret.value },
    });
    expect(answer).toMatchObject({
      status: 502,
      body: { error: 'The interviewer is not available right now. Please try again in a few minutes.' },
    });
    // The session is still open: a later turn works once the model is back.
    llm.enqueue({ content: 'Welcome back! What is a closure?' });
    const again = await call<Turn>(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: token.body.client_secret.value } });
    expect(again).toMatchObject({ status: 200, body: { say: 'Welcome back! What is a closure?' } });
  });
});
