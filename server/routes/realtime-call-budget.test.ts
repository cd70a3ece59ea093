/**
 * Call budgets (README, Security and limits), over HTTP on both databases with a local stand-in for the OpenAI
 * Realtime calls API: one session token opens one call (claimed before any upstream call, across
 * server processes too), every call of a session that ends is hung up, and abandon gives the credit
 * back only for a session that never connected (hanging up a live call first).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeRealtimeServer, type FakeRealtimeServer } from '../../test-support/fake-realtime-server';
import { call, FIXTURE_SETS, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import type { OpenAiToken } from '../../contract';
import { accounts, interviewSessions } from '../db/schema';
import { NOTHING_TO_RATE_CALL_OPENED } from '../services/ratings';
import { CALL_RUNNING, runningCall } from '../services/calls';
import { SESSION_ENDED } from '../services/sessions';

const OFFER = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

describeDatabases('one OpenAI call per session token', (database) => {
  let upstream: FakeRealtimeServer;
  let t: TestApp;
  let second: TestApp | null = null;

  beforeAll(async () => {
    upstream = await startFakeRealtimeServer();
    const config = { openaiApiKey: 'test-key', openaiBaseUrl: upstream.baseUrl, freeSessionLimit: 50 };
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config });
    // PostgreSQL: a second server process on the same database.
    if (database === 'postgres') second = await createTestApp({ database, questionSets: FIXTURE_SETS, config, postgresUrl: t.databaseUrl });
  }, 300_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.options.answerDelayMs = 0;
  });

  const offer = (app: TestApp, token: OpenAiToken) =>
    app.app.inject({
      method: 'POST',
      url: token.sdpUrl,
      headers: { authorization: `Bearer ${token.client_secret.value}`, 'content-type': 'application/sdp' },
      payload: OFFER,
    });
  const credits = async (email: string) => {
    const [row] = await t.db.select({ sessionsUsed: accounts.sessionsUsed }).from(accounts).where(eq(accounts.email, email));
    return { sessionsUsed: row?.sessionsUsed ?? -1 };
  };

  it('ten concurrent offers with one token open one upstream call; the rest are refused before anything is paid', async () => {
    const token = await startInterview<OpenAiToken>(t.app, 'ten-offers@example.com');
    upstream.options.answerDelayMs = 300;
    const before = upstream.calls.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => offer(t, token)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) expect(JSON.parse(refused.body)).toEqual({ error: CALL_RUNNING });
    expect(upstream.calls.length - before).toBe(1);

    // Nothing was said, but the call was opened (and paid for): no credit back, as abandon decides; the one call is hung up.
    const used = (await credits('ten-offers@example.com')).sessionsUsed;
    const rated = await call(t.app, 'POST', '/interview/rate-transcript', {
      email: 'ten-offers@example.com',
      body: {
        questionSetId: (await sessionSet(t, token.sessionId)) ?? -1,
        sessionId: token.sessionId,
        durationSeconds: 5,
        transcripts: [],
      },
    });
    expect(rated).toMatchObject({ status: 422, body: { error: NOTHING_TO_RATE_CALL_OPENED } });
    expect((await credits('ten-offers@example.com')).sessionsUsed).toBe(used);
    await expect.poll(() => upstream.liveCalls().length, { timeout: 10_000 }).toBe(0);
    expect(runningCall(t.app.appContext, token.sessionId)).toBeUndefined();
    // The token cannot open another call for the ended session.
    expect(JSON.parse((await offer(t, token)).body)).toEqual({ error: SESSION_ENDED });
  });

  it('the claim holds across two server processes on one database, and the other process hangs its call up when the session ends', async ({
    skip,
  }) => {
    if (!second) return skip();
    const other = second;
    const email = 'two-servers@example.com';
    const token = await startInterview<OpenAiToken>(t.app, email);
    upstream.options.answerDelayMs = 300;
    const before = upstream.calls.length;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => offer(i % 2 === 0 ? t : other, token)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(upstream.calls.length - before).toBe(1);
    const callId = upstream.calls.at(-1) ?? '';
    const runsHere = runningCall(t.app.appContext, token.sessionId) !== undefined;
    // The session is abandoned through the process that does not run the call: that call is hung up too.
    const elsewhere = runsHere ? other : t;
    const abandoned = await call(elsewhere.app, 'POST', `/interview/sessions/${token.sessionId}/abandon`, { email });
    expect(abandoned).toMatchObject({ status: 200, body: { status: 'abandoned', creditReturned: false } });
    await expect.poll(() => upstream.hangups, { timeout: 15_000 }).toContain(callId);
  });

  it('abandon after the SDP answer hangs the call up and keeps the credit; an unused session gets it back', async () => {
    const email = 'abandon-live@example.com';
    const token = await startInterview<OpenAiToken>(t.app, email);
    expect((await offer(t, token)).statusCode).toBe(201);
    const callId = upstream.calls.at(-1) ?? '';
    const used = (await credits(email)).sessionsUsed;
    const abandoned = await call(t.app, 'POST', `/interview/sessions/${token.sessionId}/abandon`, { email });
    expect(abandoned).toMatchObject({ status: 200, body: { sessionId: token.sessionId, status: 'abandoned', creditReturned: false } });
    await expect.poll(() => upstream.hangups, { timeout: 10_000 }).toContain(callId);
    expect(runningCall(t.app.appContext, token.sessionId)).toBeUndefined();
    expect((await credits(email)).sessionsUsed).toBe(used);
    // A repeat answers the same.
    expect((await call(t.app, 'POST', `/interview/sessions/${token.sessionId}/abandon`, { email })).body).toMatchObject({
      creditReturned: false,
    });

    // A session that never connected: the credit comes back.
    const unused = await startInterview<OpenAiToken>(t.app, email);
    const before = (await credits(email)).sessionsUsed;
    const refunded = await call(t.app, 'POST', `/interview/sessions/${unused.sessionId}/abandon`, { email });
    expect(refunded).toMatchObject({ status: 200, body: { creditReturned: true } });
    expect((await credits(email)).sessionsUsed).toBe(before - 1);
  });
});

async function sessionSet(t: TestApp, sessionId: string): Promise<number | undefined> {
  const [row] = await t.db
    .select({ setId: interviewSessions.questionSetId })
    .from(interviewSessions)
    .where(eq(interviewSessions.id, sessionId));
  return row?.setId;
}
