import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/test-app';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { LOGIN_RATE_LIMIT } from './security';

describe('RATE_LIMIT_ALLOW', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS, config: { rateLimitAllowList: ['10.0.0.7'] } });
  }, 300_000);
  afterAll(() => t.close());

  const logins = async (remoteAddress: string, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const response = await t.app.inject({ method: 'POST', url: '/user/login', remoteAddress, payload: { email: `allow-${i}@example.com` } });
      statuses.push(response.statusCode);
    }
    return statuses;
  };

  it('exempts a listed address from the login limit', async () => {
    const statuses = await logins('10.0.0.7', LOGIN_RATE_LIMIT.max + 5);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('still limits every other address', async () => {
    const statuses = await logins('10.0.0.8', LOGIN_RATE_LIMIT.max + 1);
    expect(statuses.slice(0, LOGIN_RATE_LIMIT.max).every((s) => s === 200)).toBe(true);
    expect(statuses[LOGIN_RATE_LIMIT.max]).toBe(429);
  });
});
