/**
 * The request log at LOG_LEVEL=info over HTTP: no email address in a logged URL or message, and
 * an error logged as a plain string is one message, not one field per character.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, FIXTURE_SETS, login } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { redactUrl } from './log-redaction';

describeDatabases('request log redaction', (database) => {
  let t: TestApp;
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, deps: { logger: { level: 'info', stream } } });
  }, 300_000);
  afterAll(() => t.close());

  it('masks email addresses in logged request URLs and messages', async () => {
    await login(t.app, 'erased.person@example.com');
    lines.length = 0;
    const admin = t.config.adminSecret;
    expect((await call(t.app, 'GET', '/api/admin/users/erased.person%40example.com', { admin })).status).toBe(200);
    expect((await call(t.app, 'DELETE', '/api/admin/users/erased.person%40example.com', { admin })).status).toBe(200);
    expect((await call(t.app, 'PATCH', '/api/emails/Erased.Person@Example.com', { admin, body: { sessionLimit: 2 } })).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/nothing-here?email=erased.person%2540example.com', { admin })).status).toBe(404);
    const log = lines.join('');
    expect(log).toContain('"url":"/api/admin/users/[email]"');
    expect(log).toContain('"url":"/api/emails/[email]"');
    expect(log).not.toMatch(/erased\.person/i);
    expect(log).not.toMatch(/example\.com/i);
  });

  it('logs an error given as a string as its message', () => {
    lines.length = 0;
    t.app.log.warn({ err: 'The upstream refused the call for someone@example.com' }, 'speech-to-text failed');
    t.app.log.warn({ err: { message: 'An object error' } }, 'object error');
    const [stringLine, objectLine] = lines.map((line) => JSON.parse(line) as { err: unknown; msg: string });
    expect(stringLine?.err).toEqual({ type: 'Error', message: 'The upstream refused the call for [email]' });
    expect(objectLine?.err).toEqual({ type: 'Error', message: 'An object error' });
    expect(lines.join('')).not.toContain('"0":');
  });
});

it('redactUrl masks plain, encoded and twice-encoded addresses and keeps the rest', () => {
  expect(redactUrl('/api/emails/a.b%40c.co?x=1')).toBe('/api/emails/[email]?x=1');
  expect(redactUrl('/api/admin/users/a@b.co')).toBe('/api/admin/users/[email]');
  expect(redactUrl('/x?email=a%2540b.co&y=2')).toBe('/x?email=[email]&y=2');
  expect(redactUrl('/api/events?limit=50')).toBe('/api/events?limit=50');
});
