/**
 * Issue 24, items 2 and 6, over HTTP on both databases: a repeated rating call never rates a failed
 * rating again (only the capped background retries do), and every paid interviewer completion,
 * an unusable reply included, counts against the session's turn budget.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { call, FIXTURE_SETS, setIds, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import type { BrowserSpeechToken } from '../../contract';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import type { Rater } from '../providers/types';
import { ratingFailedText } from '../services/ratings';
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
