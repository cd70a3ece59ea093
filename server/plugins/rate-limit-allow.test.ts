/** The client-address settings of the rate limits: RATE_LIMIT_ALLOW, LOGIN_RATE_LIMIT, TRUST_PROXY. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { createTestApp, type TestApp } from '../../test-support/test-app';

let next = 0;
async function logins(t: TestApp, remoteAddress: string, count: number, forwardedFor?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    next += 1;
    const headers = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
    const response = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      remoteAddress,
      headers,
      payload: { email: `allow-${next}@example.com` },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('RATE_LIMIT_ALLOW and LOGIN_RATE_LIMIT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      database: 'pglite',
      questionSets: FIXTURE_SETS,
      config: { rateLimitAllowList: ['10.0.0.7'], loginRateLimit: 3 },
    });
  }, 300_000);
  afterAll(() => t.close());

  it('exempts a listed address from the login limit', async () => {
    expect(await logins(t, '10.0.0.7', 8)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
  });

  it('limits every other address to LOGIN_RATE_LIMIT a minute', async () => {
    expect(await logins(t, '10.0.0.8', 4)).toEqual([200, 200, 200, 429]);
  });

  it('ignores X-Forwarded-For when no proxy is trusted (a client cannot pick its own address)', async () => {
    expect(await logins(t, '10.0.0.9', 2, '198.51.100.1')).toEqual([200, 200]);
    expect(await logins(t, '10.0.0.9', 2, '198.51.100.2')).toEqual([200, 429]);
  });
});

describe('TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS, config: { trustProxy: ['10.1.0.0/16'], loginRateLimit: 2 } });
  }, 300_000);
  afterAll(() => t.close());

  it('limits each client behind a trusted proxy by its forwarded address', async () => {
    expect(await logins(t, '10.1.2.3', 3, '198.51.100.1')).toEqual([200, 200, 429]);
    // Another client through the same proxy has its own allowance.
    expect(await logins(t, '10.1.2.3', 2, '198.51.100.2')).toEqual([200, 200]);
  });

  it('does not believe the header from an address outside the trusted range', async () => {
    expect(await logins(t, '192.0.2.9', 2, '198.51.100.3')).toEqual([200, 200]);
    expect(await logins(t, '192.0.2.9', 1, '198.51.100.4')).toEqual([429]);
  });
});
