/** The operator's console over HTTP on both databases: credits, exports, editor, stats, data requests. */
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { events, feedback } from '../db/schema';
import { EXPORT_PAGE_SIZE, exportRatings } from '../services/admin';

const CONSOLE_CALLS: Array<['GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE', string]> = [
  ['PATCH', '/api/emails/a%40b.co'],
  ['GET', '/api/admin/exports/ratings.csv'],
  ['GET', '/api/admin/exports/feedback.csv'],
  ['GET', '/api/admin/question-sets'],
  ['POST', '/api/admin/question-sets'],
  ['PUT', '/api/admin/question-sets/1'],
  ['DELETE', '/api/admin/question-sets/1'],
  ['GET', '/api/admin/stats/daily?days=7'],
  ['GET', '/api/admin/users/a%40b.co'],
  ['DELETE', '/api/admin/users/a%40b.co'],
];

const transcripts = [
  { role: 'interviewer', transcript: 'What is a closure?' },
  { role: 'interviewee', transcript: '=HYPERLINK("x") A function that keeps its outer scope.' },
];
/** Answers every question of set 1, so that it completes its level and set 2 opens. */
const completeTranscripts = [
  ...transcripts,
  { role: 'interviewer', transcript: 'How does the event loop work?' },
  { role: 'interviewee', transcript: 'The event loop runs queued tasks and then the microtasks, one at a time.' },
];

/** A set that passes the catalogue files' rules. */
const validSet = (overrides: Record<string, unknown> = {}) => ({
  name: 'Testing',
  index: 5,
  isPremium: false,
  requiresFeedback: false,
  instructions: 'Be kind.',
  questions: ['What is a unit test?', 'What is a mock?'],
  modelAnswers: [
    '### 1. What is a unit test?',
    '',
    'A test of one small unit in isolation.',
    '',
    '**Key points:** one unit; isolation; fast feedback.',
    '',
    '### 2. What is a mock?',
    '',
    'A stand-in that records calls.',
    '',
    '**Key points:** replaces a dependency; records calls.',
  ].join('\n'),
  ...overrides,
});

interface Account {
  email: string;
  plan: string;
  sessionLimit: number | null;
  limit: number;
  sessionsUsed: number;
  remaining: number;
}

describeDatabases('admin console calls', (database) => {
  let t: TestApp;
  let secret: string;
  let ids: Map<number, number>;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: { freeSessionLimit: 5, proSessionLimit: 50 } });
    secret = t.config.adminSecret;
    ids = await setIds(t.app);
  }, 300_000);
  afterAll(() => t.close());

  const admin = <T>(method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    call<T>(t.app, method, url, { admin: secret, body });
  const interview = async (email: string, setIndex = 1, lines = transcripts) => {
    const questionSetId = ids.get(setIndex);
    const token = await call(t.app, 'GET', `/interview/token?questionSetId=${questionSetId}`, { email });
    expect(token.status).toBe(200);
    const rated = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts: lines, durationSeconds: 42, questionSetId },
    });
    expect(rated.status).toBe(200);
  };

  it('refuses every console call without the right secret', async () => {
    for (const [method, url] of CONSOLE_CALLS) {
      const missing = await call(t.app, method, url, {
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
        remoteAddress: '10.9.9.7',
      });
      expect(missing, `${method} ${url}`).toMatchObject({ status: 401, body: { error: 'The admin secret is missing.' } });
      const wrong = await call(t.app, method, url, { admin: `${secret}x`, remoteAddress: '10.9.9.6' });
      expect(wrong, `${method} ${url}`).toMatchObject({ status: 401, body: { error: 'The admin secret is wrong.' } });
    }
  });

  describe('credits', () => {
    it('lists plan, limit, used and remaining, and sets or clears an own limit', async () => {
      await login(t.app, 'credits@example.com');
      await interview('credits@example.com');
      const find = async () => (await admin<Account[]>('GET', '/api/emails')).body.find((a) => a.email === 'credits@example.com');
      expect(await find()).toMatchObject({ plan: 'free', sessionLimit: null, limit: 5, sessionsUsed: 1, remaining: 4 });

      const patched = await admin<Account>('PATCH', '/api/emails/Credits%40Example.com', { sessionLimit: 1 });
      expect(patched).toMatchObject({
        status: 200,
        body: { email: 'credits@example.com', sessionLimit: 1, limit: 1, sessionsUsed: 1, remaining: 0 },
      });
      // The credit check uses the own limit at once.
      const refused = await call(t.app, 'GET', `/interview/token?questionSetId=${ids.get(1)}`, { email: 'credits@example.com' });
      expect(refused.status).toBe(402);

      await admin('POST', '/api/emails', { email: 'credits@example.com', isPro: true, limit: null });
      expect(await find()).toMatchObject({ plan: 'pro', sessionLimit: 1, limit: 1, remaining: 0 });
      const cleared = await admin<Account>('PATCH', '/api/emails/credits@example.com', { sessionLimit: null });
      expect(cleared.body).toMatchObject({ plan: 'pro', sessionLimit: null, limit: 50, remaining: 49 });
    });

    it('answers 404 for an unknown account and 400 for a bad limit', async () => {
      expect(await admin('PATCH', '/api/emails/nobody@example.com', { sessionLimit: 3 })).toEqual(
        expect.objectContaining({ status: 404, body: { error: 'There is no account with the email nobody@example.com.' } }),
      );
      expect(await admin('PATCH', '/api/emails/credits@example.com', { sessionLimit: -1 })).toMatchObject({
        status: 400,
        body: { error: 'sessionLimit: sessionLimit must not be negative.' },
      });
      expect(await admin('PATCH', '/api/emails/credits@example.com', {})).toMatchObject({ status: 400 });
    });
  });

  describe('streamed exports', () => {
    it('answers 204 when there is no feedback yet, then every row with BOM and neutralised formulas', async () => {
      expect((await admin('GET', '/api/admin/exports/feedback.csv')).status).toBe(204);
      // More rows than one page, to cross the keyset page boundary.
      const rows = EXPORT_PAGE_SIZE + 3;
      await t.db.insert(feedback).values(
        Array.from({ length: rows }, (_, i) => ({
          userEmail: `f${i}@example.com`,
          topic: 'SQL',
          questionIndex: 2,
          feedback: i === 0 ? '+SUM(1), "quoted"' : `fine ${i}`,
        })),
      );
      const answer = await t.app.inject({ method: 'GET', url: '/api/admin/exports/feedback.csv', headers: { 'x-admin-secret': secret } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="feedback_data_\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(answer.body.startsWith('\uFEFFID,User Email,Topic,Set Number Q (as candidates see it),Feedback,Created At\r\n')).toBe(true);
      const lines = answer.body.trimEnd().split('\r\n');
      expect(lines).toHaveLength(rows + 1);
      // Newest first, as the admin list shows them.
      expect(lines[rows]).toMatch(/^\d+,f0@example\.com,SQL,2,"'\+SUM\(1\), ""quoted""",\d{4}-/);
      expect(lines[1]).toMatch(new RegExp(`,f${rows - 1}@example\\.com,SQL,2,fine ${rows - 1},`));
      const ids = lines.slice(1).map((line) => Number(line.split(',')[0]));
      expect(new Set(ids).size).toBe(rows);
    });

    it('exports every RATE event, not only a page of them', async () => {
      await login(t.app, 'export@example.com');
      await interview('export@example.com');
      const answer = await t.app.inject({ method: 'GET', url: '/api/admin/exports/ratings.csv', headers: { 'x-admin-secret': secret } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-disposition']).toBe('attachment; filename="ratings_and_transcripts.csv"');
      expect(
        answer.body.startsWith(
          '\uFEFFID,User Email,Topic,Set Index (from 0),Set Number (as candidates see it),Timestamp,Duration (s),Score,Rater,Transcript,Rating Markdown\r\n',
        ),
      ).toBe(true);
      expect(answer.body).toContain(',export@example.com,JavaScript,0,1,');
      expect(answer.body).toContain(
        '"Interviewer: What is a closure?\nInterviewee: =HYPERLINK(""x"") A function that keeps its outer scope."',
      );
      // START events are not exported.
      const rateCount = (await admin<Array<{ eventType: string }>>('GET', '/api/events?limit=500')).body.filter(
        (e) => e.eventType === 'RATE',
      ).length;
      expect(
        answer.body
          .trimEnd()
          .split('\r\n')
          .filter((line) => /^\d+,/.test(line)),
      ).toHaveLength(rateCount);
      // One chunk per rating (issue 33: a page of 500 ratings of 200,000 characters was one 300 MB string).
      await t.db.insert(events).values(
        [1, 2].map((i) => ({
          eventType: 'RATE',
          userEmail: `chunk${i}@example.com`,
          transcript: [{ role: 'interviewee' as const, transcript: 'x' }],
        })),
      );
      const chunks: string[] = [];
      for await (const chunk of (await exportRatings(t.db)) ?? []) chunks.push(chunk);
      expect(chunks).toHaveLength(1 + rateCount + 2);
      await t.db.delete(events).where(like(events.userEmail, 'chunk%@example.com'));
    });

    it('lets the event loop turn between two ratings read from PGlite (issue 33 item 2)', async () => {
      // PGlite's reads run on the server's thread: 16 large ratings read back to back held /healthz 815 ms.
      await t.db.insert(events).values(
        [1, 2, 3].map((i) => ({
          eventType: 'RATE',
          userEmail: `turn${i}@example.com`,
          transcript: [{ role: 'interviewee' as const, transcript: 'x' }],
        })),
      );
      let turns = 0;
      let counting = true;
      const count = () => {
        turns += 1;
        if (counting) setImmediate(count);
      };
      setImmediate(count);
      const turnsAtRating: number[] = [];
      for await (const chunk of (await exportRatings(t.db)) ?? []) if (/^\d+,/.test(chunk)) turnsAtRating.push(turns);
      counting = false;
      await t.db.delete(events).where(like(events.userEmail, 'turn%@example.com'));
      if (database !== 'pglite') return;
      const stalled = turnsAtRating.slice(1).filter((n, i) => n === turnsAtRating[i]);
      expect(stalled).toEqual([]);
    });
  });

  describe('question-set editor', () => {
    const catalogue = async (email?: string) =>
      (
        await call<Array<{ id: number; name: string; index: number; modelAnswers: string | null }>>(t.app, 'GET', '/api/question-sets', {
          email,
        })
      ).body;

    it('lists full sets with instructions, questions and model answers', async () => {
      const list = await admin<Array<Record<string, unknown>>>('GET', '/api/admin/question-sets');
      expect(list.status).toBe(200);
      expect(list.body.map((s) => s.index)).toEqual(FIXTURE_SETS.map((s) => s.index));
      expect(list.body[0]).toMatchObject({
        name: 'JavaScript',
        instructions: 'Keep it friendly.',
        questions: FIXTURE_SETS[0]?.questions,
        editedAt: null,
        archivedAt: null,
      });
      // Premium model answers too: the admin sees everything.
      expect(list.body[3]?.modelAnswers).toBe(FIXTURE_SETS[3]?.modelAnswers);
    });

    it('creates and edits a set that candidates see at once', async () => {
      await catalogue(); // fills the candidates' cache first
      const created = await admin<{ id: number; editedAt: string | null }>('POST', '/api/admin/question-sets', validSet());
      expect(created.status).toBe(201);
      expect(created.body.editedAt).not.toBeNull();
      expect((await catalogue()).find((s) => s.id === created.body.id)).toMatchObject({ name: 'Testing', index: 5 });

      const edited = await admin('PUT', `/api/admin/question-sets/${created.body.id}`, validSet({ name: 'Unit testing', isPremium: true }));
      expect(edited).toMatchObject({ status: 200, body: { id: created.body.id, name: 'Unit testing', index: 5, isPremium: true } });
      expect((await catalogue()).find((s) => s.id === created.body.id)).toMatchObject({ name: 'Unit testing', modelAnswers: null });
    });

    it('checks sets with the catalogue files’ rules and keeps the tile order without gaps', async () => {
      const mismatch = await admin('POST', '/api/admin/question-sets', validSet({ index: 6, questions: ['What is a unit test?'] }));
      expect(mismatch).toMatchObject({
        status: 400,
        body: { error: 'This question set has 1 questions but 2 model-answer sections (expected one "### n. <question>" per question).' },
      });
      const noKeyPoints = await admin(
        'POST',
        '/api/admin/question-sets',
        validSet({ index: 6, modelAnswers: validSet().modelAnswers.replace('**Key points:** one unit; isolation; fast feedback.', '') }),
      );
      expect(noKeyPoints).toMatchObject({
        status: 400,
        body: { error: 'In this question set, model answer 1 has no key points (add a line "**Key points:** a; b; c").' },
      });
      // Inserting at a taken index moves the later sets down (admin-question-set-order.test.ts); past the end is refused.
      expect(await admin('POST', '/api/admin/question-sets', validSet({ index: 9 }))).toMatchObject({
        status: 400,
        body: {
          error:
            'The index 9 is past the end: there are 5 sets, so this set can take an index from 1 to 6. Sets unlock one index after another, so the tile order has no gaps.',
        },
      });
      expect(await admin('POST', '/api/admin/question-sets', validSet({ name: '' }))).toMatchObject({
        status: 400,
        body: { error: 'name: name must not be empty.' },
      });
      expect(await admin('PUT', '/api/admin/question-sets/999999', validSet({ index: 6 }))).toMatchObject({
        status: 404,
        body: { error: 'This question set does not exist.' },
      });
    });

    it('deletes a set no interview used', async () => {
      const unused = await admin<{ id: number }>('POST', '/api/admin/question-sets', validSet({ index: 6 }));
      expect(unused.status).toBe(201);
      expect(await admin('DELETE', `/api/admin/question-sets/${unused.body.id}`)).toMatchObject({
        status: 200,
        body: { outcome: 'deleted' },
      });
      expect((await admin<Array<{ id: number }>>('GET', '/api/admin/question-sets')).body.some((s) => s.id === unused.body.id)).toBe(false);
      expect(await admin('DELETE', `/api/admin/question-sets/${unused.body.id}`)).toMatchObject({ status: 404 });
    });
  });

  describe('daily stats', () => {
    it('counts started and rated interviews per day, scores and completion per set', async () => {
      await login(t.app, 'daily@example.com');
      const before = (await admin<{ perDay: Array<{ started: number; rated: number }> }>('GET', '/api/admin/stats/daily?days=7')).body;
      await interview('daily@example.com', 1, completeTranscripts);
      await interview('daily@example.com', 2);
      const answer = await admin<{
        days: number;
        from: string;
        to: string;
        perDay: Array<{ date: string; started: number; rated: number }>;
        scores: Array<{ from: number; to: number; count: number }>;
        completionBySet: Array<{ index: number; accounts: number }>;
      }>('GET', '/api/admin/stats/daily?days=7');
      expect(answer.status).toBe(200);
      const today = new Date().toISOString().slice(0, 10);
      expect(answer.body).toMatchObject({ days: 7, to: today });
      expect(answer.body.perDay).toHaveLength(7);
      expect(answer.body.perDay[6]?.date).toBe(today);
      expect(answer.body.perDay[6]?.started).toBe((before.perDay[6]?.started ?? 0) + 2);
      expect(answer.body.perDay[6]?.rated).toBe((before.perDay[6]?.rated ?? 0) + 2);
      expect(answer.body.scores.map((b) => `${b.from}-${b.to}`)).toEqual([
        '0-9',
        '10-19',
        '20-29',
        '30-39',
        '40-49',
        '50-59',
        '60-69',
        '70-79',
        '80-89',
        '90-100',
      ]);
      const rated = answer.body.perDay.reduce((sum, d) => sum + d.rated, 0);
      expect(answer.body.scores.reduce((sum, b) => sum + b.count, 0)).toBe(rated);
      expect(answer.body.completionBySet.find((s) => s.index === 2)?.accounts).toBe(1);
      expect((await admin<{ perDay: unknown[] }>('GET', '/api/admin/stats/daily?days=90')).body.perDay).toHaveLength(90);
      expect(await admin('GET', '/api/admin/stats/daily?days=5')).toMatchObject({
        status: 400,
        body: { error: 'days: days must be 7, 30 or 90.' },
      });
    });
  });

  describe('data requests', () => {
    it('answers everything about one person, then erases it and says what went', async () => {
      const email = 'person@example.com';
      await login(t.app, email);
      await interview(email);
      const sent = await call(t.app, 'POST', '/user/feedback', {
        email,
        body: { feedback: 'The questions were clear and fair.', topic: 'JavaScript', questionIndex: 1 },
      });
      expect(sent.status).toBe(201);
      // A row that only names the email (left by an earlier account deletion) is theirs too.
      await t.db.insert(events).values({ eventType: 'START', userEmail: email, topic: 'SQL' });
      const statsBefore = (await admin<{ emailCount: number }>('GET', '/api/interview-stats')).body;

      const data = await admin<{
        account: Account;
        events: Array<{ eventType: string; transcript: unknown }>;
        feedback: Array<{ feedback: string }>;
        sessions: unknown[];
      }>('GET', `/api/admin/users/${encodeURIComponent(email)}`);
      expect(data.status).toBe(200);
      expect(data.body.account).toMatchObject({ email, sessionsUsed: 1 });
      expect(data.body.events.map((e) => e.eventType)).toEqual(['START', 'RATE', 'START']);
      expect(data.body.events[1]?.transcript).toEqual(transcripts);
      expect(data.body.feedback.map((f) => f.feedback)).toEqual(['The questions were clear and fair.']);
      expect(data.body.sessions).toHaveLength(1);

      const erased = await admin('DELETE', `/api/admin/users/${encodeURIComponent(email)}`);
      expect(erased).toMatchObject({ status: 200, body: { email, removed: { accounts: 1, events: 3, feedback: 1, sessions: 1 } } });
      expect(await admin('GET', `/api/admin/users/${encodeURIComponent(email)}`)).toMatchObject({
        status: 404,
        body: { error: `Nothing is stored about ${email}.` },
      });
      expect(await admin('DELETE', `/api/admin/users/${encodeURIComponent(email)}`)).toMatchObject({ status: 404 });
      const statsAfter = (await admin<{ emailCount: number }>('GET', '/api/interview-stats')).body;
      expect(statsAfter.emailCount).toBe(statsBefore.emailCount - 1);
      const remaining = (await admin<Array<{ userEmail: string | null }>>('GET', '/api/events?limit=500')).body;
      expect(remaining.some((e) => e.userEmail === email)).toBe(false);
      const exported = await t.app.inject({ method: 'GET', url: '/api/admin/exports/ratings.csv', headers: { 'x-admin-secret': secret } });
      expect(exported.body).not.toContain(email);
    });
  });

  // Last: it archives fixture set 1, which the tests above use.
  describe('archiving', () => {
    it('archives a set that interviews refer to: hidden, history keeps its topic, index freed', async () => {
      const catalogue = async () => (await call<Array<{ id: number }>>(t.app, 'GET', '/api/question-sets')).body;
      await login(t.app, 'archive@example.com');
      await interview('archive@example.com', 1);
      const setId = ids.get(1);
      expect(await admin('DELETE', `/api/admin/question-sets/${setId}`)).toMatchObject({ status: 200, body: { outcome: 'archived' } });
      expect((await catalogue()).some((s) => s.id === setId)).toBe(false);
      const listed = (await admin<Array<{ id: number; archivedAt: string | null; ratings: number }>>('GET', '/api/admin/question-sets'))
        .body;
      expect(listed[listed.length - 1]).toMatchObject({ id: setId, archivedAt: expect.any(String) });
      expect(listed[listed.length - 1]?.ratings).toBeGreaterThan(0);
      expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email: 'archive@example.com' })).status).toBe(404);
      const history = await call<{ ratings: Array<{ topic: string }> }>(t.app, 'GET', '/user/ratings?page=1', {
        email: 'archive@example.com',
      });
      expect(history.body.ratings.map((i) => i.topic)).toEqual(['JavaScript']);
      expect((await admin('POST', '/api/admin/question-sets', validSet({ index: 1 }))).status).toBe(201);
      expect(await admin('PUT', `/api/admin/question-sets/${setId}`, validSet({ index: 7 }))).toMatchObject({
        status: 409,
        body: { error: 'This question set is archived and can no longer be edited.' },
      });
    });
  });
});
