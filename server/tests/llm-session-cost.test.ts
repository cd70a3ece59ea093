/**
 * The language model's tokens count in a session's usage and estimated cost: every call the LLM
 * interviewer makes for a turn and every call the AI rater makes (failed attempts included, they are
 * billed too), recorded by the server per session, over HTTP on both databases. The fake LLM server
 * speaks the chat-completions protocol and reports FAKE_LLM_USAGE for each completion.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAKE_LLM_USAGE, startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { call, FIXTURE_SETS, setIds, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import type { AdminEvent } from '../../contract';
import { INTERVIEWER_UNAVAILABLE } from '../services/turns';

describeDatabases("a session's language-model usage and cost", (database) => {
  let llm: FakeLlmServer;
  let t: TestApp;

  beforeAll(async () => {
    llm = await startFakeLlmServer();
    // A question for the interviewer; not a rating the rater can read, so it retries and falls back to the rubric.
    llm.setFallback({ content: 'Thank you. Can you tell me more about that?' });
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: { llmBaseUrl: llm.baseUrl, llmModel: 'gpt-4.1-mini' } });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('sums every interviewer and rater call of the session, and prices them', { timeout: 60_000 }, async () => {
    const email = 'llm-cost@example.com';
    const token = await startInterview(t.app, email);
    const turn = (utterance?: string) =>
      call(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: token.client_secret.value, utterance } });
    expect((await turn()).status).toBe(200);
    expect((await turn('A closure keeps the variables of the function it was made in.')).status).toBe(200);
    const interviewerCalls = llm.requests.length;
    expect(interviewerCalls).toBe(2);

    const rated = await call<{ markdown: string }>(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { questionSetId: (await setIds(t.app)).get(1), sessionId: token.sessionId, durationSeconds: 60, transcripts: [] },
    });
    expect(rated.status).toBe(200);
    // The rater's first try and its two retries were billed, then the rubric rated.
    const calls = llm.requests.length;
    expect(calls - interviewerCalls).toBe(3);

    const events = await call<AdminEvent[]>(t.app, 'GET', '/api/events?limit=500', { admin: t.config.adminSecret });
    const session = events.body.find((e) => e.session?.sessionId === token.sessionId)?.session;
    expect(session?.usage).toEqual({
      llmModel: 'gpt-4.1-mini',
      llmCalls: calls,
      raterCalls: 3,
      llmInTokens: calls * FAKE_LLM_USAGE.prompt_tokens,
      llmCachedInTokens: calls * FAKE_LLM_USAGE.prompt_tokens_details.cached_tokens,
      llmOutTokens: calls * FAKE_LLM_USAGE.completion_tokens,
    });
    // gpt-4.1-mini list prices per 1M tokens: 0.40 in, 0.10 cached in, 1.60 out.
    const perCall = ((1200 - 1024) * 0.4 + 1024 * 0.1 + 80 * 1.6) / 1_000_000;
    expect(session?.estimatedCostUsd).toBeCloseTo(calls * perCall, 12);
  });

  it(
    "a turn the language model cannot answer: the candidate's sentence, the session's kept error with the upstream status, and the billed call counted",
    { timeout: 60_000 },
    async () => {
      const email = 'llm-down@example.com';
      const token = await startInterview(t.app, email);
      // The first try answers with an empty line (billed, retried), the retry fails upstream.
      llm.enqueue({ content: '' }, { status: 500, message: 'The model is overloaded.' });
      const turn = await call(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: token.client_secret.value } });
      expect(turn).toMatchObject({ status: 502, body: { error: INTERVIEWER_UNAVAILABLE } });

      const events = await call<AdminEvent[]>(t.app, 'GET', '/api/events?limit=500', { admin: t.config.adminSecret });
      const session = events.body.find((e) => e.session?.sessionId === token.sessionId)?.session;
      expect(session?.errors).toEqual([
        { source: 'interviewer', code: 'HTTP 500', message: expect.stringContaining('HTTP 500'), at: expect.any(String) },
      ]);
      expect(session?.usage).toMatchObject({ llmModel: 'gpt-4.1-mini', llmCalls: 1 });
    },
  );
});
