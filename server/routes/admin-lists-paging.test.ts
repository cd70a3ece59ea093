/**
 * Storage per person over HTTP on both databases: the admin feedback and emails lists answer a
 * page at a time (the events list's pattern), and an account's stored interviews and feedback are
 * held to its quota.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { and, eq, sql } from 'drizzle-orm';
import { accounts, events, feedback } from '../db/schema';
import { storedBytes } from '../services/account-storage';

describeDatabases('paged admin lists and the storage quota', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: { accountStorageBytes: 4000 } });
  }, 300_000);
  afterAll(() => t.close());
  const admin = <T>(url: string) => call<T>(t.app, 'GET', url, { admin: t.config.adminSecret });

  describe('paging', () => {
    beforeAll(async () => {
      await t.db
        .insert(feedback)
        .values(
          Array.from({ length: 105 }, (_, i) => ({ userEmail: `p${i}@example.com`, topic: 'SQL', questionIndex: 1, feedback: `row ${i}` })),
        );
      await t.db
        .insert(accounts)
        .values(Array.from({ length: 105 }, (_, i) => ({ email: `acct${String(i).padStart(3, '0')}@example.com` })));
    });

    it('answers feedback newest first, 100 by default, older pages by the before cursor', async () => {
      const first = await admin<Array<{ id: number; feedback: string }>>('/api/feedback');
      expect(first.status).toBe(200);
      expect(first.body).toHaveLength(100);
      expect(first.body[0]?.feedback).toBe('row 104');
      const small = await admin<Array<{ id: number; feedback: string }>>('/api/feedback?limit=3');
      expect(small.body.map((f) => f.feedback)).toEqual(['row 104', 'row 103', 'row 102']);
      const next = await admin<Array<{ feedback: string }>>(`/api/feedback?limit=3&before=${small.body[2]?.id}`);
      expect(next.body.map((f) => f.feedback)).toEqual(['row 101', 'row 100', 'row 99']);
      expect(await admin('/api/feedback?limit=501')).toMatchObject({ status: 400 });
    });

    it('answers emails in order, 100 by default, later pages by the after cursor', async () => {
      const first = await admin<Array<{ email: string }>>('/api/emails');
      expect(first.body).toHaveLength(100);
      const small = await admin<Array<{ email: string }>>('/api/emails?limit=2');
      expect(small.body.map((a) => a.email)).toEqual(['acct000@example.com', 'acct001@example.com']);
      const next = await admin<Array<{ email: string }>>(`/api/emails?limit=2&after=${encodeURIComponent('acct001@example.com')}`);
      expect(next.body.map((a) => a.email)).toEqual(['acct002@example.com', 'acct003@example.com']);
    });

    it('counts what the lists hold in all', async () => {
      expect(await admin('/api/admin/counts')).toMatchObject({ status: 200, body: { feedback: 105, emails: 105 } });
    });
  });

  it('refuses a new interview and new feedback once the account stores its quota', async () => {
    const email = 'hoarder@example.com';
    await login(t.app, email);
    const questionSetId = (await setIds(t.app)).get(1);
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${questionSetId}`, { email })).status).toBe(200);
    // Random-looking words compress badly: several kilobytes as stored.
    const words = Array.from({ length: 900 }, (_, i) => `w${((i * 7919) % 10007).toString(36)}x${i}`).join(' ');
    const transcripts = [{ role: 'interviewee', transcript: words }];
    expect(
      (await call(t.app, 'POST', '/interview/rate-transcript', { email, body: { transcripts, durationSeconds: 60, questionSetId } }))
        .status,
    ).toBe(200);
    const full = 'This account has reached its storage limit (4 KB of interviews and feedback). Please contact us to make room for more.';
    expect(await call(t.app, 'GET', `/interview/token?questionSetId=${questionSetId}`, { email })).toMatchObject({
      status: 403,
      body: { error: full },
    });
    expect(
      await call(t.app, 'POST', '/user/feedback', {
        email,
        body: { feedback: 'One more piece of feedback.', topic: 'JavaScript', questionIndex: 1 },
      }),
    ).toMatchObject({
      status: 403,
      body: { error: full },
    });
    // Another account is not affected.
    await login(t.app, 'light@example.com');
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${questionSetId}`, { email: 'light@example.com' })).status).toBe(200);
  });
});

describeDatabases('the storage quota when ratings are stored (issue 33 item 8)', (database) => {
  const QUOTA = 1024 * 1024;
  const many = { perAddress: 1000, perAccount: 1000 };
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: {
        accountStorageBytes: QUOTA,
        freeSessionLimit: 20,
        callLimits: { rating: many, turn: many, abandon: many, feedback: many },
      },
    });
  }, 300_000);
  afterAll(() => t.close());

  it('stores at most one transcript past the quota from sessions minted while the account was empty; the rest 403 with a sentence', async () => {
    const email = 'ten-at-once@example.com';
    await login(t.app, email);
    const questionSetId = (await setIds(t.app)).get(1);
    // Ten sessions minted while the account is empty: the mint's check passes every one.
    const sessions: string[] = [];
    for (let i = 0; i < 10; i++) {
      const minted = await call<{ sessionId: string }>(t.app, 'GET', `/interview/token?questionSetId=${questionSetId}`, { email });
      expect(minted.status).toBe(200);
      sessions.push(minted.body.sessionId);
    }
    // 200,000 characters each that compress badly (several hundred KB as stored), rated all at once.
    const transcriptOf = (n: number) =>
      Array.from({ length: 20 }, (_, k) => ({
        role: 'interviewee' as const,
        transcript: Array.from({ length: 1100 }, (_, i) => `w${((i * 7919 + k * 104_729 + n * 1_299_709) % 1_000_003).toString(36)}`)
          .join(' ')
          .slice(0, 10_000),
      }));
    const answers = await Promise.all(
      sessions.map((sessionId, n) =>
        call<{ error?: string }>(t.app, 'POST', '/interview/rate-transcript', {
          email,
          body: { sessionId, transcripts: transcriptOf(n), durationSeconds: 600, questionSetId },
        }),
      ),
    );
    const stored = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 403);
    expect(stored.length + refused.length).toBe(10);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(answer.body.error).toMatch(
        /^This account has reached its storage limit \(1 MB of interviews and feedback\), so this interview was not stored or rated\. Your session credit (was returned|was not returned: at most 3 a day are given back)\. Please contact us to make room for more\.$/,
      );
    }
    const [account] = await t.db.select().from(accounts).where(eq(accounts.email, email));
    const rows = await t.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.accountId, account!.id), eq(events.eventType, 'RATE')));
    expect(rows).toHaveLength(stored.length);
    // Below the quota before the last one stored, so at most one transcript and its rating past it.
    const sizes = (await t.db.execute(
      sql`select coalesce(pg_column_size(transcript), 0) + coalesce(pg_column_size(rating_markdown), 0) + coalesce(pg_column_size(rating_breakdown), 0) as bytes from events where account_id = ${account!.id} and event_type = 'RATE'`,
    )) as unknown as { rows: Array<{ bytes: number | string }> };
    const largest = Math.max(...sizes.rows.map((r) => Number(r.bytes)));
    expect(largest).toBeGreaterThan(100_000);
    expect(await storedBytes(t.db, account!.id)).toBeLessThanOrEqual(QUOTA + largest);
    // Three credits a day come back; the other refused sessions keep theirs, as their sentence said.
    const returned = refused.filter((a) => a.body.error?.includes('was returned')).length;
    expect(returned).toBe(Math.min(3, refused.length));
  }, 300_000);
});
