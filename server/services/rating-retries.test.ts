/**
 * Failed ratings are retried in the background with backoff until rated or given up, on both
 * databases; the candidate's text says exactly that.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { accounts, events } from '../db/schema';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createRubricRater } from '../rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import type { Rater } from '../providers/types';

const transcripts = [
  { role: 'interviewer', transcript: 'What is a closure?' },
  { role: 'interviewee', transcript: 'A closure keeps access to the variables of its outer function.' },
];

async function until<T>(what: string, check: () => Promise<T | null>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeDatabases('background rating retries', (database) => {
  let t: TestApp;
  /** Emails whose ratings fail this many more times. */
  const failuresLeft = new Map<string, number>();
  const rubric = createRubricRater();
  const rater: Rater = {
    async rate(input) {
      const answer = input.transcripts.find((e) => e.role === 'interviewee')?.transcript ?? '';
      const key = [...failuresLeft.keys()].find((email) => answer.includes(email));
      const left = key ? (failuresLeft.get(key) ?? 0) : 0;
      if (key && left > 0) {
        failuresLeft.set(key, left - 1);
        throw new Error('the rater is down');
      }
      return rubric.rate(input);
    },
  };
  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { ratingRetryAttempts: 2, ratingRetryDelaySeconds: 1 },
      deps: { providers: { voice: createBrowserSpeechVoice(), rater, interviewer: createScriptedInterviewer() } },
    });
  }, 300_000);
  afterAll(() => t.close());

  const rateOnce = async (email: string) => {
    await login(t.app, email);
    const setId = (await setIds(t.app)).get(1);
    await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    const said = transcripts.map((e) => (e.role === 'interviewee' ? { ...e, transcript: `${e.transcript} (${email})` } : e));
    return call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts: said, durationSeconds: 30, questionSetId: setId },
    });
  };
  const rateEvent = async (email: string) =>
    (
      await t.db
        .select()
        .from(events)
        .where(and(eq(events.userEmail, email), eq(events.eventType, 'RATE')))
    )[0];

  it('tells the candidate what will happen, then rates it in the background after a backoff', async () => {
    const email = 'retry@example.com';
    failuresLeft.set(email, 2);
    const answer = await rateOnce(email);
    expect(answer).toEqual(
      expect.objectContaining({
        status: 502,
        body: {
          error:
            'We could not rate this interview right now. Your transcript is saved, and we will try again automatically up to 2 times over about 1 minute; the feedback appears in your history once it is rated.',
        },
      }),
    );
    const failed = await rateEvent(email);
    expect(failed).toMatchObject({ ratingStatus: 'failed', ratingAttempts: 1 });
    const rated = await until('the background retry to rate it', async () => {
      const event = await rateEvent(email);
      return event?.ratingStatus === 'rated' ? event : null;
    });
    expect(rated).toMatchObject({ ratingAttempts: 3, rater: 'rubric', nextRatingAt: null });
    // Waited about 1 s, then 2 s: not all at once.
    expect(Date.now() - (failed?.eventTimestamp.getTime() ?? 0)).toBeGreaterThan(2500);
    const history = await call<{ ratings: Array<{ id: number }> }>(t.app, 'GET', '/user/ratings', { email });
    expect(history.body.ratings.map((r) => r.id)).toEqual([rated.id]);
    const [account] = await t.db.select().from(accounts).where(eq(accounts.email, email));
    expect(account?.ratedInterviews).toBe(1);
  }, 30_000);

  it('gives up after the configured retries and keeps the transcript', async () => {
    const email = 'giveup@example.com';
    failuresLeft.set(email, 99);
    expect((await rateOnce(email)).status).toBe(502);
    const given = await until('the retries to be given up', async () => {
      const event = await rateEvent(email);
      return event?.ratingStatus === 'given_up' ? event : null;
    });
    expect(given).toMatchObject({ ratingAttempts: 3, nextRatingAt: null, ratingMarkdown: null });
    expect(given.transcript?.[1]?.transcript).toContain(email);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await rateEvent(email))?.ratingAttempts).toBe(3);
  }, 30_000);
});
