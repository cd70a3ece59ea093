import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { accounts, events, interviewSessions } from '../db/schema';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createRubricRater } from '../rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import { ProviderError, type Rater } from '../providers/types';
import { INAUDIBLE } from '../services/calls';

interface Token {
  transport: string;
  sessionId: string;
  client_secret: { value: string; expires_at: number };
}

const transcripts = [
  { role: 'interviewer', transcript: 'What is a closure?' },
  { role: 'interviewee', transcript: 'A closure is a function that keeps access to variables of its outer scope after it returns.' },
  { role: 'interviewer', transcript: 'How does the event loop work?' },
  { role: 'interviewee', transcript: 'The event loop takes tasks from the queue and runs microtasks after each task.' },
];

describeDatabases('interview calls', (database) => {
  let t: TestApp;
  let ids: Map<number, number>;
  const setId = (index: number) => ids.get(index) ?? -1;

  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: { freeSessionLimit: 3 } });
    ids = await setIds(t.app);
  }, 300_000);
  afterAll(() => t.close());

  describe('GET /interview/token', () => {
    it('mints a browser-speech session, spends a credit, records START and a session row (token stored hashed)', async () => {
      await login(t.app, 'tok@example.com');
      const answer = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'tok@example.com' });
      expect(answer.status).toBe(200);
      expect(answer.body.transport).toBe('browser-speech');
      expect(answer.body.client_secret.value).toMatch(/^bs_[A-Za-z0-9_-]{43}$/);
      expect(answer.body.client_secret.expires_at).toBeGreaterThan(Date.now() / 1000);

      const [account] = await t.db.select().from(accounts).where(eq(accounts.email, 'tok@example.com'));
      expect(account?.sessionsUsed).toBe(1);
      const [session] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, answer.body.sessionId));
      expect(session).toMatchObject({ status: 'minted', transport: 'browser-speech', questionSetId: setId(1), turns: [] });
      expect(session?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(session?.tokenHash).not.toContain(answer.body.client_secret.value);
      const starts = await t.db.select().from(events).where(eq(events.sessionId, answer.body.sessionId));
      expect(starts).toHaveLength(1);
      expect(starts[0]).toMatchObject({ eventType: 'START', userEmail: 'tok@example.com', topic: 'JavaScript', questionSetIndex: 0 });
    });

    it('enforces the tile rules with 403 sentences', async () => {
      await login(t.app, 'rules@example.com');
      const get = (index: number) => call(t.app, 'GET', `/interview/token?questionSetId=${setId(index)}`, { email: 'rules@example.com' });
      expect(await get(2)).toMatchObject({ status: 403, body: { error: 'Please complete the previous question sets before this one.' } });
      expect(await get(4)).toMatchObject({
        status: 403,
        body: { error: 'This topic is for Pro members. Please upgrade to Pro to use it.' },
      });
    });

    it('refuses unknown users, unknown sets and bad ids', async () => {
      expect(await call(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`)).toMatchObject({
        status: 401,
        body: { error: 'Please log in first: the x-user-email header is missing.' },
      });
      expect(await call(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'nobody@example.com' })).toMatchObject({
        status: 401,
      });
      await login(t.app, 'ids@example.com');
      expect(await call(t.app, 'GET', '/interview/token?questionSetId=99999', { email: 'ids@example.com' })).toMatchObject({
        status: 404,
        body: { error: 'This question set does not exist.' },
      });
      expect(await call(t.app, 'GET', '/interview/token?questionSetId=abc', { email: 'ids@example.com' })).toMatchObject({
        status: 400,
        body: { error: 'questionSetId: The id must be a number.' },
      });
      expect(await call(t.app, 'GET', '/interview/token', { email: 'ids@example.com' })).toMatchObject({ status: 400 });
    });

    it('gives exactly the credits left to 20 concurrent requests, 402 to the rest', async () => {
      await login(t.app, 'race@example.com');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => call(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'race@example.com' })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
      const refused = answers.filter((a) => a.status === 402);
      expect(refused).toHaveLength(17);
      expect(refused[0]?.body).toEqual({ error: 'You have run out of interview sessions. Please contact us to get more credits.' });
      const [account] = await t.db.select().from(accounts).where(eq(accounts.email, 'race@example.com'));
      expect(account?.sessionsUsed).toBe(3);
    });

    it('uses the account limit and the pro limit', async () => {
      await login(t.app, 'limit@example.com');
      await call(t.app, 'POST', '/api/emails', {
        admin: t.config.adminSecret,
        body: { email: 'limit@example.com', isPro: false, limit: 1 },
      });
      const get = () => call(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'limit@example.com' });
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(402);
      // Pro with no own limit: the pro plan default (100) applies, not the free 3.
      await login(t.app, 'prolimit@example.com');
      await call(t.app, 'POST', '/api/emails', {
        admin: t.config.adminSecret,
        body: { email: 'prolimit@example.com', isPro: true, limit: null },
      });
      for (let i = 0; i < 4; i += 1) {
        expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'prolimit@example.com' })).status).toBe(
          200,
        );
      }
    });
  });

  describe('POST /interview/rate-transcript and GET /user/ratings', () => {
    it('stores, rates, answers {id, markdown, score, breakdown, level}, and unlocks the next level', async () => {
      await login(t.app, 'rate@example.com');
      const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'rate@example.com' });
      const answer = await call<{ id: number; markdown: string; score: number }>(t.app, 'POST', '/interview/rate-transcript', {
        email: 'rate@example.com',
        body: { transcripts, durationSeconds: 125, questionSetId: setId(1), sessionId: token.body.sessionId },
      });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(['breakdown', 'id', 'level', 'markdown', 'score']);
      const expected = await createRubricRater().rate({
        set: { id: setId(1), ...FIXTURE_SETS[0]! },
        transcripts: transcripts as never,
        durationSeconds: 125,
      });
      expect(answer.body).toEqual({
        id: answer.body.id,
        markdown: expected.markdown,
        score: expected.score,
        breakdown: expected.breakdown,
        // Both questions of the set answered, and LEVEL_PASS_SCORE is 0: the level is completed.
        level: { completed: true, unanswered: [], scoreBelow: null },
      });
      // One entry per question of the set, in order.
      expect(expected.breakdown.map((b) => b.question)).toEqual(FIXTURE_SETS[0]!.questions);

      const [stored] = await t.db.select().from(events).where(eq(events.id, answer.body.id));
      expect(stored).toMatchObject({
        eventType: 'RATE',
        ratingStatus: 'rated',
        rater: 'rubric',
        questionSetIndex: 0,
        topic: 'JavaScript',
        durationSeconds: 125,
        transcript: transcripts,
        sessionId: token.body.sessionId,
        ratingBreakdown: expected.breakdown,
      });
      const [session] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, token.body.sessionId));
      expect(session?.status).toBe('rated');

      const state = await call<{ topicLevels: Record<string, number>; progress: unknown[] }>(t.app, 'POST', '/user/login', {
        body: { email: 'rate@example.com' },
      });
      expect(state.body.topicLevels).toEqual({ JavaScript: 1 });
      expect(state.body.progress).toEqual([
        { questionSetId: setId(1), topic: 'JavaScript', index: 1, score: expected.score, completedAt: expect.any(String) },
      ]);
      // Level 1 done: set 2 is open now.
      expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId(2)}`, { email: 'rate@example.com' })).status).toBe(200);

      const ratings = await call(t.app, 'GET', '/user/ratings?page=1&limit=9', { email: 'rate@example.com' });
      expect(ratings.body).toEqual({
        ratings: [
          {
            id: answer.body.id,
            topic: 'JavaScript',
            questionSetIndex: 0,
            score: expected.score,
            eventTimestamp: expect.any(String),
            durationSeconds: 125,
            ratingMarkdown: expected.markdown,
            breakdown: expected.breakdown,
          },
        ],
        pagination: { page: 1, limit: 9, totalCount: 1, totalPages: 1, hasNextPage: false, hasPreviousPage: false },
      });
    });

    it('validates the transcript and the page', async () => {
      await login(t.app, 'bad@example.com');
      const post = (body: unknown) => call(t.app, 'POST', '/interview/rate-transcript', { email: 'bad@example.com', body });
      expect(await post({ transcripts: [{ role: 'robot', transcript: 'x' }], durationSeconds: 1, questionSetId: setId(1) })).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/^transcripts\.0\.role: /) },
      });
      expect(await post({ transcripts: [], durationSeconds: -1, questionSetId: setId(1) })).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/^durationSeconds: /) },
      });
      expect(await post({ transcripts: [], durationSeconds: 1, questionSetId: 99999 })).toMatchObject({
        status: 404,
        body: { error: 'This question set does not exist.' },
      });
      const get = (query: string) => call(t.app, 'GET', `/user/ratings${query}`, { email: 'bad@example.com' });
      expect(await get('?page=0')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^page: /) } });
      expect(await get('?limit=51')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^limit: /) } });
      expect(await get('?page=x')).toMatchObject({ status: 400, body: { error: 'page: page must be a whole number of at least 1.' } });
      expect(await call(t.app, 'GET', '/user/ratings', { email: 'ghost@example.com' })).toMatchObject({ status: 401 });
    });

    it('paginates newest first', async () => {
      await login(t.app, 'pages@example.com');
      await call(t.app, 'POST', '/api/emails', {
        admin: t.config.adminSecret,
        body: { email: 'pages@example.com', isPro: false, limit: 50 },
      });
      const made: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        // Each rating needs its own session: the call binds to the newest unrated one.
        expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'pages@example.com' })).status).toBe(200);
        const r = await call<{ id: number }>(t.app, 'POST', '/interview/rate-transcript', {
          email: 'pages@example.com',
          body: { transcripts, durationSeconds: 60 + i, questionSetId: setId(1) },
        });
        made.push(r.body.id);
      }
      const page2 = await call<{ ratings: Array<{ id: number }>; pagination: unknown }>(t.app, 'GET', '/user/ratings?page=2&limit=2', {
        email: 'pages@example.com',
      });
      expect(page2.body.ratings.map((r) => r.id)).toEqual([made[2], made[1]]);
      expect(page2.body.pagination).toEqual({ page: 2, limit: 2, totalCount: 5, totalPages: 3, hasNextPage: true, hasPreviousPage: true });
      const page3 = await call<{ ratings: Array<{ id: number }>; pagination: { hasNextPage: boolean } }>(
        t.app,
        'GET',
        '/user/ratings?page=3&limit=2',
        { email: 'pages@example.com' },
      );
      expect(page3.body.ratings.map((r) => r.id)).toEqual([made[0]]);
      expect(page3.body.pagination.hasNextPage).toBe(false);
      const beyond = await call<{ ratings: unknown[] }>(t.app, 'GET', '/user/ratings?page=9&limit=2', { email: 'pages@example.com' });
      expect(beyond.body.ratings).toEqual([]);
    });
  });

  describe('POST /interview/turn', () => {
    it('runs the scripted interviewer for the owner, stores the turns, and refuses others and finished sessions', async () => {
      await login(t.app, 'turn@example.com');
      await login(t.app, 'other@example.com');
      const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'turn@example.com' });
      const sessionToken = token.body.client_secret.value;
      const turn = (email: string, utterance?: string) =>
        call<{ say: string; closeSession: { reason: string } | null }>(t.app, 'POST', '/interview/turn', {
          email,
          body: { sessionToken, utterance },
        });

      const interviewer = createScriptedInterviewer();
      const set = { id: setId(1), ...FIXTURE_SETS[0]! };
      const opening = await turn('turn@example.com');
      expect(opening.status).toBe(200);
      const { say, closeSession } = await interviewer.nextTurn({ set, history: [] });
      expect(opening.body).toEqual({ say, closeSession });

      expect(await turn('other@example.com', 'hi')).toMatchObject({
        status: 403,
        body: { error: 'This interview session belongs to another user.' },
      });
      expect(await call(t.app, 'POST', '/interview/turn', { email: 'turn@example.com', body: { sessionToken: 'bs_wrong' } })).toMatchObject(
        {
          status: 404,
          body: { error: 'This interview session is not known. Please start a new session.' },
        },
      );

      let last = opening;
      for (let i = 0; i < 12 && last.body.closeSession === null; i += 1) {
        last = await turn(
          'turn@example.com',
          `I would answer that closures keep their scope and the event loop runs queued tasks, attempt ${i}.`,
        );
        expect(last.status).toBe(200);
      }
      expect(last.body.closeSession).not.toBeNull();
      const [session] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, token.body.sessionId));
      expect(session?.status).toBe('live');
      expect(session?.finishedAt).toBeInstanceOf(Date);
      expect(session?.turns[0]).toMatchObject({ role: 'interviewer', transcript: opening.body.say });
      expect(session?.turns[1]).toMatchObject({ role: 'interviewee' });
      expect(session?.turns.at(-1)).toMatchObject({ role: 'interviewer', transcript: last.body.say });
      expect(await turn('turn@example.com', 'one more')).toMatchObject({
        status: 409,
        body: { error: 'This interview session has already finished. Please start a new session.' },
      });
    });

    it('stores which question each scripted line asked, and rates by it whatever the browser says', async () => {
      await login(t.app, 'asked@example.com');
      const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'asked@example.com' });
      const turn = (utterance?: string) =>
        call<Record<string, unknown>>(t.app, 'POST', '/interview/turn', {
          email: 'asked@example.com',
          body: { sessionToken: token.body.client_secret.value, utterance },
        });
      const opening = await turn();
      // The candidate is not told: the question a line asked is the server's record for the rating.
      expect(Object.keys(opening.body).sort()).toEqual(['closeSession', 'say']);
      let last = await turn('A closure is a function that keeps access to variables of its outer scope after it returns.');
      for (let i = 0; i < 4 && last.body.closeSession === null; i += 1) {
        last = await turn('The event loop takes tasks from the queue and runs the microtasks after each task.');
      }
      const [session] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, token.body.sessionId));
      const stored = session!.turns;
      const asked = stored.filter((e) => e.role === 'interviewer').map((e) => e.askedQuestion);
      expect(asked[0]).toBe(0);
      expect(asked).toContain(1);
      // The closing line asks nothing.
      expect(asked.at(-1)).toBeUndefined();

      // A browser that claims other questions, and a line the server never said.
      const sent = [
        ...stored.map((e) => (e.role === 'interviewer' ? { ...e, askedQuestion: 1 - (e.askedQuestion ?? 0) } : e)),
        { role: 'interviewer', transcript: 'What is a closure, once more?', askedQuestion: 0 },
        { role: 'interviewee', transcript: 'Still a function with its scope.' },
      ];
      const rated = await call<{ breakdown: Array<{ verdict: string }> }>(t.app, 'POST', '/interview/rate-transcript', {
        email: 'asked@example.com',
        body: { transcripts: sent, durationSeconds: 60, questionSetId: setId(1), sessionId: token.body.sessionId },
      });
      expect(rated.status).toBe(200);
      const [event] = await t.db
        .select()
        .from(events)
        .where(and(eq(events.sessionId, token.body.sessionId), eq(events.eventType, 'RATE')));
      expect(event!.transcript!.filter((e) => e.role === 'interviewer').map((e) => e.askedQuestion)).toEqual([...asked, undefined]);
      expect(rated.body.breakdown.map((b) => b.verdict)).not.toContain('Not answered');
    });

    it('rates an answer that could not be heard as unanswered, as its note says, and keeps the mark in the transcript', async () => {
      await login(t.app, 'inaudible@example.com');
      const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'inaudible@example.com' });
      const heard = transcripts.map((e, i) => (i === 3 ? { ...e, transcript: INAUDIBLE } : e));
      const rated = await call<{ id: number; markdown: string; breakdown: Array<{ verdict: string; score: number }> }>(
        t.app,
        'POST',
        '/interview/rate-transcript',
        {
          email: 'inaudible@example.com',
          body: { transcripts: heard, durationSeconds: 60, questionSetId: setId(1), sessionId: token.body.sessionId },
        },
      );
      expect(rated.status).toBe(200);
      expect(rated.body.breakdown[1]).toMatchObject({ verdict: 'Not answered', score: 0 });
      expect(rated.body.breakdown[0]?.verdict).not.toBe('Not answered');
      expect(rated.body.markdown).toContain(
        'One answer could not be heard (marked "[inaudible]" in the transcript), so it was rated as unanswered.',
      );
      const [stored] = await t.db.select().from(events).where(eq(events.id, rated.body.id));
      expect(stored!.transcript!.map((e) => e.transcript)).toContain(INAUDIBLE);
    });

    it('refuses a session token older than its expiry', async () => {
      await login(t.app, 'old@example.com');
      const token = await call<Token>(t.app, 'GET', `/interview/token?questionSetId=${setId(1)}`, { email: 'old@example.com' });
      const body = { sessionToken: token.body.client_secret.value };
      expect((await call(t.app, 'POST', '/interview/turn', { email: 'old@example.com', body })).status).toBe(200);
      const ttlMs = token.body.client_secret.expires_at * 1000 - Date.now() + 60_000;
      await t.db
        .update(interviewSessions)
        .set({ createdAt: new Date(Date.now() - ttlMs) })
        .where(eq(interviewSessions.id, token.body.sessionId));
      expect(await call(t.app, 'POST', '/interview/turn', { email: 'old@example.com', body })).toMatchObject({
        status: 401,
        body: { error: 'This interview session has expired. Please start a new session.' },
      });
    });
  });
});

describeDatabases('provider failures', (database) => {
  let t: TestApp;
  let voiceDown = true;
  const speech = createBrowserSpeechVoice();
  const flakyRater: Rater = {
    rate: async () => {
      throw new Error('rater down');
    },
  };
  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      deps: {
        providers: {
          voice: {
            transport: 'browser-speech',
            createSession: async (input) => {
              if (!voiceDown) return speech.createSession(input);
              throw new ProviderError('The voice service is busy right now. Please try again in a minute.', 503, 429);
            },
          },
          rater: flakyRater,
          interviewer: createScriptedInterviewer(),
        },
      },
    });
  }, 300_000);
  afterAll(() => t.close());

  it('refunds the credit and answers the provider error with its status', async () => {
    await login(t.app, 'refund@example.com');
    const answer = await call(t.app, 'GET', `/interview/token?questionSetId=${(await setIds(t.app)).get(1)}`, {
      email: 'refund@example.com',
    });
    expect(answer).toMatchObject({ status: 503, body: { error: 'The voice service is busy right now. Please try again in a minute.' } });
    const [account] = await t.db.select().from(accounts).where(eq(accounts.email, 'refund@example.com'));
    expect(account?.sessionsUsed).toBe(0);
    expect(await t.db.select().from(events).where(eq(events.userEmail, 'refund@example.com'))).toEqual([]);
  });

  it('keeps the transcript of a failed rating and answers {error}', async () => {
    await login(t.app, 'fail@example.com');
    const ids = await setIds(t.app);
    voiceDown = false;
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${ids.get(1)}`, { email: 'fail@example.com' })).status).toBe(200);
    voiceDown = true;
    const answer = await call(t.app, 'POST', '/interview/rate-transcript', {
      email: 'fail@example.com',
      body: { transcripts, durationSeconds: 30, questionSetId: ids.get(1) },
    });
    expect(answer).toMatchObject({
      status: 502,
      body: {
        error:
          'We could not rate this interview right now. Your transcript is saved, and we will try again automatically up to 6 times over about 63 minutes; the feedback appears in your history once it is rated.',
      },
    });
    const stored = await t.db
      .select()
      .from(events)
      .where(and(eq(events.userEmail, 'fail@example.com'), eq(events.eventType, 'RATE')));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      eventType: 'RATE',
      ratingStatus: 'failed',
      transcript: transcripts,
      ratingMarkdown: null,
      ratingAttempts: 1,
    });
    // The first retry is due about RATING_RETRY_DELAY_SECONDS (60) from now.
    const due = (stored[0]?.nextRatingAt?.getTime() ?? 0) - Date.now();
    expect(due).toBeGreaterThan(50_000);
    expect(due).toBeLessThan(70_000);
  });
});

describe('ratings left pending by a crash', () => {
  it('are completed at the next start-up', async () => {
    const { openDatabase } = await import('../db/client');
    const { buildApp } = await import('../app');
    const { loadConfig } = await import('../config');
    const database = await openDatabase({ kind: 'pglite' });
    const config = { ...loadConfig({ ADMIN_SECRET: 'pending-test-secret' }) };
    const providers = { voice: createBrowserSpeechVoice(), rater: createRubricRater(), interviewer: createScriptedInterviewer() };
    const first = await buildApp(config, { database, providers, catalogue: async () => FIXTURE_SETS, webDist: null });
    await login(first, 'crash@example.com');
    const ids = await setIds(first);
    await first.close();
    // What a crash between "store" and "rate" leaves behind.
    const [pending] = await database.db
      .insert(events)
      .values({
        eventType: 'RATE',
        userEmail: 'crash@example.com',
        questionSetId: ids.get(1),
        topic: 'JavaScript',
        questionSetIndex: 0,
        durationSeconds: 40,
        transcript: transcripts as never,
        ratingStatus: 'pending',
      })
      .returning();

    const second = await buildApp(config, { database, providers, catalogue: async () => FIXTURE_SETS, webDist: null });
    expect(await second.pendingRatingsDone).toBe(1);
    const [rated] = await database.db.select().from(events).where(eq(events.id, pending!.id));
    expect(rated).toMatchObject({ ratingStatus: 'rated', rater: 'rubric' });
    expect(rated?.ratingMarkdown).toBeTruthy();
    await second.close();
    await database.close();
  }, 300_000);
});
