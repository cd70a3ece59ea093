/**
 * Storage per person over HTTP on both databases: the admin feedback and emails lists answer a
 * page at a time (the events list's pattern), and an account's stored interviews and feedback are
 * held to its quota.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { accounts, feedback } from '../db/schema';

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
