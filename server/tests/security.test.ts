/**
 * Security: response headers (CSP allowing only the app, the configured realtime origin and the
 * dog-image origin; no framing; no sniffing), the CORS allow-list, the rate limits on login, token
 * minting and the admin secret, and the admin secret never reaching the logs (in-process log
 * stream at trace level, and the real server process's output).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../test-support/server-process';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, TEST_ADMIN_SECRET, type TestApp } from '../../test-support/test-app';
import { ADMIN_MAX_FAILURES, ADMIN_THROTTLED } from '../services/admin';

const REALTIME = 'https://realtime.example.net';
const DOGS = 'https://dogs.example.org';
const APP_ORIGIN = 'https://app.example.com';

function directives(csp: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers and CORS', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'sec-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>SPA</title><div id="root"></div>');
    t = await createTestApp({
      database: 'pglite',
      questionSets: FIXTURE_SETS,
      config: { openaiBaseUrl: `${REALTIME}/v1`, dogImageApi: `${DOGS}/api/random`, corsOrigins: [APP_ORIGIN, 'http://localhost:5173'] },
      deps: { webDist },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('sends a CSP that allows only the app, the realtime origin and the dog-image origin, on pages, API answers and errors', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } }),
      await t.app.inject({ method: 'GET', url: '/admin/events', headers: { accept: 'text/html' } }),
      await t.app.inject({ method: 'GET', url: '/api/question-sets' }),
      await t.app.inject({ method: 'POST', url: '/user/login', payload: { email: 'nope' } }),
      await t.app.inject({ method: 'GET', url: '/api/nothing' }),
    ];
    for (const answer of answers) {
      const csp = directives(String(answer.headers['content-security-policy']));
      console.log(`security: ${answer.statusCode} ${answer.headers['content-type']} CSP connect-src ${csp.get('connect-src')?.join(' ')}`);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'", REALTIME, DOGS]);
      expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', DOGS, 'https://*.dogs.example.org']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      // Nothing else may be reachable: no wildcard source anywhere except the dog subdomains.
      for (const [name, values] of csp) {
        for (const value of values) {
          expect(`${name} ${value}`).not.toMatch(/ (\*|https?:|'unsafe-eval')$/);
        }
      }
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('leaves the dog origin out when the dog service is off', async () => {
    const off = await createTestApp({
      database: 'pglite',
      questionSets: FIXTURE_SETS,
      config: { dogImageApi: null, openaiBaseUrl: `${REALTIME}/v1` },
    });
    try {
      const csp = directives(String((await off.app.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy']));
      expect(csp.get('connect-src')).toEqual(["'self'", REALTIME]);
      expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    } finally {
      await off.close();
    }
  });

  it('echoes only allow-listed origins (preflight and actual requests)', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/emails',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-admin-secret' },
      });
    for (const origin of [APP_ORIGIN, 'http://localhost:5173']) {
      const answer = await preflight(origin);
      expect(answer.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(String(answer.headers['access-control-allow-headers']).split(/,\s*/)).toEqual([
        'content-type',
        'x-user-email',
        'x-admin-secret',
        'x-session-token',
      ]);
      expect(String(answer.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      const actual = await t.app.inject({ method: 'GET', url: '/api/question-sets', headers: { origin } });
      expect(actual.headers['access-control-allow-origin']).toBe(origin);
      expect(String(actual.headers.vary)).toMatch(/origin/i);
    }
    for (const origin of [
      'https://evil.example.com',
      'https://app.example.com.evil.net',
      'http://app.example.com',
      'null',
      'https://APP.example.com:444',
    ]) {
      const answer = await preflight(origin);
      expect(answer.headers['access-control-allow-origin'], origin).toBeUndefined();
      const actual = await t.app.inject({ method: 'GET', url: '/api/question-sets', headers: { origin } });
      expect(actual.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(actual.headers['access-control-allow-credentials']).toBeUndefined();
    }
    console.log('security: CORS echoes the 2 allowed origins and none of 5 look-alikes');
  });

  it('allows no cross-origin caller at all when no origin is configured', async () => {
    const closed = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS });
    try {
      const answer = await closed.app.inject({ method: 'GET', url: '/api/question-sets', headers: { origin: APP_ORIGIN } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await closed.close();
    }
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS, config: { freeSessionLimit: 0 } });
  });
  afterAll(() => t.close());

  it('limits login to 30 a minute per address (the LOGIN_RATE_LIMIT default)', async () => {
    const max = t.config.loginRateLimit;
    expect(max).toBe(30);
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++) {
      const answer = await call(t.app, 'POST', '/user/login', { body: { email: `login-${i}@example.com` }, remoteAddress: '10.9.0.1' });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, max).every((s) => s === 200)).toBe(true);
    const limited = await call(t.app, 'POST', '/user/login', { body: { email: 'late@example.com' }, remoteAddress: '10.9.0.1' });
    expect(limited, JSON.stringify(limited.body)).toMatchObject({
      status: 429,
      body: { error: expect.stringMatching(/^Too many requests\. Please wait .+ and try again\.$/) },
    });
    expect(Object.keys(limited.body as object)).toEqual(['error']);
    // The refused login did not create the account.
    expect(
      (
        await call(t.app, 'POST', '/api/emails', {
          admin: TEST_ADMIN_SECRET,
          body: { email: 'late@example.com', isPro: false, limit: null },
        })
      ).status,
    ).toBe(404);
    expect((await call(t.app, 'POST', '/user/login', { body: { email: 'other@example.com' }, remoteAddress: '10.9.0.2' })).status).toBe(
      200,
    );
    console.log(`security: login from one address: ${max} x 200, then 429; another address still 200`);
  });

  it('limits token minting to 60 a minute per address (the TOKEN_RATE_LIMIT default)', async () => {
    const max = t.config.tokenRateLimit;
    expect(max).toBe(60);
    const email = 'minter@example.com';
    await login(t.app, email);
    const setId = (await setIds(t.app)).get(1);
    const statuses = new Map<number, number>();
    for (let i = 0; i < max; i++) {
      const answer = await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email, remoteAddress: '10.9.1.1' });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    // Credits are at 0 (freeSessionLimit 0): every attempt is refused with 402 but still counts.
    expect([...statuses]).toEqual([[402, max]]);
    const limited = await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email, remoteAddress: '10.9.1.1' });
    expect(limited).toMatchObject({ status: 429, body: { error: expect.stringMatching(/^Too many requests\./) } });
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email, remoteAddress: '10.9.1.2' })).status).toBe(402);
    console.log(`security: token minting from one address: ${max} answered, then 429`);
  });

  it(`throttles wrong admin secrets after ${ADMIN_MAX_FAILURES} from one address, never the right secret`, async () => {
    for (let i = 0; i < ADMIN_MAX_FAILURES; i++) {
      const answer = await call(t.app, 'GET', '/api/events', { admin: `guess-${i}`, remoteAddress: '10.9.2.1' });
      expect(answer).toEqual(expect.objectContaining({ status: 401, body: { error: 'The admin secret is wrong.' } }));
    }
    for (const url of ['/api/events', '/api/emails', '/api/feedback', '/api/interview-stats']) {
      const guess = await call(t.app, 'GET', url, { admin: 'guess-again', remoteAddress: '10.9.2.1' });
      expect(guess, url).toEqual(expect.objectContaining({ status: 429, body: { error: ADMIN_THROTTLED } }));
    }
    // The right secret gets in all the same (and the address's failures are forgotten).
    expect((await call(t.app, 'GET', '/api/emails', { admin: TEST_ADMIN_SECRET, remoteAddress: '10.9.2.1' })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/events', { admin: 'guess-again', remoteAddress: '10.9.2.1' })).status).toBe(401);
    console.log(
      `security: admin secret: ${ADMIN_MAX_FAILURES} wrong attempts then 429 for that address's guesses, the right secret still 200`,
    );
  });
});

describe('the admin secret never reaches the logs', () => {
  const WRONG = 'wrong-secret-that-looks-real-42';

  it('in-process, with the most verbose log level', async () => {
    let logged = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const webDist = mkdtempSync(path.join(tmpdir(), 'sec-log-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>SPA</title>');
    const t = await createTestApp({
      database: 'pglite',
      questionSets: FIXTURE_SETS,
      deps: { webDist, logger: { level: 'trace', stream } },
    });
    try {
      for (const secret of [TEST_ADMIN_SECRET, WRONG]) {
        for (const url of ['/api/events', '/api/emails', '/api/interview-stats', '/api/feedback', '/api/events?limit=abc']) {
          await call(t.app, 'GET', url, { admin: secret });
        }
        await call(t.app, 'POST', '/api/emails', { admin: secret, body: { email: 'x@example.com', isPro: 'yes' } });
        await call(t.app, 'DELETE', '/api/emails/nobody%40example.com', { admin: secret });
        // The admin pages take the secret as a route parameter; the browser asks this server for them.
        for (const url of ['dashboard', 'events', 'emails', 'feedback']
          .map((page) => `/admin/${page}/${secret}`)
          .concat(`/admin/${secret}`)) {
          const answer = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
          expect(answer.statusCode).toBe(200);
        }
      }
    } finally {
      await t.close();
      rmSync(webDist, { recursive: true, force: true });
    }
    expect(logged).toContain('/admin/events/[redacted]');
    expect(logged).toContain('"url":"/admin/[redacted]"');
    expect(logged).toContain('incoming request');
    expect(logged).not.toContain(TEST_ADMIN_SECRET);
    expect(logged).not.toContain(WRONG);
    console.log(`security: ${logged.split('\n').length} trace log lines, none with the right or a wrong admin secret`);
  });

  it('in the real server process output', async () => {
    const server = await startServer();
    try {
      for (const secret of [server.adminSecret, WRONG]) {
        await call(server, 'GET', '/api/events', { headers: { 'x-admin-secret': secret } });
        await call(server, 'POST', '/api/emails', { headers: { 'x-admin-secret': secret }, body: { email: 'y@example.com', limit: null } });
        const page = await fetch(`${server.url}/admin/emails/${encodeURIComponent(secret)}`, { headers: { accept: 'text/html' } });
        expect(page.status).toBe(200);
      }
      const output = server.output();
      expect(output).toContain('incoming request');
      expect(output).not.toContain(server.adminSecret);
      expect(output).not.toContain(WRONG);
      console.log('security: the real server logged every request and neither secret');
    } finally {
      await server.stop();
    }
  }, 90_000);
});
