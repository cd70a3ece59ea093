import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXTURE_SETS } from '../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../test-support/test-app';

describeDatabases('system calls', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      config: {
        productName: 'Frontend',
        corsOrigins: ['https://app.example.com'],
        openaiBaseUrl: 'http://127.0.0.1:9/v1',
        supportChatUrl: 'https://chat.example.com/g',
        supportContacts: [
          { name: 'Ann', url: 'https://t.me/ann' },
          { name: 'Bob', url: 'https://t.me/bob' },
        ],
      },
    });
  }, 300_000);
  afterAll(() => t.close());

  it('GET /healthz', async () => {
    expect(await call(t.app, 'GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('GET /api/config gives the public settings', async () => {
    expect((await call(t.app, 'GET', '/api/config')).body).toEqual({
      productName: 'Frontend',
      supportChatUrl: 'https://chat.example.com/g',
      supportContacts: [
        { name: 'Ann', url: 'https://t.me/ann' },
        { name: 'Bob', url: 'https://t.me/bob' },
      ],
      voiceMode: 'browser-speech',
      dogImageApi: 'https://dog.ceo/api/breeds/image/random',
      signin: 'email',
      turnPauses: { pieceMs: 200, finishedMs: 450, unsureMs: 1200, unfinishedMs: 2500, heldMs: 1500 },
    });
  });

  it('GET /docs serves the OpenAPI description generated from the contract', async () => {
    const ui = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    const spec = await call<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(t.app, 'GET', '/docs/json');
    expect(spec.body.openapi).toMatch(/^3\./);
    for (const p of [
      '/api/question-sets',
      '/user/login',
      '/user/feedback',
      '/interview/token',
      '/interview/turn',
      '/interview/rate-transcript',
      '/user/ratings',
      '/api/events',
      '/api/interview-stats',
      '/api/emails',
      '/api/emails/{email}',
      '/api/feedback',
      '/api/feedback/{id}',
    ]) {
      expect(Object.keys(spec.body.paths), p).toContain(p);
    }
    expect(JSON.stringify(spec.body.paths['/user/login'])).toContain('isNewUser');
    // The provider failures the voice calls can answer are part of the description.
    const responses = (path: string, method: string) =>
      Object.keys((spec.body.paths[path]?.[method] as { responses: Record<string, unknown> }).responses).sort();
    expect(responses('/interview/token', 'get')).toEqual(['200', '400', '401', '402', '403', '404', '502', '503', '504']);
    expect(responses('/interview/turn', 'post')).toEqual(['200', '400', '401', '403', '404', '409', '429', '502', '503', '504']);
  });

  it('sets the security headers (CSP with the OpenAI and dog origins, no framing, nosniff)', async () => {
    const { headers } = await call(t.app, 'GET', '/healthz');
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/connect-src 'self' http:\/\/127\.0\.0\.1:9 https:\/\/dog\.ceo/);
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('allows CORS only for the configured origins', async () => {
    const allowed = await t.app.inject({
      method: 'OPTIONS',
      url: '/user/login',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-user-email',
      },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('x-user-email');
    const other = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://evil.example.com' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers unknown API routes with a JSON 404 and no page at all without a built web app', async () => {
    expect(await call(t.app, 'GET', '/api/nothing')).toMatchObject({ status: 404, body: { error: 'There is no GET /api/nothing here.' } });
    expect(await call(t.app, 'POST', '/user/nothing', { body: {} })).toMatchObject({
      status: 404,
      body: { error: 'There is no POST /user/nothing here.' },
    });
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<h1>Frontend Feedback</h1>');
  });

  it('accepts a JSON content type without a body (GET, DELETE) and explains a missing body', async () => {
    await call(t.app, 'POST', '/user/login', { body: { email: 'ct@example.com' } });
    const get = await t.app.inject({
      method: 'GET',
      url: '/user/ratings?page=1&limit=9',
      headers: { 'x-user-email': 'ct@example.com', 'content-type': 'application/json' },
    });
    expect(get.statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/emails/ct%40example.com',
      headers: { 'x-admin-secret': t.config.adminSecret, 'content-type': 'application/json' },
    });
    expect(del.statusCode).toBe(200);
    const empty = await t.app.inject({ method: 'POST', url: '/user/login', headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'The request body must be a JSON object.' });
  });

  it('refuses oversized bodies with 413 and wrong content types with 415', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', pad: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'The request body is too large.' });
    const text = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<email>a@b.co</email>',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ error: 'Please send the request body as JSON (content-type: application/json).' });
  });
});

describe('rate limits and the web app', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>SPA</title><div id="root"></div>');
    writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
    t = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS, deps: { webDist } });
  }, 300_000);
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('serves the built app, falls back to index.html for client routes only', async () => {
    // An admin secret in the address may look like a file name (it can hold dots).
    for (const url of ['/', '/history', '/admin/events', '/test/question-set-item', '/admin/events/s3cret.v2', '/admin/emails/a.b.c']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<title>SPA</title>');
    }
    // An address the app does not know: the app (its page says "Unexpected Application Error!"), with a 404.
    for (const url of ['/no-such-page', '/history/old', '/admin/nope/s3cret']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(page.statusCode, url).toBe(404);
      expect(page.body, url).toContain('<title>SPA</title>');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.body).toBe('console.log(1)');
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: 'text/html' } })).statusCode).toBe(404);
    for (const url of ['/api/unknown', '/user/unknown', '/interview/unknown', '/healthz/x']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toEqual({ error: `There is no GET ${url} here.` });
    }
  });

  it('limits login attempts per address', async () => {
    let last = 0;
    for (let i = 0; i <= t.config.loginRateLimit; i += 1) {
      last = (
        await t.app.inject({ method: 'POST', url: '/user/login', payload: { email: `u${i}@example.com` }, remoteAddress: '10.1.1.1' })
      ).statusCode;
      if (i < t.config.loginRateLimit) expect(last).toBe(200);
    }
    expect(last).toBe(429);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      payload: { email: 'late@example.com' },
      remoteAddress: '10.1.1.1',
    });
    expect(answer.json()).toEqual({ error: expect.stringMatching(/^Too many requests\. Please wait .+ and try again\.$/) });
  });
});
