/**
 * Session telemetry over HTTP on PGlite and PostgreSQL (docs/product-rules.md, Session telemetry):
 * the browser's connected/ended reports, the server's own ends (rating, abandon, expiry), the
 * telemetry in the admin events, and the dashboard's session figures.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminEvent, DailyStats, SessionTelemetry } from '../../contract';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { interviewSessions } from '../db/schema';
import { addError, addUsage, MAX_SESSION_ERRORS } from '../services/session-telemetry';
import { expireStaleSessions, NOT_YOUR_SESSION, SESSION_RATING_WINDOW_MS, UNKNOWN_SESSION } from '../services/sessions';

interface Token {
  sessionId: string;
  client_secret: { value: string };
}

const answer = 'A closure is a function that keeps access to the variables of its outer scope.';

describeDatabases('session telemetry', (database) => {
  let t: TestApp;
  let setId = -1;
  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { freeSessionLimit: 50, modelPrices: { 'gpt-realtime-2.1-mini': { audioIn: 10, audioOut: 20, textIn: 0.6, textOut: 2.4 } } },
    });
    setId = (await setIds(t.app)).get(1) ?? -1;
  }, 300_000);
  afterAll(() => t.close());

  const mint = async (email: string) => {
    const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    expect(token.status).toBe(200);
    return token.body;
  };
  const report = (email: string, sessionId: string, body: unknown) =>
    call<{ sessionId: string; recorded: boolean } & { error?: string }>(t.app, 'POST', `/interview/sessions/${sessionId}/report`, {
      email,
      body,
    });
  const turn = (email: string, sessionToken: string, utterance?: string) =>
    call(t.app, 'POST', '/interview/turn', { email, body: utterance === undefined ? { sessionToken } : { sessionToken, utterance } });
  const telemetryOf = async (sessionId: string, eventType = 'RATE'): Promise<SessionTelemetry | null> => {
    const events = await call<AdminEvent[]>(t.app, 'GET', '/api/events?limit=500', { admin: t.config.adminSecret });
    expect(events.status).toBe(200);
    return events.body.find((e) => e.session?.sessionId === sessionId && e.eventType === eventType)?.session ?? null;
  };
  const setTimes = (sessionId: string, times: { createdAt?: Date; connectedAt?: Date | null; endedAt?: Date | null }) =>
    t.db.update(interviewSessions).set(times).where(eq(interviewSessions.id, sessionId));

  it('a browser-speech interview: connected and ended reported, turns counted by the server, shown with its events', async () => {
    const email = 'telemetry-typed@example.com';
    await login(t.app, email);
    const token = await mint(email);
    expect(await report(email, token.sessionId, { event: 'connected', input: 'typed' })).toMatchObject({
      status: 200,
      body: { sessionId: token.sessionId, recorded: true },
    });
    // Only the first connect counts.
    expect((await report(email, token.sessionId, { event: 'connected' })).body).toMatchObject({ recorded: false });
    expect((await turn(email, token.client_secret.value)).status).toBe(200);
    expect((await turn(email, token.client_secret.value, answer)).status).toBe(200);
    expect((await turn(email, token.client_secret.value, 'The event loop takes tasks from a queue.')).status).toBe(200);
    expect((await report(email, token.sessionId, { event: 'ended', reason: 'connection-lost' })).body).toMatchObject({ recorded: true });
    // The first end wins.
    expect((await report(email, token.sessionId, { event: 'ended', reason: 'stopped-by-candidate' })).body).toMatchObject({
      recorded: false,
    });
    const rated = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        questionSetId: setId,
        sessionId: token.sessionId,
        durationSeconds: 30,
        transcripts: [{ role: 'interviewee', transcript: answer, input: 'typed' }],
      },
    });
    expect(rated.status).toBe(200);

    const telemetry = await telemetryOf(token.sessionId);
    expect(telemetry).toMatchObject({
      sessionId: token.sessionId,
      transport: 'browser-speech',
      input: 'typed',
      status: 'rated',
      endReason: 'connection-lost',
      endDetail: null,
      candidateTurns: 2,
      resumes: 0,
      usage: {},
      estimatedCostUsd: null,
      errorCount: 0,
      errors: [],
    });
    expect(telemetry?.connectMs).toBeGreaterThanOrEqual(0);
    expect(telemetry?.lengthSeconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(telemetry?.endedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(telemetry?.connectedAt ?? ''));
    // The START event of the session shows the same session.
    expect((await telemetryOf(token.sessionId, 'START'))?.endReason).toBe('connection-lost');
  });

  it('the answers decide how the candidate answered: typed answers in a session that connected with a microphone are recorded as typed', async () => {
    const email = 'telemetry-input@example.com';
    await login(t.app, email);
    const typed = await mint(email);
    expect((await report(email, typed.sessionId, { event: 'connected', input: 'voice' })).body).toMatchObject({ recorded: true });
    const rated = await call<{ markdown: string }>(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        questionSetId: setId,
        sessionId: typed.sessionId,
        durationSeconds: 2,
        transcripts: [
          { role: 'interviewer', transcript: 'What is a closure?', at: 1_000 },
          { role: 'interviewee', transcript: answer, at: 2_000, input: 'typed' },
        ],
      },
    });
    expect(rated.status).toBe(200);
    expect(rated.body.markdown).toContain(
      '- Typed answers: 15 words in 1 answer (about 15 words per answer)\n- Speaking pace and filler words: not measured, because the answers were typed',
    );
    expect(rated.body.markdown).not.toContain('Speaking pace: about');
    expect((await telemetryOf(typed.sessionId))?.input).toBe('typed');

    // One spoken answer makes it a spoken session again.
    const spoken = await mint(email);
    await report(email, spoken.sessionId, { event: 'connected', input: 'typed' });
    await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        questionSetId: setId,
        sessionId: spoken.sessionId,
        durationSeconds: 20,
        transcripts: [
          { role: 'interviewee', transcript: answer, at: 10_000, input: 'typed' },
          { role: 'interviewee', transcript: 'The event loop takes tasks from a queue.', at: 20_000 },
        ],
      },
    });
    expect((await telemetryOf(spoken.sessionId))?.input).toBe('voice');
  });

  it('without a report, the rating ends the session: stopped by the candidate, or closed by the interviewer', async () => {
    const email = 'telemetry-rating@example.com';
    await login(t.app, email);
    const stopped = await mint(email);
    await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        questionSetId: setId,
        sessionId: stopped.sessionId,
        durationSeconds: 5,
        transcripts: [{ role: 'interviewee', transcript: answer }],
      },
    });
    expect(await telemetryOf(stopped.sessionId)).toMatchObject({
      endReason: 'stopped-by-candidate',
      connectedAt: null,
      connectMs: null,
      lengthSeconds: null,
    });

    // The browser says why with the rating.
    const lost = await mint(email);
    const refused = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        questionSetId: setId,
        sessionId: lost.sessionId,
        durationSeconds: 5,
        transcripts: [{ role: 'interviewee', transcript: answer }],
        endReason: 'expired',
      },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: 'endReason: endReason must be one of closed-by-interviewer, stopped-by-candidate, connection-lost.' },
    });
    await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        questionSetId: setId,
        sessionId: lost.sessionId,
        durationSeconds: 5,
        transcripts: [{ role: 'interviewee', transcript: answer }],
        endReason: 'connection-lost',
      },
    });
    expect((await telemetryOf(lost.sessionId))?.endReason).toBe('connection-lost');

    const closed = await mint(email);
    const sessionToken = closed.client_secret.value;
    await turn(email, sessionToken);
    await turn(email, sessionToken, answer);
    // The scripted interviewer closes when the candidate asks to stop.
    const last = await turn(email, sessionToken, "Let's stop here.");
    expect(last.body).toMatchObject({ closeSession: { reason: expect.any(String) } });
    await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { questionSetId: setId, sessionId: closed.sessionId, durationSeconds: 5, transcripts: [] },
    });
    expect((await telemetryOf(closed.sessionId))?.endReason).toBe('closed-by-interviewer');
  });

  it('a failed start keeps the browser’s reason; the abandon call alone still says failed start', async () => {
    const email = 'telemetry-failed@example.com';
    await login(t.app, email);
    const reported = await mint(email);
    expect(
      (
        await report(email, reported.sessionId, {
          event: 'ended',
          reason: 'failed-start',
          detail: 'The voice connection failed while starting.\u0007',
        })
      ).body,
    ).toMatchObject({ recorded: true });
    expect((await call(t.app, 'POST', `/interview/sessions/${reported.sessionId}/abandon`, { email })).status).toBe(200);
    expect(await telemetryOf(reported.sessionId, 'START')).toMatchObject({
      status: 'abandoned',
      endReason: 'failed-start',
      endDetail: 'The voice connection failed while starting.',
    });
    // Once abandoned, reports are no longer taken.
    expect((await report(email, reported.sessionId, { event: 'connected' })).body).toMatchObject({ recorded: false });

    const silent = await mint(email);
    await call(t.app, 'POST', `/interview/sessions/${silent.sessionId}/abandon`, { email });
    expect(await telemetryOf(silent.sessionId, 'START')).toMatchObject({ endReason: 'failed-start', endDetail: null });
  });

  it('refuses reports that are not the caller’s or not a report, with sentences', async () => {
    const email = 'telemetry-owner@example.com';
    await login(t.app, email);
    await login(t.app, 'telemetry-other@example.com');
    const token = await mint(email);
    expect(await report('telemetry-other@example.com', token.sessionId, { event: 'connected' })).toMatchObject({
      status: 403,
      body: { error: NOT_YOUR_SESSION },
    });
    expect(await report(email, '00000000-0000-4000-8000-000000000000', { event: 'connected' })).toMatchObject({
      status: 404,
      body: { error: UNKNOWN_SESSION },
    });
    expect(await report(email, token.sessionId, { event: 'ended', reason: 'time-limit' })).toMatchObject({
      status: 400,
      body: { error: 'reason: reason must be one of closed-by-interviewer, stopped-by-candidate, connection-lost, failed-start.' },
    });
    expect((await report(email, token.sessionId, { event: 'finished' })).status).toBe(400);
    expect(await report(email, token.sessionId, { event: 'ended', reason: 'failed-start', detail: 'x'.repeat(301) })).toMatchObject({
      status: 400,
      body: { error: 'detail: detail must be at most 300 characters.' },
    });
    // A connect reported long after minting is not a connect time (the server's clock decides).
    await setTimes(token.sessionId, { createdAt: new Date(Date.now() - 3 * 60_000) });
    expect((await report(email, token.sessionId, { event: 'connected' })).body).toMatchObject({ recorded: false });
  });

  it('a session never rated expires with that reason', async () => {
    const email = 'telemetry-expired@example.com';
    await login(t.app, email);
    const token = await mint(email);
    await setTimes(token.sessionId, { createdAt: new Date(Date.now() - SESSION_RATING_WINDOW_MS - 60_000) });
    expect(await expireStaleSessions(t.db)).toBeGreaterThanOrEqual(1);
    expect(await telemetryOf(token.sessionId, 'START')).toMatchObject({ status: 'expired', endReason: 'expired', endedAt: null });
  });

  it('sums usage and its estimated cost, and keeps the first errors while counting all', async () => {
    const email = 'telemetry-usage@example.com';
    await login(t.app, email);
    const token = await mint(email);
    const ctx = { db: t.db, config: t.config };
    const part = {
      realtimeModel: 'gpt-realtime-2.1-mini',
      responses: 1,
      audioInTokens: 100_000,
      audioOutTokens: 50_000,
      textInTokens: 10_000,
    };
    await Promise.all([addUsage(ctx, token.sessionId, part), addUsage(ctx, token.sessionId, part)]);
    for (let i = 0; i < MAX_SESSION_ERRORS + 2; i += 1)
      await addError(t.db, token.sessionId, { source: 'realtime', code: 'invalid_value', message: `error ${i}` });
    const telemetry = await telemetryOf(token.sessionId, 'START');
    expect(telemetry?.usage).toEqual({
      realtimeModel: 'gpt-realtime-2.1-mini',
      responses: 2,
      audioInTokens: 200_000,
      audioOutTokens: 100_000,
      textInTokens: 20_000,
    });
    // 2 × (0.1M × $10 + 0.05M × $20 + 0.01M × $0.60) = 2 × $2.006
    expect(telemetry?.estimatedCostUsd).toBeCloseTo(4.012, 9);
    expect(telemetry?.errorCount).toBe(MAX_SESSION_ERRORS + 2);
    expect(telemetry?.errors).toHaveLength(MAX_SESSION_ERRORS);
    expect(telemetry?.errors[0]).toMatchObject({ source: 'realtime', code: 'invalid_value', message: 'error 0' });
  });

  describe('the dashboard figures', () => {
    it('median and p90 of session length and connect time, and the total estimated cost, for the range', async () => {
      // Alone in its own app so other tests' sessions do not count.
      const own = await createTestApp({ database, questionSets: FIXTURE_SETS, config: { freeSessionLimit: 50 } });
      try {
        const id = (await setIds(own.app)).get(1) ?? -1;
        const email = 'figures@example.com';
        await login(own.app, email);
        const now = Date.now();
        const lengths = [60, 120, 180, 240, 300, 600, 900, 1200, 1500, 1800];
        for (const [i, seconds] of lengths.entries()) {
          const token = await call<Token>(own.app, 'GET', `/interview/token?questionSetId=${id}`, { email });
          const createdAt = new Date(now - 3 * 60 * 60_000);
          const connectedAt = new Date(createdAt.getTime() + (i + 1) * 100);
          await own.db
            .update(interviewSessions)
            .set({ createdAt, connectedAt, endedAt: new Date(connectedAt.getTime() + seconds * 1000), estimatedCostUsd: 0.25 })
            .where(eq(interviewSessions.id, token.body.sessionId));
        }
        // A failed start: no connect, no length, no cost; an old session outside the range.
        const failed = await call<Token>(own.app, 'GET', `/interview/token?questionSetId=${id}`, { email });
        await call(own.app, 'POST', `/interview/sessions/${failed.body.sessionId}/abandon`, { email });
        const old = await call<Token>(own.app, 'GET', `/interview/token?questionSetId=${id}`, { email });
        await own.db
          .update(interviewSessions)
          .set({
            createdAt: new Date(now - 40 * 24 * 60 * 60_000),
            connectedAt: new Date(now - 40 * 24 * 60 * 60_000),
            endedAt: new Date(now),
            estimatedCostUsd: 100,
          })
          .where(eq(interviewSessions.id, old.body.sessionId));

        const stats = await call<DailyStats>(own.app, 'GET', '/api/admin/stats/daily?days=30', { admin: own.config.adminSecret });
        expect(stats.status).toBe(200);
        expect(stats.body.sessions).toEqual({
          sessions: 11,
          // percentile_cont: 0.5 → between 300 and 600; 0.9 → 1500 + 0.1 × 300
          lengthSeconds: { count: 10, median: 450, p90: 1530 },
          connectMs: { count: 10, median: 550, p90: 910 },
          estimatedCostUsd: 2.5,
        });
        const all = await call<DailyStats>(own.app, 'GET', '/api/admin/stats/daily?days=90', { admin: own.config.adminSecret });
        expect(all.body.sessions).toMatchObject({ sessions: 12, estimatedCostUsd: 102.5 });
        expect((await call(own.app, 'GET', '/api/admin/stats/daily?days=30', { admin: 'wrong-secret-value' })).status).toBe(401);
      } finally {
        await own.close();
      }
    }, 300_000);
  });
});
