/**
 * GET /interview/sessions/live over the real app on both databases (docs/product-rules.md, Session
 * lifecycle, Leaving and coming back): the caller's open interview with the server's transcript,
 * continued by resume (no credit) or ended by a rating; nothing once it is rated, and never another
 * person's interview.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserSpeechToken, LiveSessionResponse } from '../../contract';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { call, FIXTURE_SETS, login, startInterview } from '../../test-support/fixtures';
import { accounts, interviewSessions } from '../db/schema';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createRubricRater } from '../rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import { UNKNOWN_USER } from '../services/accounts';

const ANSWER = 'A closure is a function that keeps the variables of the scope it was created in, even after that function returned.';

describeDatabases('the live session', (database) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { freeSessionLimit: 10 },
      deps: { providers: { voice: createBrowserSpeechVoice(), rater: createRubricRater(), interviewer: createScriptedInterviewer() } },
    });
  }, 300_000);
  afterAll(() => t.close());

  const live = (email: string) => call<LiveSessionResponse>(t.app, 'GET', '/interview/sessions/live', { email });
  const turn = (email: string, body: Record<string, unknown>) => call<{ say: string }>(t.app, 'POST', '/interview/turn', { email, body });
  const used = async (email: string) => (await t.db.select().from(accounts).where(eq(accounts.email, email)))[0]?.sessionsUsed;

  it('answers the open interview with what the server stored; continuing it costs no credit; rated, it is gone', async () => {
    const email = 'live-1@example.com';
    await login(t.app, email);
    expect((await live(email)).body).toEqual({ session: null });

    const token = await startInterview<BrowserSpeechToken>(t.app, email);
    const opening = await turn(email, { sessionToken: token.client_secret.value });
    const reply = await turn(email, { sessionToken: token.client_secret.value, utterance: ANSWER });
    expect(reply.status).toBe(200);

    const found = await live(email);
    expect(found.status).toBe(200);
    const session = found.body.session;
    expect(session).toMatchObject({ sessionId: token.sessionId, topic: 'JavaScript', transport: 'browser-speech', canContinue: true });
    expect(session?.transcript.map(({ role, transcript }) => [role, transcript])).toEqual([
      ['interviewer', opening.body.say],
      ['interviewee', ANSWER],
      ['interviewer', reply.body.say],
    ]);
    expect(session?.elapsedSeconds).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(session?.startedAt ?? ''))).toBe(false);

    // Someone else sees nothing of it.
    await login(t.app, 'live-other@example.com');
    expect((await live('live-other@example.com')).body).toEqual({ session: null });

    // Continue: the resume path, the same session, no credit.
    const resumed = await call<BrowserSpeechToken>(t.app, 'POST', `/interview/sessions/${token.sessionId}/resume`, { email });
    expect(resumed.status).toBe(200);
    expect(resumed.body.sessionId).toBe(token.sessionId);
    expect(await used(email)).toBe(1);

    // End: the rating of what the server stored (the browser had nothing after a reload but this).
    const rated = await call<{ score: number }>(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        transcripts: session?.transcript ?? [],
        durationSeconds: 30,
        questionSetId: session?.questionSetId,
        sessionId: token.sessionId,
        endReason: 'stopped-by-candidate',
      },
    });
    expect(rated.status).toBe(200);
    expect((await live(email)).body).toEqual({ session: null });
  });

  it('a session the interviewer closed, or with its reconnections used up, can only be ended', async () => {
    const email = 'live-2@example.com';
    const token = await startInterview<BrowserSpeechToken>(t.app, email);
    await t.db.update(interviewSessions).set({ finishedAt: new Date() }).where(eq(interviewSessions.id, token.sessionId));
    expect((await live(email)).body.session).toMatchObject({ sessionId: token.sessionId, canContinue: false });
    await t.db.update(interviewSessions).set({ finishedAt: null, resumes: 2 }).where(eq(interviewSessions.id, token.sessionId));
    expect((await live(email)).body.session).toMatchObject({ sessionId: token.sessionId, canContinue: false });
  });

  // docs/product-rules.md, Session lifecycle (Leaving and coming back): after a reload the
  // transcript comes from the server, so a typed answer must be stored as typed.
  it('keeps a typed answer typed and a spoken one spoken, also when a resume sends a typed answer again', async () => {
    const email = 'live-typed@example.com';
    const token = await startInterview<BrowserSpeechToken>(t.app, email);
    const sessionToken = token.client_secret.value;
    await turn(email, { sessionToken });
    expect((await turn(email, { sessionToken, utterance: ANSWER, input: 'typed' })).status).toBe(200);
    expect((await turn(email, { sessionToken, utterance: 'I would use a closure to keep a counter private.' })).status).toBe(200);
    const resumed = await call<BrowserSpeechToken>(t.app, 'POST', `/interview/sessions/${token.sessionId}/resume`, { email });
    const again = { sessionToken: resumed.body.client_secret.value, utterance: 'Typed before the drop.', resume: true, input: 'typed' };
    expect((await turn(email, again)).status).toBe(200);
    const answers = (await live(email)).body.session?.transcript.filter((entry) => entry.role === 'interviewee');
    expect(answers?.map(({ transcript, input }) => [transcript, input ?? 'spoken'])).toEqual([
      [ANSWER, 'typed'],
      ['I would use a closure to keep a counter private.', 'spoken'],
      ['Typed before the drop.', 'typed'],
    ]);
    expect((await turn(email, { sessionToken, utterance: 'x', input: 'written' })).status).toBe(400);
  });

  it('an unknown email is refused with the sentence', async () => {
    const answer = await call<{ error: string }>(t.app, 'GET', '/interview/sessions/live', { email: 'nobody-live@example.com' });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: UNKNOWN_USER });
  });
});
