import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, describeDatabases, type TestApp } from '../../../test-support/test-app';
import { call, FIXTURE_SETS, login } from '../../../test-support/fixtures';

const text = (n: number) => `Feedback number ${n}: the follow-up questions were useful.`;

describeDatabases('the cached admin feedback list', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS });
  }, 300_000);
  afterAll(() => t.close());

  const list = async () => {
    const answer = await call<Array<{ id: number; feedback: string }>>(t.app, 'GET', '/api/feedback', { admin: t.config.adminSecret });
    expect(answer.status).toBe(200);
    return answer.body.map((f) => f.feedback);
  };
  const give = (n: number) =>
    call<{ id: number }>(t.app, 'POST', '/user/feedback', {
      email: 'cache@example.com',
      body: { feedback: text(n), topic: 'JavaScript', questionIndex: 1 },
    });

  it('follows every insert and delete, including a delete followed by an insert', async () => {
    await login(t.app, 'cache@example.com');
    expect(await list()).toEqual([]);
    const one = await give(1);
    const two = await give(2);
    expect(await list()).toEqual([text(2), text(1)]);
    expect(await list()).toEqual([text(2), text(1)]);

    await call(t.app, 'DELETE', `/api/feedback/${one.body.id}`, { admin: t.config.adminSecret });
    expect(await list()).toEqual([text(2)]);
    // Same row count as before the delete, different content.
    await give(3);
    expect(await list()).toEqual([text(3), text(2)]);

    // A write by another process (here: straight SQL) is seen too.
    await t.db.execute(sql`delete from feedback where id = ${two.body.id}`);
    expect(await list()).toEqual([text(3)]);
  });

  it('follows a question set moved to another place: its feedback is renumbered with it', async () => {
    const page = async (query = '') =>
      (
        await call<Array<{ id: number; topic: string; questionIndex: number }>>(t.app, 'GET', `/api/feedback${query}`, {
          admin: t.config.adminSecret,
        })
      ).body.map((f) => `${f.topic} ${f.questionIndex}`);
    await call(t.app, 'POST', '/user/feedback', {
      email: 'cache@example.com',
      body: { feedback: text(4), topic: 'Behavioural', questionIndex: 3 },
    });
    expect(await page()).toEqual(['Behavioural 3', 'JavaScript 1']);
    const older = (await page('?limit=1&before=999999'))[0];
    expect(older).toBe('Behavioural 3');
    const sets = await call<Array<{ id: number; name: string }>>(t.app, 'GET', '/api/admin/question-sets', { admin: t.config.adminSecret });
    const behavioural = sets.body.find((s) => s.name === 'Behavioural')?.id;
    const moved = await call(t.app, 'PUT', `/api/admin/question-sets/${behavioural}/position`, {
      admin: t.config.adminSecret,
      body: { index: 1 },
    });
    expect(moved.status).toBe(200);
    // Same count and newest id as before the move: the first page and a later one both follow it.
    expect(await page()).toEqual(['Behavioural 1', 'JavaScript 2']);
    expect(await page('?limit=1&before=999999')).toEqual(['Behavioural 1']);
  });

  it('answers JSON with the charset, like every other call', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/feedback', headers: { 'x-admin-secret': t.config.adminSecret } });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(response.body)).toHaveLength(2);
  });
});
