/**
 * POST /interview/sessions/{id}/resume for a browser-speech session, over the real app on both
 * databases: the same session goes on with a new token (no credit), its first turn picks up where
 * the stored transcript stands (docs/product-rules.md, Session lifecycle), resumes are capped, and
 * the one rating covers the whole interview.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { accounts, events, interviewSessions } from '../db/schema';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createRubricRater } from '../rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import { TOO_MANY_RESUMES } from '../services/resume';
import { SESSION_ENDED, UNKNOWN_SESSION } from '../services/sessions';
import { NOT_YOUR_SESSION, WELCOME_BACK } from '../services/turns';

interface Token {
  transport: string;
  sessionId: string;
  client_secret: { value: string; expires_at: number };
}
interface Turn {
  say: string;
  closeSession: { reason: string } | null;
}
interface Line {
  role: string;
  transcript: string;
}

const ANSWER_1 =
  'A closure is a function bundled with the variables of the scope it was created in, so it can still read and change ' +
  'them after the outer function has returned; it is how private state and callbacks keep their context.';
const ANSWER_2 = 'The event loop runs one task, then all microtasks, then renders, then takes the next task from the queue.';

describeDatabases('resuming a browser-speech session', (database) => {
  let t: TestApp;
  let setId = -1;

  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { freeSessionLimit: 10 },
      deps: { providers: { voice: createBrowserSpeechVoice(), rater: createRubricRater(), interviewer: createScriptedInterviewer() } },
    });
    setId = (await setIds(t.app)).get(1) ?? -1;
  }, 300_000);
  afterAll(() => t.close());

  const mint = async (email: string) => {
    await login(t.app, email);
    const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    return token.body;
  };
  const turn = (email: string, body: Record<string, unknown>) => call<Turn>(t.app, 'POST', '/interview/turn', { email, body });
  const resume = (email: string, id: string) =>
    call<Token & { error?: string }>(t.app, 'POST', `/interview/sessions/${id}/resume`, { email });
  const stored = async (id: string): Promise<Line[]> =>
    ((await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, id)))[0]?.turns ?? []).map(({ role, transcript }) => ({
      role,
      transcript,
    }));
  const used = async (email: string) => (await t.db.select().from(accounts).where(eq(accounts.email, email)))[0]?.sessionsUsed;

  it('goes on in the same session: no credit, the transcript kept, the interviewer picks up where it stood, at most 2 resumes, one rating of everything', async () => {
    const email = 'bs-resume@example.com';
    const minted = await mint(email);
    const first = minted.client_secret.value;
    const opening = await turn(email, { sessionToken: first });
    expect(opening.status).toBe(200);
    expect(opening.body.say).toContain('What is a closure?');
    const second = await turn(email, { sessionToken: first, utterance: ANSWER_1 });
    expect(second.body.say).toContain('How does the event loop work?');
    expect(await used(email)).toBe(1);

    // The connection dropped while the candidate was thinking: nothing was pending.
    const resumed = await resume(email, minted.sessionId);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ transport: 'browser-speech', sessionId: minted.sessionId });
    const token2 = resumed.body.client_secret.value;
    expect(token2).not.toBe(first);
    expect(await turn(email, { sessionToken: first, utterance: 'old token' })).toMatchObject({
      status: 404,
      body: { error: UNKNOWN_SESSION },
    });
    const again = await turn(email, { sessionToken: token2, resume: true });
    expect(again).toMatchObject({ status: 200, body: { say: `${WELCOME_BACK} ${second.body.say}`, closeSession: null } });
    expect((await stored(minted.sessionId)).at(-1)).toEqual({ role: 'interviewer', transcript: again.body.say });

    // Dropped again with an answer sent but no reply: the answer is sent again with the continuation.
    const resumed2 = await resume(email, minted.sessionId);
    expect(resumed2.status).toBe(200);
    const token3 = resumed2.body.client_secret.value;
    const answered = await turn(email, { sessionToken: token3, utterance: ANSWER_2, resume: true });
    expect(answered.status).toBe(200);
    const lines = await stored(minted.sessionId);
    expect(lines.slice(-2)).toEqual([
      { role: 'interviewee', transcript: ANSWER_2 },
      { role: 'interviewer', transcript: answered.body.say },
    ]);
    // The reply was stored but never reached the browser: asking again repeats it, storing nothing twice.
    const repeated = await turn(email, { sessionToken: token3, utterance: ANSWER_2, resume: true });
    expect(repeated.status).toBe(200);
    expect(repeated.body.say).toBe(answered.body.say.startsWith(WELCOME_BACK) ? answered.body.say : `${WELCOME_BACK} ${answered.body.say}`);
    expect(await stored(minted.sessionId)).toHaveLength(lines.length);

    // The third resume is refused with the server's sentence; the credit count never moved.
    expect(await resume(email, minted.sessionId)).toMatchObject({ status: 429, body: { error: TOO_MANY_RESUMES } });
    const [row] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, minted.sessionId));
    expect(row?.resumes).toBe(2);
    expect(await used(email)).toBe(1);

    // One rating of the whole interview: answers from before and after both drops.
    const transcript = await stored(minted.sessionId);
    const rated = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts: transcript, durationSeconds: 300, questionSetId: setId, sessionId: minted.sessionId },
    });
    expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    const mine = await t.db.select().from(events).where(eq(events.userEmail, email));
    expect(mine.map((e) => e.eventType).sort()).toEqual(['RATE', 'START']);
    const [rate] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.userEmail, email), eq(events.eventType, 'RATE')));
    const ratedAnswers = ((rate?.transcript ?? []) as Line[]).filter((l) => l.role === 'interviewee').map((l) => l.transcript);
    expect(ratedAnswers).toEqual([ANSWER_1, ANSWER_2]);
    // Rated: no more resumes.
    expect(await resume(email, minted.sessionId)).toMatchObject({ status: 409, body: { error: SESSION_ENDED } });
    expect(await used(email)).toBe(1);
  });

  it('a resume before the opening line came back opens the interview as usual', async () => {
    const email = 'bs-resume-early@example.com';
    const minted = await mint(email);
    const resumed = await resume(email, minted.sessionId);
    const opening = await turn(email, { sessionToken: resumed.body.client_secret.value, resume: true });
    expect(opening.status).toBe(200);
    expect(opening.body.say).toContain('What is a closure?');
    expect(opening.body.say.startsWith(WELCOME_BACK)).toBe(false);
  });

  it("refuses another user's session, an unknown one, and a closed interview", async () => {
    const email = 'bs-resume-owner@example.com';
    const minted = await mint(email);
    await login(t.app, 'bs-resume-other@example.com');
    expect(await resume('bs-resume-other@example.com', minted.sessionId)).toMatchObject({ status: 403, body: { error: NOT_YOUR_SESSION } });
    expect(await resume(email, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { error: UNKNOWN_SESSION } });
    // The interviewer closed the interview: it cannot be resumed.
    const token = minted.client_secret.value;
    await turn(email, { sessionToken: token });
    expect(
      (await turn(email, { sessionToken: token, utterance: 'I would like to stop the interview now.' })).body.closeSession,
    ).not.toBeNull();
    expect(await resume(email, minted.sessionId)).toMatchObject({ status: 409, body: { error: SESSION_ENDED } });
  });
});
