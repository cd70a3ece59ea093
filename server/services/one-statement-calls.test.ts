/**
 * Login and the history page each run as one hand-written statement (one round trip). Their
 * answers must equal what the ORM queries they replaced give on the same rows, on both databases:
 * microsecond timestamps, ratings whose set is gone, unrated and START events, feedback topics,
 * every page including past the end.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import type { AppContext } from '../app-context';
import { accounts, events, feedback, questionSets } from '../db/schema';
import { findAccount, login, userState } from './accounts';
import { listRatings } from './ratings';
import { creditsOf } from './credits';

const EMAIL = 'one-trip@example.com';

describeDatabases('login and the history page in one statement', (database) => {
  let t: TestApp;
  let ctx: AppContext;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS });
    // login and listRatings read only the config and the database.
    ctx = { config: t.config, db: t.db } as AppContext;
    const [account] = await t.db
      .insert(accounts)
      .values({ email: EMAIL, lastLoginAt: sql`now() - interval '1 day'` })
      .returning();
    const sets = await t.db.select().from(questionSets);
    const rated = (i: number, over: Partial<typeof events.$inferInsert> = {}) => ({
      eventType: 'RATE',
      accountId: account?.id,
      userEmail: EMAIL,
      questionSetId: sets[i % sets.length]?.id,
      topic: sets[i % sets.length]?.name,
      questionSetIndex: (sets[i % sets.length]?.index ?? 1) - 1,
      // Microseconds: the answers must cut them the same way.
      eventTimestamp: sql`timestamptz '2026-01-02 03:04:05.678901+00' + ${i} * interval '1 hour 0.000317 seconds'`,
      durationSeconds: 300 + i,
      ratingStatus: 'rated' as const,
      ratingMarkdown: `## Rating ${i}`,
      score: (i * 37) % 101,
      ...over,
    });
    await t.db
      .insert(events)
      .values([
        ...Array.from({ length: 11 }, (_, i) => rated(i)),
        rated(11, { ratingStatus: 'pending', score: null, ratingMarkdown: null }),
        rated(12, { eventType: 'START', ratingStatus: null }),
        rated(13, { questionSetId: null }),
        rated(14, { topic: null }),
      ]);
    await t.db.insert(feedback).values([
      {
        accountId: account?.id,
        userEmail: EMAIL,
        topic: sets[0]?.name ?? '',
        questionIndex: 1,
        feedback: 'Useful questions, more follow-ups please.',
      },
      {
        accountId: account?.id,
        userEmail: EMAIL,
        topic: sets[0]?.name ?? '',
        questionIndex: 2,
        feedback: 'Again on the same topic, still useful.',
      },
    ]);
  }, 300_000);
  afterAll(() => t.close());

  it('answers login as the account, rated-events and feedback queries do', async () => {
    const account = await findAccount(t.db, EMAIL);
    if (!account) throw new Error('seeded account missing');
    const expected = {
      ...(await userState(t.db, account, t.config.levelPassScore)),
      isNewUser: false,
      credits: creditsOf(t.config, account),
    };
    expect(expected.progress.length).toBeGreaterThan(10);
    expect(await login(ctx, EMAIL)).toEqual(expected);
  });

  it('answers every history page as the count and page queries do', async () => {
    const account = await findAccount(t.db, EMAIL);
    const where = and(eq(events.accountId, account?.id ?? -1), eq(events.eventType, 'RATE'), eq(events.ratingStatus, 'rated'));
    const [total] = await t.db.select({ n: count() }).from(events).where(where);
    for (const page of [1, 2, 3, 4, 7]) {
      const rows = await t.db
        .select()
        .from(events)
        .where(where)
        .orderBy(desc(events.id))
        .limit(4)
        .offset((page - 1) * 4);
      const answer = await listRatings(ctx, EMAIL, page, 4);
      expect(answer.ratings).toEqual(
        rows.map((r) => ({
          id: r.id,
          topic: r.topic,
          questionSetIndex: r.questionSetIndex,
          score: r.score,
          eventTimestamp: r.eventTimestamp.toISOString(),
          durationSeconds: r.durationSeconds,
          ratingMarkdown: r.ratingMarkdown,
          breakdown: r.ratingBreakdown,
        })),
      );
      expect(answer.pagination.totalCount).toBe(total?.n);
    }
  });

  it('refuses an unknown email on the history page', async () => {
    await expect(listRatings(ctx, 'nobody@example.com', 1, 9)).rejects.toMatchObject({
      statusCode: 401,
      message: 'We do not know this email yet. Please log in first.',
    });
  });
});
