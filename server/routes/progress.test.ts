/**
 * The candidate's progress and transcripts over HTTP on PGlite and PostgreSQL (docs/product-rules.md,
 * Results and history): GET /user/progress builds the charts, the most-missed key points and
 * "practise next" from the stored breakdowns; GET /user/ratings/{id}/transcript gives back both sides.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ProgressResponse, QuestionBreakdown, RatingTranscript } from '../../contract';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { accounts, events, questionSets } from '../db/schema';
import { UNKNOWN_RATING } from '../services/progress';

const item = (question: string, score: number, covered: string[], missed: string[]): QuestionBreakdown => ({
  question,
  verdict: score >= 80 ? 'Answered well' : score > 0 ? 'Partly answered' : 'Not answered',
  score,
  covered,
  missed,
  evidence: covered.map(() => 'my words'),
});

describeDatabases('progress and transcripts', (database) => {
  let t: TestApp;
  let sets = new Map<number, number>();
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS });
    sets = await setIds(t.app);
  }, 300_000);
  afterAll(() => t.close());

  const seed = async (
    email: string,
    ratings: Array<{ index: number; score: number; breakdown: QuestionBreakdown[] | null; at: string; status?: 'rated' | 'pending' }>,
  ) => {
    await login(t.app, email);
    const [account] = await t.db.select().from(accounts).where(eq(accounts.email, email));
    const ids: number[] = [];
    for (const r of ratings) {
      const set = FIXTURE_SETS.find((s) => s.index === r.index);
      const [row] = await t.db
        .insert(events)
        .values({
          eventType: 'RATE',
          accountId: account?.id,
          userEmail: email,
          questionSetId: sets.get(r.index),
          topic: set?.name,
          questionSetIndex: r.index - 1,
          eventTimestamp: new Date(r.at),
          durationSeconds: 60,
          transcript: [
            { role: 'interviewer', transcript: set?.questions[0] ?? '' },
            { role: 'interviewee', transcript: `Answer ${r.score}`, input: 'typed' },
          ],
          ratingStatus: r.status ?? 'rated',
          ratingMarkdown: '# Feedback',
          ratingBreakdown: r.breakdown,
          score: r.status === 'pending' ? null : r.score,
        })
        .returning({ id: events.id });
      ids.push(row?.id ?? -1);
    }
    return ids;
  };
  const progressOf = (email: string) => call<ProgressResponse>(t.app, 'GET', '/user/progress', { email });

  it('charts each topic over time, counts the missed key points with their question, and picks the lowest question to practise', async () => {
    const email = 'progress@example.com';
    const closure = 'What is a closure?';
    const loop = 'How does the event loop work?';
    const ids = await seed(email, [
      {
        index: 1,
        score: 40,
        at: '2026-01-01T10:00:00Z',
        breakdown: [
          item(closure, 50, ['keeps scope'], ['outlives the call']),
          item(loop, 30, [], ['microtasks first', 'one task at a time']),
        ],
      },
      { index: 3, score: 90, at: '2026-01-02T10:00:00Z', breakdown: [item('Tell me about a conflict.', 90, ['STAR'], [])] },
      {
        index: 1,
        score: 70,
        at: '2026-01-03T10:00:00Z',
        breakdown: [
          item(closure, 100, ['keeps scope', 'outlives the call'], []),
          item(loop, 40, ['one task at a time'], ['microtasks first']),
        ],
      },
      // Stored before breakdowns existed: on the chart, not in the key points.
      { index: 2, score: 55, at: '2026-01-04T10:00:00Z', breakdown: null },
      // Not rated yet: nowhere.
      { index: 1, score: 0, at: '2026-01-05T10:00:00Z', breakdown: null, status: 'pending' },
    ]);
    const answer = await progressOf(email);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      topics: [
        {
          topic: 'JavaScript',
          points: [
            { ratingId: ids[0], setIndex: 1, score: 40, at: '2026-01-01T10:00:00.000Z' },
            { ratingId: ids[2], setIndex: 1, score: 70, at: '2026-01-03T10:00:00.000Z' },
            { ratingId: ids[3], setIndex: 2, score: 55, at: '2026-01-04T10:00:00.000Z' },
          ],
        },
        { topic: 'Behavioural', points: [{ ratingId: ids[1], setIndex: 3, score: 90, at: '2026-01-02T10:00:00.000Z' }] },
      ],
      missedKeyPoints: [
        { topic: 'JavaScript', setIndex: 1, question: loop, keyPoint: 'microtasks first', missed: 2, asked: 2 },
        { topic: 'JavaScript', setIndex: 1, question: closure, keyPoint: 'outlives the call', missed: 1, asked: 2 },
        { topic: 'JavaScript', setIndex: 1, question: loop, keyPoint: 'one task at a time', missed: 1, asked: 2 },
      ],
      practiseNext: {
        questionSetId: sets.get(1),
        topic: 'JavaScript',
        setIndex: 1,
        question: loop,
        score: 40,
        missed: ['microtasks first'],
      },
    });
  });

  it('suggests nothing to practise on a set candidates can no longer choose, and nothing for a new candidate', async () => {
    await login(t.app, 'fresh@example.com');
    expect((await progressOf('fresh@example.com')).body).toEqual({ topics: [], missedKeyPoints: [], practiseNext: null });
    // A set of its own, archived after the interview.
    const [archived] = await t.db
      .insert(questionSets)
      .values({ name: 'Old Topic', index: 90, questions: ['Old question?'], modelAnswers: '', archivedAt: new Date() })
      .returning({ id: questionSets.id });
    const email = 'archived@example.com';
    await login(t.app, email);
    const [account] = await t.db.select().from(accounts).where(eq(accounts.email, email));
    await t.db.insert(events).values({
      eventType: 'RATE',
      accountId: account?.id,
      questionSetId: archived?.id,
      topic: 'Old Topic',
      questionSetIndex: 89,
      ratingStatus: 'rated',
      ratingBreakdown: [item('Old question?', 10, [], ['the point'])],
      score: 10,
    });
    const answer = await progressOf(email);
    expect(answer.body.practiseNext).toBeNull();
    expect(answer.body.missedKeyPoints).toEqual([
      { topic: 'Old Topic', setIndex: 90, question: 'Old question?', keyPoint: 'the point', missed: 1, asked: 1 },
    ]);
  });

  it('gives a rated interview’s whole transcript to its candidate only', async () => {
    const email = 'transcript@example.com';
    const [id] = await seed(email, [{ index: 1, score: 60, at: '2026-02-01T10:00:00Z', breakdown: [] }]);
    const mine = await call<RatingTranscript>(t.app, 'GET', `/user/ratings/${id}/transcript`, { email });
    expect(mine).toMatchObject({
      status: 200,
      body: {
        id,
        transcript: [
          { role: 'interviewer', transcript: 'What is a closure?' },
          { role: 'interviewee', transcript: 'Answer 60', input: 'typed' },
        ],
      },
    });
    await login(t.app, 'someone-else@example.com');
    expect(await call(t.app, 'GET', `/user/ratings/${id}/transcript`, { email: 'someone-else@example.com' })).toMatchObject({
      status: 404,
      body: { error: UNKNOWN_RATING },
    });
    expect(await call(t.app, 'GET', '/user/ratings/abc/transcript', { email })).toMatchObject({
      status: 400,
      body: { error: 'id: The id must be a number.' },
    });
    expect(await call(t.app, 'GET', '/user/progress', { email: 'nobody@example.com' })).toMatchObject({
      status: 401,
      body: { error: 'We do not know this email yet. Please log in first.' },
    });
  });
});
