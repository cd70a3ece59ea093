/**
 * Budgets (README, Security and limits), over HTTP on both databases: a repeated rating call never rates a failed
 * rating again (only the capped background retries do), every paid interviewer completion,
 * an unusable reply included, counts against the session's turn budget, and every AI rater
 * completion against the session's rater budget.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { FAKE_LLM_USAGE, startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { call, FIXTURE_SETS, setIds, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import type { AdminEvent, BrowserSpeechToken } from '../../contract';
import { events } from '../db/schema';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { LLM_RATING_ATTEMPTS, RATER_BUDGET_SPENT } from '../providers/rating/llm-rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import type { Rater } from '../providers/types';
import { completePendingRatings, ratingFailedText, raterCallBudget } from '../services/ratings';
import { INTERVIEWER_UNAVAILABLE, MAX_TURN_CALLS, TOO_MANY_TURNS } from '../services/turns';

describeDatabases('a failed rating is not rated again by a repeat', (database) => {
  let t: TestApp;
  let rated = 0;
  const rater: Rater = {
    rate() {
      rated += 1;
      return Promise.reject(new Error('the rater is down'));
    },
  };

  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      // The background retry is an hour away: only the repeats below could rate again.
      config: { ratingRetryAttempts: 2, ratingRetryDelaySeconds: 3600 },
      deps: { providers: { voice: createBrowserSpeechVoice(), rater, interviewer: createScriptedInterviewer() } },
    });
  }, 300_000);
  afterAll(() => t?.close());

  it('six calls for one session: one rating attempt, the same sentence each time', async () => {
    const email = 'repeat-rating@example.com';
    const token = await startInterview<BrowserSpeechToken>(t.app, email);
    const setId = (await setIds(t.app)).get(1) ?? -1;
    const body = {
      questionSetId: setId,
      sessionId: token.sessionId,
      durationSeconds: 60,
      transcripts: [
        { role: 'interviewer', transcript: 'What is a closure?' },
        { role: 'interviewee', transcript: 'A closure keeps access to the variables of its outer function.' },
      ],
    };
    const failed = { status: 502, body: { error: ratingFailedText({ ratingRetryAttempts: 2, ratingRetryDelaySeconds: 3600 }) } };
    for (let i = 0; i < 6; i++) expect(await call(t.app, 'POST', '/interview/rate-transcript', { email, body })).toMatchObject(failed);
    expect(rated).toBe(1);
  });
});

describeDatabases('every paid interviewer completion counts against the turn budget', (database) => {
  let llm: FakeLlmServer;
  let t: TestApp;

  beforeAll(async () => {
    llm = await startFakeLlmServer();
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: { llmBaseUrl: llm.baseUrl, llmModel: 'local-model' } });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });

  it('60 turns whose replies are unusable stop at the budget, each completion counted', { timeout: 120_000 }, async () => {
    // A reply that cleans to an empty line: the interviewer retries once, then gives up.
    llm.setFallback({ content: '  **  ' });
    const email = 'unusable-replies@example.com';
    const token = await startInterview<BrowserSpeechToken>(t.app, email);
    const statuses: number[] = [];
    let refused: unknown = null;
    for (let i = 0; i < 60; i++) {
      const turn = await call<{ error: string }>(t.app, 'POST', '/interview/turn', {
        email,
        body: { sessionToken: token.client_secret.value, utterance: `Answer ${i}.` },
      });
      statuses.push(turn.status);
      if (turn.status === 502) expect(turn.body).toEqual({ error: INTERVIEWER_UNAVAILABLE });
      else refused = turn.body;
    }
    // 41 turn calls, two completions each: the 21st turn is the last one asked.
    const asked = Math.ceil(MAX_TURN_CALLS / 2);
    expect(statuses.slice(0, asked)).toEqual(Array.from({ length: asked }, () => 502));
    expect(statuses.slice(asked)).toEqual(Array.from({ length: 60 - asked }, () => 400));
    expect(refused).toEqual({ error: TOO_MANY_TURNS });
    expect(llm.requests).toHaveLength(asked * 2);
  });
});

describeDatabases("every AI rater completion counts against the session's rater budget", (database) => {
  let llm: FakeLlmServer;
  let t: TestApp;

  beforeAll(async () => {
    llm = await startFakeLlmServer();
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { llmBaseUrl: llm.baseUrl, llmModel: 'local-model', ratingRetryAttempts: 1, ratingRetryDelaySeconds: 3600 },
    });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it(
    'a rating left pending by restart after restart stops calling the model at the budget; each call is in the telemetry',
    { timeout: 120_000 },
    async () => {
      const budget = raterCallBudget({ ratingRetryAttempts: 1 });
      expect(budget).toBe(2 * LLM_RATING_ATTEMPTS);
      // Replies that are no rating: each is a billed completion, retried, and then the rubric rates.
      // The first rating's report their usage; later ones come from an endpoint that reports none.
      llm.enqueue(...Array.from({ length: LLM_RATING_ATTEMPTS }, () => ({ content: 'Not a rating.' })));
      const noUsage = JSON.stringify({
        choices: [{ index: 0, message: { role: 'assistant', content: 'Not a rating.' }, finish_reason: 'stop' }],
      });
      llm.setFallback({ raw: noUsage });

      const email = 'rater-budget@example.com';
      const token = await startInterview<BrowserSpeechToken>(t.app, email);
      const rated = await call<{ id: number; markdown: string }>(t.app, 'POST', '/interview/rate-transcript', {
        email,
        body: {
          questionSetId: (await setIds(t.app)).get(1),
          sessionId: token.sessionId,
          durationSeconds: 60,
          transcripts: [
            { role: 'interviewer', transcript: 'What is a closure?' },
            { role: 'interviewee', transcript: 'A closure keeps access to the variables of its outer function.' },
          ],
        },
      });
      expect(rated.status).toBe(200);
      expect(llm.requests).toHaveLength(LLM_RATING_ATTEMPTS);

      // A server that dies while rating leaves the rating pending; each start rates it again.
      for (let restart = 0; restart < 4; restart++) {
        await t.db.update(events).set({ ratingStatus: 'pending' }).where(eq(events.id, rated.body.id));
        expect(await completePendingRatings(t.app.appContext, 'shared')).toBe(1);
      }
      expect(llm.requests).toHaveLength(budget);

      const listed = await call<AdminEvent[]>(t.app, 'GET', '/api/events?limit=500', { admin: t.config.adminSecret });
      const event = listed.body.find((e) => e.session?.sessionId === token.sessionId);
      // The rubric rated once the budget was spent, and the admin reads why.
      expect(event?.rater).toContain(RATER_BUDGET_SPENT);
      expect(event?.session?.usage).toEqual({
        llmModel: 'local-model',
        llmCalls: budget,
        raterCalls: budget,
        llmInTokens: LLM_RATING_ATTEMPTS * FAKE_LLM_USAGE.prompt_tokens,
        llmCachedInTokens: LLM_RATING_ATTEMPTS * FAKE_LLM_USAGE.prompt_tokens_details.cached_tokens,
        llmOutTokens: LLM_RATING_ATTEMPTS * FAKE_LLM_USAGE.completion_tokens,
      });
    },
  );
});
