/**
 * Sessions left open (docs/product-rules.md, Session lifecycle, Leaving and coming back), over the
 * real app on both databases with its own background job: past SESSION_IDLE_MINUTES without
 * activity the server rates what it stored, History shows the feedback with the note that it was
 * ended automatically, the admin shows the end reason, the credit stays spent; a session with
 * nothing said is ended with its credit back.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AdminEvent, BrowserSpeechToken, RatingsResponse } from '../../contract';
import { call, FIXTURE_SETS, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, TEST_ADMIN_SECRET, type TestApp } from '../../test-support/test-app';
import { accounts, events, interviewSessions } from '../db/schema';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createRubricRater } from '../rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import { leftDetail, leftNoteText } from './left-note';

const ANSWER = 'A closure is a function that keeps the variables of the scope it was created in, even after that function returned.';
/** 1.2 seconds; the job runs every half second (RATING_RETRY_DELAY_SECONDS 1). */
const IDLE_MINUTES = 0.02;

async function until<T>(what: string, check: () => Promise<T | null | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeDatabases('sessions left open', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { freeSessionLimit: 10, sessionIdleMinutes: IDLE_MINUTES, ratingRetryDelaySeconds: 1 },
      deps: { providers: { voice: createBrowserSpeechVoice(), rater: createRubricRater(), interviewer: createScriptedInterviewer() } },
    });
  }, 300_000);
  afterAll(() => t.close());

  const session = async (id: string) => (await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, id)))[0];
  const used = async (email: string) => (await t.db.select().from(accounts).where(eq(accounts.email, email)))[0]?.sessionsUsed;
  const turn = (email: string, body: Record<string, unknown>) => call<{ say: string }>(t.app, 'POST', '/interview/turn', { email, body });

  it('is rated by the server from what it stored; History says it was ended automatically; the admin shows why; the credit stays spent', async () => {
    const email = 'left-rated@example.com';
    const token = await startInterview<BrowserSpeechToken>(t.app, email);
    await turn(email, { sessionToken: token.client_secret.value });
    expect((await turn(email, { sessionToken: token.client_secret.value, utterance: ANSWER })).status).toBe(200);

    const rated = await until('the rating', async () => {
      const [event] = await t.db
        .select()
        .from(events)
        .where(and(eq(events.sessionId, token.sessionId), eq(events.eventType, 'RATE')));
      return event?.ratingStatus === 'rated' ? event : null;
    });
    const note = leftNoteText(leftDetail(IDLE_MINUTES));
    expect(note).toBe(
      '> This interview was ended automatically (no activity for 1 second), and rated on everything you said that reached us.\n\n',
    );
    expect(rated.ratingMarkdown?.startsWith(note)).toBe(true);
    expect(rated.transcript?.filter((line) => line.role === 'interviewee').map((line) => line.transcript)).toEqual([ANSWER]);
    expect(await session(token.sessionId)).toMatchObject({
      status: 'rated',
      endReason: 'left',
      endDetail: 'no activity for 1 second',
      refundedAt: null,
    });
    expect(await used(email)).toBe(1);

    const history = await call<RatingsResponse>(t.app, 'GET', '/user/ratings?page=1&limit=10', { email });
    expect(history.body.ratings).toHaveLength(1);
    expect(history.body.ratings[0]?.ratingMarkdown?.startsWith(note)).toBe(true);
    const admin = await call<AdminEvent[]>(t.app, 'GET', '/api/events?limit=50', { admin: TEST_ADMIN_SECRET });
    const shown = admin.body.find((event) => event.session?.sessionId === token.sessionId && event.eventType === 'RATE');
    expect(shown?.session).toMatchObject({ status: 'rated', endReason: 'left', endDetail: 'no activity for 1 second', candidateTurns: 1 });

    // Coming back finds nothing open; the feedback is in History.
    expect((await call(t.app, 'GET', '/interview/sessions/live', { email })).body).toEqual({ session: null });
    expect((await turn(email, { sessionToken: token.client_secret.value, utterance: ANSWER })).status).toBe(409);
  });

  it('with nothing said, ends with the credit back and no rating', async () => {
    const email = 'left-empty@example.com';
    const token = await startInterview<BrowserSpeechToken>(t.app, email);
    await turn(email, { sessionToken: token.client_secret.value });
    expect(await used(email)).toBe(1);
    const ended = await until('the end', async () => {
      const row = await session(token.sessionId);
      return row?.status === 'abandoned' ? row : null;
    });
    expect(ended).toMatchObject({ endReason: 'left', endDetail: 'no activity for 1 second' });
    expect(ended.refundedAt).not.toBeNull();
    expect(await used(email)).toBe(0);
    expect((await t.db.select().from(events).where(eq(events.sessionId, token.sessionId))).map((event) => event.eventType)).toEqual([
      'START',
    ]);
  });
});
