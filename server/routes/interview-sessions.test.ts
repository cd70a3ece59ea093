/**
 * The server-owned session lifecycle over HTTP, on PGlite and PostgreSQL: rating bound to a
 * session, nothing said = nothing spent, abandon of a failed start, bounded turns.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { accounts, events, interviewSessions } from '../db/schema';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createLlmClient } from '../providers/upstream/llm-client';
import { createLlmInterviewer } from '../providers/interviewer/llm-interviewer';
import { createRubricRater } from '../rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import type { Rater } from '../providers/types';
import { hashToken } from '../services/sessions';

interface Token {
  transport: string;
  sessionId: string;
  client_secret: { value: string; expires_at: number };
}
interface Rated {
  id: number;
  markdown: string;
  score: number;
}

const NO_OPEN_SESSION = 'There is no open interview session for this topic. Start a session first.';
const NOTHING_TO_RATE = 'No answers were recorded in this session, so there is nothing to rate. Your session credit was returned.';

const transcripts = [
  { role: 'interviewer', transcript: 'What is a closure?' },
  { role: 'interviewee', transcript: 'A closure is a function that keeps access to variables of its outer scope after it returns.' },
];
const silent = [
  { role: 'interviewer', transcript: 'What is a closure?' },
  { role: 'interviewee', transcript: '  ...  ' },
];

describeDatabases('interview sessions', (database) => {
  let t: TestApp;
  let ids: Map<number, number>;
  let rateCalls = 0;
  const rubric = createRubricRater();
  const countingRater: Rater = {
    async rate(input) {
      rateCalls += 1;
      // Slow enough that concurrent calls overlap the first one.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return rubric.rate(input);
    },
  };
  const setId = (index: number) => ids.get(index) ?? -1;
  const mint = async (email: string, index = 1) => {
    const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId(index)}`, { email });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    return token.body;
  };
  const rate = (email: string, body: Record<string, unknown>) => call<Rated>(t.app, 'POST', '/interview/rate-transcript', { email, body });
  const abandon = (email: string, id: string) =>
    call<Record<string, unknown>>(t.app, 'POST', `/interview/sessions/${id}/abandon`, { email });
  const used = async (email: string) => (await t.db.select().from(accounts).where(eq(accounts.email, email)))[0]?.sessionsUsed;
  const rateEvents = (email: string) =>
    t.db
      .select()
      .from(events)
      .where(and(eq(events.userEmail, email), eq(events.eventType, 'RATE')));
  const age = (sessionId: string, ms: number) =>
    t.db
      .update(interviewSessions)
      .set({ createdAt: new Date(Date.now() - ms) })
      .where(eq(interviewSessions.id, sessionId));

  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { freeSessionLimit: 10 },
      deps: { providers: { voice: createBrowserSpeechVoice(), rater: countingRater, interviewer: createScriptedInterviewer() } },
    });
    ids = await setIds(t.app);
  }, 300_000);
  afterAll(() => t.close());

  describe('rating is bound to a session', () => {
    it('refuses a rating without a session, and a premium set never minted leaks nothing', async () => {
      const email = 'nosession@example.com';
      await login(t.app, email);
      expect(await rate(email, { transcripts, durationSeconds: 30, questionSetId: setId(1) })).toMatchObject({
        status: 409,
        body: { error: NO_OPEN_SESSION },
      });
      const premium = await rate(email, { transcripts, durationSeconds: 30, questionSetId: setId(4) });
      expect(premium).toEqual(expect.objectContaining({ status: 409, body: { error: NO_OPEN_SESSION } }));
      expect(JSON.stringify(premium.body)).not.toContain('Hashing');
      expect(await rateEvents(email)).toEqual([]);
      const state = await call<{ topicLevels: Record<string, number> }>(t.app, 'POST', '/user/login', { body: { email } });
      expect(state.body.topicLevels).toEqual({});
    });

    it("refuses another user's session, another set's, an unknown one and one older than 4 hours", async () => {
      await login(t.app, 'owner@example.com');
      await login(t.app, 'thief@example.com');
      const token = await mint('owner@example.com');
      const mine = await mint('thief@example.com');
      expect(
        await rate('thief@example.com', { transcripts, durationSeconds: 5, questionSetId: setId(1), sessionId: token.sessionId }),
      ).toMatchObject({
        status: 409,
        body: { error: NO_OPEN_SESSION },
      });
      expect(
        await rate('thief@example.com', { transcripts, durationSeconds: 5, questionSetId: setId(2), sessionId: mine.sessionId }),
      ).toMatchObject({ status: 409 });
      expect(
        await rate('thief@example.com', { transcripts, durationSeconds: 5, questionSetId: setId(1), sessionId: 'not-a-session' }),
      ).toMatchObject({ status: 409 });
      await age(token.sessionId, 4 * 60 * 60 * 1000 + 60_000);
      expect(
        await rate('owner@example.com', { transcripts, durationSeconds: 5, questionSetId: setId(1), sessionId: token.sessionId }),
      ).toMatchObject({
        status: 409,
        body: { error: NO_OPEN_SESSION },
      });
      expect(await rate('owner@example.com', { transcripts, durationSeconds: 5, questionSetId: setId(1) })).toMatchObject({ status: 409 });
    });

    it('12 concurrent rate calls for one session store exactly one rating, rated once, answered alike', async () => {
      const email = 'double@example.com';
      await login(t.app, email);
      const token = await mint(email);
      const before = rateCalls;
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          rate(email, { transcripts, durationSeconds: 40, questionSetId: setId(1), sessionId: token.sessionId }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
      const first = answers[0]?.body;
      for (const answer of answers) expect(answer.body).toEqual(first);
      expect(rateCalls - before).toBe(1);
      expect(await rateEvents(email)).toHaveLength(1);
      const [account] = await t.db.select().from(accounts).where(eq(accounts.email, email));
      expect(account?.ratedInterviews).toBe(1);
      // A later repeat (a retry) answers the stored rating and counts nothing.
      expect(await rate(email, { transcripts: silent, durationSeconds: 1, questionSetId: setId(1), sessionId: token.sessionId })).toEqual(
        expect.objectContaining({ status: 200, body: first }),
      );
      expect(rateCalls - before).toBe(1);
      const history = await call<{ ratings: unknown[] }>(t.app, 'GET', '/user/ratings?page=1&limit=9', { email });
      expect(history.body.ratings).toHaveLength(1);
    });

    it("without sessionId binds to the caller's newest unrated session for the set", async () => {
      const email = 'spec@example.com';
      await login(t.app, email);
      const older = await mint(email);
      const newer = await mint(email);
      const first = await rate(email, { transcripts, durationSeconds: 30, questionSetId: setId(1) });
      expect(first.status).toBe(200);
      const [stored] = await t.db.select().from(events).where(eq(events.id, first.body.id));
      expect(stored?.sessionId).toBe(newer.sessionId);
      const second = await rate(email, { transcripts, durationSeconds: 30, questionSetId: setId(1) });
      expect(second.status).toBe(200);
      const [next] = await t.db.select().from(events).where(eq(events.id, second.body.id));
      expect(next?.sessionId).toBe(older.sessionId);
      expect(await rate(email, { transcripts, durationSeconds: 30, questionSetId: setId(1) })).toMatchObject({
        status: 409,
        body: { error: NO_OPEN_SESSION },
      });
    });
  });

  describe('nothing said, nothing spent', () => {
    it('an empty transcript is not rated, counts for nothing and gives the credit back (422)', async () => {
      const email = 'silent@example.com';
      await login(t.app, email);
      // Two credits used, so a second refund of the one session would show (refunds stop at 0).
      await mint(email);
      const token = await mint(email);
      expect(await used(email)).toBe(2);
      const answer = await rate(email, { transcripts: silent, durationSeconds: 12, questionSetId: setId(1), sessionId: token.sessionId });
      expect(answer).toMatchObject({ status: 422, body: { error: NOTHING_TO_RATE } });
      expect(await used(email)).toBe(1);
      expect(await rateEvents(email)).toEqual([]);
      const [session] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, token.sessionId));
      expect(session?.status).toBe('abandoned');
      const state = await call<{ topicLevels: Record<string, number>; progress: unknown[] }>(t.app, 'POST', '/user/login', {
        body: { email },
      });
      expect(state.body).toMatchObject({ topicLevels: {}, progress: [] });
      expect((await call<{ ratings: unknown[] }>(t.app, 'GET', '/user/ratings', { email })).body.ratings).toEqual([]);
      // The session is over: no second refund, no rating.
      expect(await rate(email, { transcripts, durationSeconds: 12, questionSetId: setId(1), sessionId: token.sessionId })).toMatchObject({
        status: 409,
      });
      expect(
        await rate(email, { transcripts: silent, durationSeconds: 12, questionSetId: setId(1), sessionId: token.sessionId }),
      ).toMatchObject({
        status: 409,
      });
      expect(await used(email)).toBe(1);
    });
  });

  describe('POST /interview/sessions/{id}/abandon', () => {
    it('gives the credit back once within 2 minutes; the session can then neither be rated nor take turns', async () => {
      const email = 'abandon@example.com';
      await login(t.app, email);
      const token = await mint(email);
      expect(await abandon(email, token.sessionId)).toEqual(
        expect.objectContaining({ status: 200, body: { sessionId: token.sessionId, status: 'abandoned', creditReturned: true } }),
      );
      expect(await used(email)).toBe(0);
      expect(await abandon(email, token.sessionId)).toMatchObject({ status: 200, body: { creditReturned: true } });
      expect(await used(email)).toBe(0);
      expect(await rate(email, { transcripts, durationSeconds: 5, questionSetId: setId(1), sessionId: token.sessionId })).toMatchObject({
        status: 409,
      });
      expect(await call(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: token.client_secret.value } })).toMatchObject({
        status: 409,
        body: { error: 'This interview session has already finished. Please start a new session.' },
      });
    });

    it('refuses after 2 minutes, a rated session, another user, an unknown id, and the fourth refund of a day', async () => {
      const email = 'late@example.com';
      await login(t.app, email);
      await login(t.app, 'stranger@example.com');
      const old = await mint(email);
      await age(old.sessionId, 2 * 60 * 1000 + 1000);
      expect(await abandon(email, old.sessionId)).toMatchObject({
        status: 409,
        body: { error: 'This interview session started more than 2 minutes ago, so its credit can no longer be returned.' },
      });
      const rated = await mint(email);
      expect((await rate(email, { transcripts, durationSeconds: 5, questionSetId: setId(1), sessionId: rated.sessionId })).status).toBe(
        200,
      );
      expect(await abandon(email, rated.sessionId)).toMatchObject({
        status: 409,
        body: { error: 'This interview session was already rated, so its credit cannot be returned.' },
      });
      const other = await mint(email);
      expect(await abandon('stranger@example.com', other.sessionId)).toMatchObject({
        status: 403,
        body: { error: 'This interview session belongs to another user.' },
      });
      expect(await abandon(email, '00000000-0000-4000-8000-000000000000')).toMatchObject({
        status: 404,
        body: { error: 'This interview session is not known. Please start a new session.' },
      });
      expect(await abandon(email, 'nope')).toMatchObject({ status: 404 });

      // other + two more = 3 refunds; the fourth is refused with when to retry.
      expect((await abandon(email, other.sessionId)).status).toBe(200);
      for (let i = 0; i < 2; i += 1) expect((await abandon(email, (await mint(email)).sessionId)).status).toBe(200);
      const usedBefore = await used(email);
      const fourth = await mint(email);
      expect(await abandon(email, fourth.sessionId)).toMatchObject({
        status: 429,
        body: {
          error: expect.stringMatching(
            /^At most 3 session credits a day are given back\. Please try again in about (2[34] hours|\d+ minutes)\.$/,
          ),
        },
      });
      expect(await used(email)).toBe((usedBefore ?? 0) + 1);
    });

    it('4 concurrent abandons with one refund left return exactly one credit', async () => {
      const email = 'raceabandon@example.com';
      await login(t.app, email);
      const first = [await mint(email), await mint(email)];
      for (const token of first) expect((await abandon(email, token.sessionId)).status).toBe(200);
      const tokens = [await mint(email), await mint(email), await mint(email), await mint(email)];
      const answers = await Promise.all(tokens.map((token) => abandon(email, token.sessionId)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429, 429]);
      expect(await used(email)).toBe(3);
    });
  });

  describe('POST /interview/turn is bounded', () => {
    it('refuses an OpenAI client secret, a live-call session, and an utterance over 4,000 characters', async () => {
      const email = 'bounds@example.com';
      await login(t.app, email);
      expect(await call(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: 'ek_68af1d2b3c4d5e6f' } })).toMatchObject({
        status: 403,
        body: { error: 'A voice-call key cannot be used as an interview session token. Please start a new session.' },
      });
      // A realtime session (here written as an older server stored it, with its key hashed).
      const [account] = await t.db.select().from(accounts).where(eq(accounts.email, email));
      await t.db.insert(interviewSessions).values({
        id: '11111111-1111-4111-8111-111111111111',
        accountId: account!.id,
        questionSetId: setId(1),
        transport: 'openai-realtime',
        tokenHash: hashToken('legacy-secret'),
      });
      expect(await call(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: 'legacy-secret' } })).toMatchObject({
        status: 409,
        body: { error: 'This interview session runs as a live voice call and does not take turns here.' },
      });
      const token = await mint(email);
      expect(
        await call(t.app, 'POST', '/interview/turn', {
          email,
          body: { sessionToken: token.client_secret.value, utterance: 'x'.repeat(4001) },
        }),
      ).toMatchObject({ status: 400, body: { error: 'utterance: An answer can be at most 4,000 characters long.' } });
    });
  });
});

describeDatabases('a session costs a bounded number of LLM calls and bytes', (database) => {
  let t: TestApp;
  let llm: FakeLlmServer;
  beforeAll(async () => {
    llm = await startFakeLlmServer();
    llm.setFallback({ content: 'Thank you. Can you tell me more about that?' });
    const client = createLlmClient({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model' });
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      deps: { providers: { voice: createBrowserSpeechVoice(), rater: createRubricRater(), interviewer: createLlmInterviewer(client) } },
    });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('takes 40 answers, refuses the 41st, and sends the model a window that does not grow', async () => {
    const email = 'long@example.com';
    await login(t.app, email);
    const setId = (await setIds(t.app)).get(1);
    const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    const turn = (utterance?: string) =>
      call(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: token.body.client_secret.value, utterance } });
    expect((await turn()).status).toBe(200);
    for (let i = 0; i < 40; i += 1) {
      const answer = await turn(`${i} `.padEnd(4000, 'word '));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    expect(await turn('one more answer')).toMatchObject({
      status: 400,
      body: { error: 'This interview has reached its limit of 40 answers. Please disconnect to get your feedback.' },
    });
    expect(llm.requests).toHaveLength(41);
    const sizes = llm.requests.map((r) => JSON.stringify(r.body).length);
    // System + joined + the last 12 lines + the new answer, from the 8th turn on: flat, not growing.
    const last = llm.requests.at(-1)?.body as { messages: unknown[] };
    expect(last.messages).toHaveLength(2 + 12 + 1);
    expect(Math.max(...sizes)).toBeLessThan(7 * 4100 + 6000);
    expect(Math.abs((sizes.at(-1) ?? 0) - (sizes[10] ?? 0))).toBeLessThan(200);
  }, 120_000);
});

describeDatabases('per-account and per-address limits', (database) => {
  let t: TestApp;
  const small = { perAddress: 3, perAccount: 2 };
  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: { callLimits: { rating: small, turn: small, abandon: small, feedback: small } },
    });
  }, 300_000);
  afterAll(() => t.close());

  it('answers 429 with when to retry, per account and per client address', async () => {
    const setId = (await setIds(t.app)).get(1);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await login(t.app, email);
    const rate = (email: string, remoteAddress: string) =>
      call(t.app, 'POST', '/interview/rate-transcript', {
        email,
        remoteAddress,
        body: { transcripts, durationSeconds: 5, questionSetId: setId },
      });
    // Two calls of account a (from two addresses) are allowed, the third is not.
    expect((await rate('a@example.com', '10.0.0.1')).status).toBe(409);
    expect((await rate('a@example.com', '10.0.0.2')).status).toBe(409);
    expect(await rate('a@example.com', '10.0.0.3')).toMatchObject({
      status: 429,
      body: { error: expect.stringMatching(/^Too many requests from this account\. Please wait \d+ seconds? and try again\.$/) },
    });
    // Address 10.0.0.9: three calls of different accounts, then the fourth is refused.
    expect((await rate('b@example.com', '10.0.0.9')).status).toBe(409);
    expect((await rate('b@example.com', '10.0.0.9')).status).toBe(409);
    expect((await rate('c@example.com', '10.0.0.9')).status).toBe(409);
    expect(await rate('c@example.com', '10.0.0.9')).toMatchObject({
      status: 429,
      body: { error: expect.stringMatching(/^Too many requests\. Please wait .+ and try again\.$/) },
    });
    // The other calls count apart.
    const feedback = await call(t.app, 'POST', '/user/feedback', {
      email: 'a@example.com',
      remoteAddress: '10.0.0.1',
      body: { feedback: 'Clear questions and a good pace overall.', topic: 'JavaScript', questionIndex: 1 },
    });
    expect(feedback.status).toBe(201);
    const abandons = [];
    for (let i = 0; i < 3; i += 1)
      abandons.push(await call(t.app, 'POST', '/interview/sessions/nope/abandon', { email: 'c@example.com', remoteAddress: '10.0.1.1' }));
    expect(abandons.map((a) => a.status)).toEqual([404, 404, 429]);
    const turns = [];
    for (let i = 0; i < 3; i += 1)
      turns.push(
        await call(t.app, 'POST', '/interview/turn', { email: 'b@example.com', remoteAddress: '10.0.2.1', body: { sessionToken: 'bs_x' } }),
      );
    expect(turns.map((a) => a.status)).toEqual([404, 404, 429]);
  });
});
