/**
 * Look-alike emails and the email's length bound, over HTTP on both databases (issue 33 items 7
 * and 10; docs/product-rules.md, Login and identity).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { call, FIXTURE_SETS } from '../../test-support/fixtures';

const login = (t: TestApp, email: string) =>
  call<{ isNewUser?: boolean; error?: string }>(t.app, 'POST', '/user/login', { body: { email } });

describeDatabases('look-alike emails', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS });
  }, 300_000);
  afterAll(() => t.close());

  it('a trailing dot after the domain and a combining accent name the existing account', async () => {
    expect((await login(t, 'victim@example.com')).body.isNewUser).toBe(true);
    expect(await login(t, 'Victim@Example.com.')).toMatchObject({ status: 200, body: { isNewUser: false } });
    expect((await login(t, 'jos\u00e9@example.com')).body.isNewUser).toBe(true);
    expect(await login(t, 'jose\u0301@example.com')).toMatchObject({ status: 200, body: { isNewUser: false } });
  });

  it('refuses invisible and text-direction characters with a sentence', async () => {
    for (const email of ['vic\u200btim@example.com', '\u202emoc.elpmaxe@mitciv', 'victim\u2066@example.com', 'vic\u00adtim@example.com']) {
      expect(await login(t, email), JSON.stringify(email)).toMatchObject({
        status: 400,
        body: { error: 'email: Email must not contain invisible or text-direction characters.' },
      });
    }
  });

  it('flags a mixed-script address to the operator in Manage Emails', async () => {
    expect((await login(t, 'v\u0456ctim@example.com')).body.isNewUser).toBe(true);
    const list = await call<Array<{ email: string; mixedScript: boolean }>>(t.app, 'GET', '/api/emails', { admin: t.config.adminSecret });
    const flags = Object.fromEntries(list.body.map((row) => [row.email, row.mixedScript]));
    expect(flags).toMatchObject({ 'victim@example.com': false, 'v\u0456ctim@example.com': true, 'jos\u00e9@example.com': false });
  });

  it('refuses a 255-character email at login and in the x-user-email header', async () => {
    const email = `${'a'.repeat(243)}@example.com`;
    expect(email).toHaveLength(255);
    expect(await login(t, email)).toMatchObject({ status: 400, body: { error: 'email: Email must be at most 254 characters.' } });
    expect(await call(t.app, 'GET', '/user/progress', { email })).toMatchObject({
      status: 400,
      body: { error: 'x-user-email: Email must be at most 254 characters.' },
    });
    expect((await login(t, email.slice(1))).status).toBe(200);
  });
});
