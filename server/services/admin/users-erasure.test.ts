/**
 * Erasure over HTTP removes what the server can beyond the rows: the person's rate-limit windows
 * (their keys hold the email) and, on PGlite, the deleted rows' bytes in the table files.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, FIXTURE_SETS, login, setIds } from '../../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../../test-support/test-app';
import { memoryWindowCounter } from '../window-counter';

const PHRASE = 'zebra-quartz-phrase-only-this-person-said';

describeDatabases('erasure leaves nothing the server can remove', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS });
  }, 300_000);
  afterAll(() => t.close());

  const rows = async <T>(query: ReturnType<typeof sql>) => (await t.db.execute(query)) as unknown as { rows: T[] };

  it('deletes the rate-limit keys holding the email and, on PGlite, rewrites the table files', async () => {
    const email = 'forget.me@example.com';
    await login(t.app, email);
    const questionSetId = (await setIds(t.app)).get(1);
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${questionSetId}`, { email })).status).toBe(200);
    const transcripts = [{ role: 'interviewee', transcript: `A closure keeps its scope, ${PHRASE}.` }];
    expect(
      (await call(t.app, 'POST', '/interview/rate-transcript', { email, body: { transcripts, durationSeconds: 9, questionSetId } })).status,
    ).toBe(200);
    expect(
      (
        await call(t.app, 'POST', '/user/feedback', {
          email,
          body: { feedback: `Feedback with ${PHRASE} in it.`, topic: 'JavaScript', questionIndex: 1 },
        })
      ).status,
    ).toBe(201);
    const keys = async () =>
      (await rows<{ key: string }>(sql`select key from rate_limits where key like ${'%' + email}`)).rows.map((r) => r.key);
    if (database === 'postgres') expect((await keys()).sort()).toEqual([`account:feedback:${email}`, `account:rating:${email}`]);

    expect((await call(t.app, 'DELETE', `/api/admin/users/${encodeURIComponent(email)}`, { admin: t.config.adminSecret })).status).toBe(
      200,
    );
    expect(await keys()).toEqual([]);

    if (database === 'pglite') {
      // Whatever is still in shared buffers goes to the files first, as a later checkpoint would.
      await t.db.execute(sql`checkpoint`);
      const files = await rows<{ relname: string; holds: number }>(sql`
        select c.relname, position(convert_to(${PHRASE}, 'UTF8') in pg_read_binary_file(pg_relation_filepath(c.oid))) as holds
        from pg_class c
        where c.relname in ('events', 'feedback', 'interview_sessions', 'accounts')
           or c.oid in (select reltoastrelid from pg_class where relname in ('events', 'feedback', 'interview_sessions'))`);
      expect(files.rows.length).toBeGreaterThanOrEqual(4);
      expect(files.rows.filter((f) => Number(f.holds) > 0).map((f) => f.relname)).toEqual([]);
    }
  });
});

it("the in-memory counter forgets an erased person's windows too", async () => {
  const counter = memoryWindowCounter();
  await counter.hit('account:rating:gone@example.com', 60_000);
  await counter.hit('route:POST/user/login:203.0.113.7', 60_000);
  await counter.forget(':gone@example.com');
  expect(await counter.peek('account:rating:gone@example.com')).toBe(0);
  expect(await counter.peek('route:POST/user/login:203.0.113.7')).toBe(1);
});
