import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { ADMIN_MAX_FAILURES, ADMIN_MAX_FAILURES_OVERALL } from '../services/admin';
import type { AdminEventRow } from '../../contract';
import { EVENT_PREVIEW_CHARS, EVENT_PREVIEW_ENTRIES, MAX_TRANSCRIPT_TOTAL_TEXT } from '../../contract/limits';

const ADMIN_CALLS: Array<['GET' | 'POST' | 'DELETE', string]> = [
  ['GET', '/api/events'],
  ['GET', '/api/events/1'],
  ['GET', '/api/interview-stats'],
  ['GET', '/api/emails'],
  ['POST', '/api/emails'],
  ['DELETE', '/api/emails/a%40b.co'],
  ['GET', '/api/feedback'],
  ['DELETE', '/api/feedback/1'],
];

const transcripts = [
  { role: 'interviewer', transcript: 'What is a closure?' },
  { role: 'interviewee', transcript: 'A function that keeps its outer scope.' },
];

describeDatabases('admin calls', (database) => {
  let t: TestApp;
  let secret: string;
  let ids: Map<number, number>;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: { freeSessionLimit: 20 } });
    secret = t.config.adminSecret;
    ids = await setIds(t.app);
  }, 300_000);
  afterAll(() => t.close());

  // A rating needs a session: mint one, then rate it (the call binds to the newest unrated one).
  const rate = async (email: string) => {
    await call(t.app, 'GET', `/interview/token?questionSetId=${ids.get(1)}`, { email });
    return call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts, durationSeconds: 42, questionSetId: ids.get(1) },
    });
  };

  it('refuses every admin call without the right secret, with no data', async () => {
    // From its own address, so these failures do not throttle the other tests.
    const remoteAddress = '10.9.9.9';
    for (const [method, url] of ADMIN_CALLS) {
      const missing = await call(t.app, method, url, {
        body: method === 'POST' ? { email: 'x@y.zz', limit: null } : undefined,
        remoteAddress,
      });
      expect(missing, `${method} ${url}`).toMatchObject({ status: 401, body: { error: 'The admin secret is missing.' } });
      const wrong = await call(t.app, method, url, { admin: `${secret}x`, remoteAddress: '10.9.9.8' });
      expect(wrong, `${method} ${url}`).toMatchObject({ status: 401, body: { error: 'The admin secret is wrong.' } });
    }
  });

  it('lists events newest first with limit and before', async () => {
    await login(t.app, 'events@example.com');
    await rate('events@example.com');
    const all = await call<Array<Record<string, unknown>>>(t.app, 'GET', '/api/events', { admin: secret });
    expect(all.status).toBe(200);
    const ours = all.body.filter((e) => e.userEmail === 'events@example.com');
    expect(ours.map((e) => e.eventType)).toEqual(['RATE', 'START']);
    expect(Object.keys(ours[0] ?? {}).sort()).toEqual(
      [
        'durationSeconds',
        'eventTimestamp',
        'eventType',
        'id',
        'questionSetIndex',
        'rater',
        'ratingMarkdown',
        'score',
        'session',
        'topic',
        'transcript',
        'truncated',
        'userEmail',
      ].sort(),
    );
    // Both events of the interview carry its session's telemetry (session-telemetry.test.ts covers it).
    expect((ours[0]?.session as { sessionId: string }).sessionId).toBe((ours[1]?.session as { sessionId: string }).sessionId);
    expect(ours[0]).toMatchObject({
      topic: 'JavaScript',
      questionSetIndex: 0,
      durationSeconds: 42,
      transcript: transcripts,
      rater: 'rubric',
    });
    // The breakdown and the whole texts come with the event's details.
    const details = await call<Record<string, unknown>>(t.app, 'GET', `/api/events/${String(ours[0]?.id)}`, { admin: secret });
    expect(details.status).toBe(200);
    expect((details.body.ratingBreakdown as Array<{ question: string }>).map((b) => b.question)).toEqual([
      'What is a closure?',
      'How does the event loop work?',
    ]);
    expect(details.body).toMatchObject({ id: ours[0]?.id, transcript: transcripts, rater: 'rubric', session: ours[0]?.session });
    expect(String(details.body.ratingMarkdown).startsWith(String(ours[0]?.ratingMarkdown))).toBe(true);
    expect(ours[1]).toMatchObject({ transcript: null, ratingMarkdown: null, truncated: false, durationSeconds: null });
    expect(await call(t.app, 'GET', '/api/events/2147483647', { admin: secret })).toMatchObject({
      status: 404,
      body: { error: 'There is no event with the id 2147483647.' },
    });
    expect(await call(t.app, 'GET', '/api/events/x', { admin: secret })).toMatchObject({ status: 400 });
    const idsDesc = all.body.map((e) => e.id as number);
    expect(idsDesc).toEqual([...idsDesc].sort((a, b) => b - a));

    const first = await call<Array<{ id: number }>>(t.app, 'GET', '/api/events?limit=1', { admin: secret });
    expect(first.body.map((e) => e.id)).toEqual([idsDesc[0]]);
    const next = await call<Array<{ id: number }>>(t.app, 'GET', `/api/events?limit=1&before=${idsDesc[0]}`, { admin: secret });
    expect(next.body.map((e) => e.id)).toEqual([idsDesc[1]]);
    expect(await call(t.app, 'GET', '/api/events?limit=0', { admin: secret })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^limit: /) },
    });
  });

  it('lists previews of a 200,000-character transcript and gives the whole of it with the details (issue 33 item 2)', async () => {
    const email = 'long-talker@example.com';
    await login(t.app, email);
    await call(t.app, 'GET', `/interview/token?questionSetId=${ids.get(1)}`, { email });
    // 20 answers of 10,000 characters: MAX_TRANSCRIPT_TOTAL_TEXT in all.
    const long = Array.from({ length: MAX_TRANSCRIPT_TOTAL_TEXT / 10_000 }, (_, i) => ({
      role: i % 2 === 0 ? ('interviewer' as const) : ('interviewee' as const),
      transcript: `${i} ${'a closure keeps its scope '.repeat(400)}`.slice(0, 10_000),
    }));
    const rated = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts: long, durationSeconds: 600, questionSetId: ids.get(1) },
    });
    expect(rated.status).toBe(200);
    const page = await call<AdminEventRow[]>(t.app, 'GET', '/api/events?limit=500', { admin: secret });
    const row = page.body.find((e) => e.userEmail === email && e.eventType === 'RATE');
    expect(row?.truncated).toBe(true);
    expect(row?.transcript).toHaveLength(EVENT_PREVIEW_ENTRIES);
    expect(Math.max(...(row?.transcript ?? []).map((e) => e.transcript.length))).toBe(EVENT_PREVIEW_CHARS);
    expect(row?.ratingMarkdown?.length ?? 0).toBeLessThanOrEqual(EVENT_PREVIEW_CHARS);
    // The whole page stays small: no row carries more than its previews.
    for (const e of page.body) expect(JSON.stringify(e).length).toBeLessThan(20_000);
    const details = await call<{ transcript: typeof long; ratingMarkdown: string }>(t.app, 'GET', `/api/events/${String(row?.id)}`, {
      admin: secret,
    });
    expect(details.body.transcript).toEqual(long);
    expect(details.body.ratingMarkdown.startsWith(row?.ratingMarkdown ?? '-')).toBe(true);
  });

  it('counts emails and accounts with at least n rated interviews', async () => {
    for (const [email, n] of [
      ['s1@example.com', 1],
      ['s2@example.com', 3],
      ['s3@example.com', 0],
    ] as const) {
      await login(t.app, email);
      for (let i = 0; i < n; i += 1) await rate(email);
    }
    const stats = await call<{ emailCount: number; interviewCounts: Record<string, number> }>(t.app, 'GET', '/api/interview-stats', {
      admin: secret,
    });
    const emails = await call<unknown[]>(t.app, 'GET', '/api/emails', { admin: secret });
    expect(stats.body.emailCount).toBe(emails.body.length);
    // events@ (1), long-talker@ (1), s1 (1), s2 (3)
    expect(stats.body.interviewCounts).toEqual({ '1': 4, '2': 1, '3': 1 });
  });

  it('creates (409 when it exists), sets the plan, and deletes emails', async () => {
    const created = await call(t.app, 'POST', '/api/emails', { admin: secret, body: { email: ' Admin.Made@Example.com ', limit: null } });
    expect(created).toMatchObject({
      status: 201,
      body: {
        email: 'admin.made@example.com',
        subscriptionId: null,
        plan: 'free',
        sessionLimit: null,
        limit: 20,
        sessionsUsed: 0,
        remaining: 20,
        lastLoginAt: null,
      },
    });
    expect(
      await call(t.app, 'POST', '/api/emails', { admin: secret, body: { email: 'admin.made@example.com', limit: null } }),
    ).toMatchObject({
      status: 409,
      body: { error: 'The email admin.made@example.com already exists.' },
    });
    const pro = await call<{ subscriptionId: string | null }>(t.app, 'POST', '/api/emails', {
      admin: secret,
      body: { email: 'admin.made@example.com', isPro: true, limit: null },
    });
    expect(pro.status).toBe(200);
    expect(pro.body.subscriptionId).toMatch(/^admin-/);
    const state = await call<{ subscription: unknown }>(t.app, 'POST', '/user/login', { body: { email: 'admin.made@example.com' } });
    expect(state.body.subscription).toEqual({ type: 'pro', status: 'active' });
    const free = await call(t.app, 'POST', '/api/emails', {
      admin: secret,
      body: { email: 'admin.made@example.com', isPro: false, limit: null },
    });
    expect(free).toMatchObject({ status: 200, body: { subscriptionId: null } });
    expect(
      await call(t.app, 'POST', '/api/emails', { admin: secret, body: { email: 'nobody@example.com', isPro: true, limit: null } }),
    ).toMatchObject({
      status: 404,
      body: { error: 'There is no account with the email nobody@example.com.' },
    });
    expect(await call(t.app, 'POST', '/api/emails', { admin: secret, body: { email: 'bad', limit: null } })).toMatchObject({
      status: 400,
      body: { error: 'email: Please enter a valid email address.' },
    });

    const list = await call<Array<{ email: string }>>(t.app, 'GET', '/api/emails', { admin: secret });
    expect(list.body.map((e) => e.email)).toContain('admin.made@example.com');
    expect(await call(t.app, 'DELETE', '/api/emails/admin.made%40example.com', { admin: secret })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect(await call(t.app, 'DELETE', '/api/emails/admin.made%40example.com', { admin: secret })).toMatchObject({
      status: 404,
      body: { error: 'There is no account with the email admin.made@example.com.' },
    });
    const after = await call<Array<{ email: string }>>(t.app, 'GET', '/api/emails', { admin: secret });
    expect(after.body.map((e) => e.email)).not.toContain('admin.made@example.com');
  });

  it('lists feedback newest first with the user, and deletes it', async () => {
    await login(t.app, 'fbadmin@example.com');
    const body = { feedback: 'Please add more system design sets.', topic: 'JavaScript', questionIndex: 2 };
    const a = await call<{ id: number }>(t.app, 'POST', '/user/feedback', { email: 'fbadmin@example.com', body });
    const b = await call<{ id: number }>(t.app, 'POST', '/user/feedback', {
      email: 'fbadmin@example.com',
      body: { ...body, topic: 'Behavioural' },
    });
    const list = await call<Array<{ id: number }>>(t.app, 'GET', '/api/feedback', { admin: secret });
    expect(list.body.slice(0, 2)).toEqual([
      {
        id: b.body.id,
        user: { email: 'fbadmin@example.com' },
        topic: 'Behavioural',
        questionIndex: 2,
        feedback: body.feedback,
        createdAt: expect.any(String),
      },
      {
        id: a.body.id,
        user: { email: 'fbadmin@example.com' },
        topic: 'JavaScript',
        questionIndex: 2,
        feedback: body.feedback,
        createdAt: expect.any(String),
      },
    ]);
    expect(await call(t.app, 'DELETE', `/api/feedback/${a.body.id}`, { admin: secret })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await call(t.app, 'DELETE', `/api/feedback/${a.body.id}`, { admin: secret })).toMatchObject({
      status: 404,
      body: { error: `There is no feedback with the id ${a.body.id}.` },
    });
    expect(await call(t.app, 'DELETE', '/api/feedback/abc', { admin: secret })).toMatchObject({
      status: 400,
      body: { error: 'id: The id must be a number.' },
    });
  });
});

// On PostgreSQL the events page reads the failure count in its own statement (deferPeek): the
// same rules must hold there as through the guard's own read.
describeDatabases('admin throttling', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS });
  }, 300_000);
  afterAll(() => t.close());

  it('answers 429 to wrong secrets after repeated failures from one address, never to the right secret', async () => {
    for (let i = 0; i < ADMIN_MAX_FAILURES; i += 1) {
      expect((await call(t.app, 'GET', '/api/events', { admin: 'guess', remoteAddress: '10.0.0.6' })).status).toBe(401);
    }
    const throttled = await call(t.app, 'GET', '/api/emails', { admin: 'guess', remoteAddress: '10.0.0.6' });
    expect(throttled).toMatchObject({
      status: 429,
      body: { error: 'Too many failed admin attempts from your address. Please wait 15 minutes and try again.' },
    });
    // The operator behind the same address (a proxy without TRUST_PROXY) still gets in.
    for (const url of ['/api/events', '/api/emails']) {
      expect((await call(t.app, 'GET', url, { admin: t.config.adminSecret, remoteAddress: '10.0.0.6' })).status, url).toBe(200);
    }
  });

  it('forgets earlier failures once the right secret gets the events page', async () => {
    const remoteAddress = '10.0.0.8';
    const events = (admin: string) => call(t.app, 'GET', '/api/events', { admin, remoteAddress });
    for (let i = 0; i < ADMIN_MAX_FAILURES - 1; i += 1) expect((await events('guess')).status).toBe(401);
    expect((await events(t.config.adminSecret)).status).toBe(200);
    // A fresh window: the limit's worth of failures answer 401 again, not 429.
    for (let i = 0; i < ADMIN_MAX_FAILURES - 1; i += 1) expect((await events('guess')).status).toBe(401);
    expect((await events(t.config.adminSecret)).status).toBe(200);
  });

  it(`limits wrong secrets overall: past ${ADMIN_MAX_FAILURES_OVERALL} from many addresses every wrong one is 429, the right one still 200`, async () => {
    const statuses = new Map<number, number>();
    for (let i = 0; i < ADMIN_MAX_FAILURES_OVERALL + 20; i += 1) {
      // Each address stays under its own limit: only the overall count can refuse them.
      const answer = await call(t.app, 'GET', '/api/emails', { admin: `guess-${i}`, remoteAddress: `10.1.${Math.floor(i / 5)}.${i % 5}` });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    // Earlier tests of this suite counted their failures too (the window is 15 minutes).
    expect((statuses.get(401) ?? 0) + (statuses.get(429) ?? 0)).toBe(ADMIN_MAX_FAILURES_OVERALL + 20);
    expect(statuses.get(429)).toBeGreaterThanOrEqual(20);
    const refused = await call(t.app, 'GET', '/api/emails', { admin: 'guess', remoteAddress: '10.2.0.1' });
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'Too many failed admin attempts. Please wait 15 minutes and try again.' },
    });
    expect((await call(t.app, 'GET', '/api/events', { admin: t.config.adminSecret, remoteAddress: '10.2.0.1' })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/emails', { admin: t.config.adminSecret, remoteAddress: '10.2.0.2' })).status).toBe(200);
  });
});
