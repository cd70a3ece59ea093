import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SETS, login } from '../test-support/fixtures';
import { createTestApp, type TestApp } from '../test-support/test-app';

const ROUTES: Array<['GET' | 'POST' | 'DELETE', string]> = [
  ['GET', '/api/question-sets'],
  ['POST', '/user/login'],
  ['POST', '/user/feedback'],
  ['GET', '/interview/token'],
  ['POST', '/interview/turn'],
  ['POST', '/interview/rate-transcript'],
  ['GET', '/user/ratings'],
  ['GET', '/api/events'],
  ['POST', '/api/emails'],
  ['DELETE', '/api/emails/x'],
  ['DELETE', '/api/feedback/x'],
];

describe('bad input never reaches a 500', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS });
    await login(t.app, 'fuzz@example.com');
  }, 300_000);
  afterAll(() => t.close());

  it('answers every random body, query and header with a 4xx {error} sentence or a success', async () => {
    const query = fc.dictionary(
      fc.constantFrom('page', 'limit', 'questionSetId', 'before'),
      fc.oneof(fc.string(), fc.integer().map(String)),
      { maxKeys: 3 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.oneof(fc.json(), fc.string(), fc.constant('{"email":"a@b.co","transcripts":[{"role":"interviewee","transcript":1}]}')),
        query,
        fc.constantFrom(undefined, 'fuzz@example.com', 'x', ''),
        fc.constantFrom(undefined, t.config.adminSecret),
        async ([method, url], body, params, email, admin) => {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (email !== undefined) headers['x-user-email'] = email;
          if (admin !== undefined) headers['x-admin-secret'] = admin;
          const search = new URLSearchParams(params).toString();
          const response = await t.app.inject({
            method,
            url: search ? `${url}?${search}` : url,
            headers,
            ...(method === 'GET' ? {} : { payload: body }),
          });
          expect(response.statusCode, `${method} ${url} ${body}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            const parsed = response.json() as { error?: unknown };
            expect(Object.keys(parsed)).toEqual(['error']);
            expect(typeof parsed.error).toBe('string');
            expect(String(parsed.error)).not.toMatch(/at .+\.(ts|js):\d+/);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 300_000);
});
