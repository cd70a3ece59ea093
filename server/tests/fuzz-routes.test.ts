/**
 * Fuzz: property-based hostile input to every route (fast-check) through the real app on PGlite.
 * Every request below is wrong by construction (bad body, header, query or path) and must get a
 * 4xx with exactly `{error: "<sentence>"}`, never a 5xx, and must leave the database unchanged
 * (row counts and an md5 of every table's rows compared before and after each request).
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEEDBACK_MAX_LENGTH, MAX_DURATION_SECONDS, MAX_TRANSCRIPT_TEXT } from '../../contract';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, TEST_ADMIN_SECRET, type TestApp } from '../../test-support/test-app';
import {
  badBodies,
  badIdText,
  encodeForUrl,
  headerSafe,
  hostileText,
  nextAddress,
  notAnEmail,
  notANumber,
  notAString,
  unknownEmail,
  unknownId,
  type BodyCase,
} from '../../test-support/fuzz-arbitraries';

const USER = 'fuzz-user@example.com';
const RUNS = 30;
const TABLES = ['accounts', 'question_sets', 'events', 'feedback', 'interview_sessions'];

let t: TestApp;
let sessionToken = '';
let feedbackId = 0;
let setId = 0;
const tried: string[] = [];

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const result = (await t.db.execute(
      sql.raw(`select count(*)::int as n, coalesce(md5(string_agg(r::text, '|' order by r::text)), '-') as h from ${table} r`),
    )) as unknown as { rows: Array<{ n: number; h: string }> };
    parts.push(`${table}:${result.rows[0]?.n}:${result.rows[0]?.h}`);
  }
  return parts.join(' ');
}

type HeaderCase = Record<string, string | string[]>;

function toInject(method: 'GET' | 'POST' | 'DELETE', url: string, headers: HeaderCase, body?: BodyCase): InjectOptions {
  const options: InjectOptions = { method, url, headers: { ...headers }, remoteAddress: nextAddress() };
  if (!body) return options;
  if ('raw' in body) return { ...options, payload: body.raw, headers: { ...headers, 'content-type': body.contentType } };
  return { ...options, payload: JSON.stringify(body.json), headers: { ...headers, 'content-type': 'application/json' } };
}

/** The property: 4xx, `{error}` only, database unchanged. */
async function expectRejected(name: string, request: InjectOptions): Promise<void> {
  const before = await snapshot();
  const response = await t.app.inject(request);
  const where = `${name}: ${request.method} ${request.url} ${JSON.stringify(request.headers)} ${String(request.payload).slice(0, 300)}`;
  expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${where}\n${response.body}`).toBeLessThan(500);
  const body = response.json() as Record<string, unknown>;
  expect(Object.keys(body), where).toEqual(['error']);
  expect(typeof body.error === 'string' && body.error.length > 0, where).toBe(true);
  expect(String(body.error), where).not.toMatch(
    / at .+\.(ts|js):\d+|\bstack\b|syntax error at|violates|relation "|out of range for type|invalid byte sequence/i,
  );
  expect(await snapshot(), `${where} changed the database`).toBe(before);
  tried.push(`${name} ${response.statusCode}`);
}

const userHeaders = { 'x-user-email': USER };
const adminHeaders = { 'x-admin-secret': TEST_ADMIN_SECRET };

/** A user header that identifies nobody: absent, malformed, unknown, duplicated, unicode. */
const badUserHeader: fc.Arbitrary<HeaderCase> = fc.oneof(
  fc.constant({}),
  notAnEmail
    .map((v) => headerSafe(v))
    .filter((v) => v.trim() !== '' && !v.includes('@'))
    .map((v) => ({ 'x-user-email': v })),
  unknownEmail.map((v) => ({ 'x-user-email': headerSafe(v) })),
  fc.constant<HeaderCase>({ 'x-user-email': [USER, 'other@example.com'] }),
  fc.constant({ 'x-user-email': `${USER}\t'--` }),
);

/** An admin header that is not the secret: absent, empty, wrong, huge, duplicated, unicode. */
const badAdminHeader: fc.Arbitrary<HeaderCase> = fc.oneof(
  fc.constant({}),
  fc.constant({ 'x-admin-secret': '' }),
  hostileText.map((v) => ({ 'x-admin-secret': headerSafe(v) })),
  fc.constant({ 'x-admin-secret': 'x'.repeat(10_000) }),
  fc.constant<HeaderCase>({ 'x-admin-secret': [TEST_ADMIN_SECRET, TEST_ADMIN_SECRET] }),
  fc.constant({ 'x-admin-secret': `${TEST_ADMIN_SECRET} ` }),
  fc.constant({ 'x-admin-secret': TEST_ADMIN_SECRET.toUpperCase() }),
);

beforeAll(async () => {
  t = await createTestApp({ database: 'pglite', questionSets: FIXTURE_SETS });
  await login(t.app, USER);
  setId = (await setIds(t.app)).get(1) ?? 0;
  const token = await call<{ client_secret: { value: string }; sessionId: string }>(
    t.app,
    'GET',
    `/interview/token?questionSetId=${setId}`,
    { email: USER },
  );
  sessionToken = token.body.client_secret.value;
  const transcripts = [
    { role: 'interviewer', transcript: 'What is a closure?' },
    { role: 'interviewee', transcript: 'A function with its outer scope.' },
  ];
  await call(t.app, 'POST', '/interview/rate-transcript', {
    email: USER,
    body: { transcripts, durationSeconds: 60, questionSetId: setId, sessionId: token.body.sessionId },
  });
  const created = await call<{ id: number }>(t.app, 'POST', '/user/feedback', {
    email: USER,
    body: { feedback: 'Clear questions and a good pace overall.', topic: 'JavaScript', questionIndex: 1 },
  });
  feedbackId = created.body.id;
  await call(t.app, 'POST', '/api/emails', { admin: TEST_ADMIN_SECRET, body: { email: 'pro@example.com', limit: null } });
});

afterAll(async () => {
  const counts = new Map<string, number>();
  for (const line of tried) counts.set(line, (counts.get(line) ?? 0) + 1);
  console.log(`fuzz: ${tried.length} hostile requests, all rejected with 4xx {error} and no database change:`);
  for (const [line, n] of [...counts].sort()) console.log(`  ${line} x${n}`);
  await t?.close();
});

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const assertAll = <T>(arb: fc.Arbitrary<T>, run: (value: T) => Promise<void>, numRuns = RUNS) =>
  fc.assert(fc.asyncProperty(arb, run), { numRuns });

describe('fuzz: hostile input to every route → 4xx {error}, database unchanged', () => {
  it('POST /user/login', async () => {
    const bodies = badBodies({ email: 'new-user@example.com' }, ['email'], { email: fc.oneof(notAString, notAnEmail) });
    await assertAll(bodies, (body) => expectRejected('login', toInject('POST', '/user/login', {}, body)));
  });

  it('POST /user/feedback', async () => {
    const valid = { feedback: 'A perfectly good feedback text of some length.', topic: 'JavaScript', questionIndex: 1 };
    const bodies = badBodies(valid, ['feedback', 'topic', 'questionIndex'], {
      feedback: fc.oneof(
        notAString,
        fc.string({ maxLength: 19 }),
        fc.string({ maxLength: 5 }).map((s) => `   ${s}${' '.repeat(30)}`),
        fc.constant('x'.repeat(FEEDBACK_MAX_LENGTH + 1)),
      ),
      topic: fc.oneof(notAString, fc.constantFrom('', '   ', 'x'.repeat(201))),
      questionIndex: fc.oneof(notANumber, fc.constantFrom(-1, 1.5, -0.001, 2_147_483_648, 1e300)),
    });
    await assertAll(
      fc.oneof(
        bodies.map((b) => ({ h: userHeaders, b })),
        badUserHeader.map((h) => ({ h, b: { json: valid } as BodyCase })),
      ),
      ({ h, b }) => expectRejected('feedback', toInject('POST', '/user/feedback', h, b)),
    );
  });

  it('GET /user/ratings', async () => {
    const badQuery = fc.oneof(
      fc
        .tuple(fc.constantFrom('page', 'limit'), badIdText)
        .filter(([k, v]) => !(/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= (k === 'page' ? 1_000_000 : 50)))
        .map(([k, v]) => `${k}=${v}`),
      fc.constantFrom('limit=51', 'limit=1000', 'page=1&page=2', 'limit=9&limit=x', 'page=1000001', 'page=%zz', 'limit=%'),
    );
    await assertAll(
      fc.oneof(
        badQuery.map((q) => ({ h: userHeaders as HeaderCase, q })),
        badUserHeader.map((h) => ({ h, q: 'page=1&limit=9' })),
      ),
      ({ h, q }) => expectRejected('ratings', toInject('GET', `/user/ratings?${q}`, h)),
    );
  });

  it('GET /interview/token', async () => {
    const badQuery = fc.oneof(
      badIdText.map((v) => `questionSetId=${v}`),
      fc.constantFrom('', 'questionSetId=1&questionSetId=2', 'questionsetid=1', 'questionSetId[]=1', 'questionSetId=%E0%A4%A'),
    );
    await assertAll(
      fc.oneof(
        badQuery.map((q) => ({ h: userHeaders as HeaderCase, q })),
        badUserHeader.map((h) => ({ h, q: `questionSetId=${setId}` })),
      ),
      ({ h, q }) => expectRejected('token', toInject('GET', `/interview/token?${q}`, h)),
    );
  });

  it('POST /interview/turn', async () => {
    const valid = { sessionToken: 'placeholder', utterance: 'I would use a closure.' };
    const bodies = badBodies(valid, ['sessionToken'], {
      sessionToken: fc.oneof(
        notAString,
        fc.constant(''),
        fc.constant('t'.repeat(201)),
        hostileText.filter((s) => s.length > 0 && s.length <= 200),
      ),
      utterance: fc.oneof(notAString, fc.constant('u'.repeat(MAX_TRANSCRIPT_TEXT + 1))),
    });
    await assertAll(
      fc.oneof(
        bodies.map((b) => ({ h: userHeaders as HeaderCase, b })),
        badUserHeader.map((h) => ({ h, b: { json: { sessionToken, utterance: 'hello' } } as BodyCase })),
      ),
      ({ h, b }) => expectRejected('turn', toInject('POST', '/interview/turn', h, b)),
    );
  });

  it('POST /interview/rate-transcript', async () => {
    const valid = { transcripts: [{ role: 'interviewee', transcript: 'An answer.' }], durationSeconds: 30, questionSetId: 1 };
    const bodies = badBodies(valid, ['transcripts', 'durationSeconds', 'questionSetId'], {
      transcripts: fc.oneof(
        notANumber.filter((v) => !Array.isArray(v)),
        fc.constant([{ role: 'admin', transcript: 'x' }]),
        fc.constant([{ role: 'interviewee' }]),
        fc.constant([{ role: 'interviewee', transcript: 'x', at: -1 }]),
        fc.constant([{ role: 'interviewee', transcript: 'x'.repeat(MAX_TRANSCRIPT_TEXT + 1) }]),
        fc.constant(Array.from({ length: 2001 }, () => ({ role: 'interviewee', transcript: 'x' }))),
        fc.array(hostileText, { minLength: 1, maxLength: 3 }),
      ),
      durationSeconds: fc.oneof(notANumber, fc.constantFrom(-1, 0.5, MAX_DURATION_SECONDS + 1)),
      questionSetId: fc.oneof(notANumber, fc.constantFrom(0, -3, 1.5), unknownId),
      sessionId: fc.oneof(notAString, fc.constant('s'.repeat(101))),
    });
    await assertAll(
      fc.oneof(
        bodies.map((b) => ({ h: userHeaders as HeaderCase, b })),
        badUserHeader.map((h) => ({ h, b: { json: { ...valid, questionSetId: setId } } as BodyCase })),
      ),
      ({ h, b }) => expectRejected('rate', toInject('POST', '/interview/rate-transcript', h, b)),
    );
  });

  it('GET /api/question-sets with a malformed x-user-email', async () => {
    const header = notAnEmail.map((v) => headerSafe(v)).filter((v) => v.trim() !== '' && !v.includes('@'));
    await assertAll(header, (h) => expectRejected('question-sets', toInject('GET', '/api/question-sets', { 'x-user-email': h })));
  });

  it('admin GET calls with a wrong secret, and GET /api/events with bad queries', async () => {
    const urls = fc.constantFrom('/api/events', '/api/interview-stats', '/api/emails', '/api/feedback');
    const badEventsQuery = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('limit', 'before'),
          badIdText.filter((v) => !/^\d+$/.test(v) || Number(v) > 2_147_483_647),
        )
        .map(([k, v]) => `${k}=${v}`),
      fc.constantFrom('limit=501', 'limit=0', 'limit=1&limit=2', 'before=0'),
    );
    await assertAll(
      fc.oneof(
        fc.tuple(urls, badAdminHeader).map(([url, h]) => ({ url, h })),
        badEventsQuery.map((q) => ({ url: `/api/events?${q}`, h: adminHeaders as HeaderCase })),
      ),
      ({ url, h }) => expectRejected('admin-get', toInject('GET', url, h)),
    );
  });

  it('POST /api/emails', async () => {
    const valid = { email: 'someone-new@example.com', isPro: true, limit: null };
    const bodies = badBodies(valid, ['email'], {
      email: fc.oneof(notAString, notAnEmail),
      isPro: fc.oneof(fc.constantFrom('true', 1, 0, 'yes'), fc.array(fc.boolean(), { maxLength: 2 })),
      limit: fc.oneof(fc.constantFrom(-1, 1.5, 1_000_001, '5', true), hostileText),
    });
    await assertAll(
      fc.oneof(
        bodies.map((b) => ({ h: adminHeaders as HeaderCase, b })),
        // Plan changes for nobody (404), and creating one that exists (409).
        unknownEmail.map((email) => ({ h: adminHeaders as HeaderCase, b: { json: { email, isPro: true, limit: null } } as BodyCase })),
        fc.constant({ h: adminHeaders as HeaderCase, b: { json: { email: USER, limit: null } } as BodyCase }),
        badAdminHeader.map((h) => ({ h, b: { json: { email: 'valid-new@example.com', limit: null } } as BodyCase })),
      ),
      ({ h, b }) => expectRejected('emails-post', toInject('POST', '/api/emails', h, b)),
    );
  });

  it('POST /api/admin/question-sets/try-answer and suggest-phrasings (the editor helpers save nothing)', async () => {
    const set = {
      name: 'Draft',
      index: 1,
      isPremium: false,
      requiresFeedback: false,
      instructions: '',
      questions: ['What is a closure?'],
      modelAnswers: '### 1. What is a closure?\n\nA function with its scope.\n\n**Key points:** keeps its outer scope; made at definition',
    };
    const badSet = fc.oneof(
      notAString,
      fc.constantFrom({ ...set, questions: [] }, { ...set, modelAnswers: '' }, { ...set, index: 0 }, { ...set, name: '' }),
    );
    const badNumber = fc.oneof(fc.constantFrom(0, -1, 1.5, 2, 101, '1', null), hostileText);
    const tries = badBodies(
      { set, questionNumber: 1, answer: 'A function that keeps its outer scope.' },
      ['set', 'questionNumber', 'answer'],
      {
        set: badSet,
        questionNumber: badNumber,
        answer: fc.oneof(notAString, fc.constantFrom('', '   ', 'x'.repeat(20_001))),
        languageModel: fc.oneof(fc.constantFrom('true', 1, null), hostileText),
      },
    );
    const suggestions = badBodies({ set, questionNumber: 1, keyPoint: 'keeps its outer scope' }, ['set', 'questionNumber', 'keyPoint'], {
      set: badSet,
      questionNumber: badNumber,
      keyPoint: fc.oneof(notAString, hostileText),
    });
    await assertAll(
      fc.oneof(
        tries.map((b) => ({ url: '/api/admin/question-sets/try-answer', h: adminHeaders as HeaderCase, b })),
        suggestions.map((b) => ({ url: '/api/admin/question-sets/suggest-phrasings', h: adminHeaders as HeaderCase, b })),
        badAdminHeader.map((h) => ({
          url: '/api/admin/question-sets/try-answer',
          h,
          b: { json: { set, questionNumber: 1, answer: 'Yes.' } } as BodyCase,
        })),
      ),
      ({ url, h, b }) => expectRejected('set-editor-helpers', toInject('POST', url, h, b)),
    );
  });

  it('DELETE /api/emails/:email and DELETE /api/feedback/:id', async () => {
    const emailPath = fc
      .oneof(
        notAnEmail.filter((v) => v.trim() !== ''),
        unknownEmail,
      )
      .map((v) => `/api/emails/${encodeForUrl(v)}`);
    const idPath = fc
      .oneof(
        badIdText.filter((v) => v !== ''),
        fc.constantFrom('%zz', '%E0%A4%A', '1'.repeat(2000), `${feedbackId}%00`),
      )
      .map((v) => `/api/feedback/${v}`);
    const longEmail = fc.constant(`/api/emails/${'a'.repeat(1100)}%40example.com`);
    await assertAll(
      fc.oneof(
        fc.oneof(emailPath, idPath, longEmail).map((url) => ({ url, h: adminHeaders as HeaderCase })),
        badAdminHeader.map((h) => ({ url: `/api/emails/${encodeURIComponent(USER)}`, h })),
        badAdminHeader.map((h) => ({ url: `/api/feedback/${feedbackId}`, h })),
      ),
      ({ url, h }) => expectRejected('delete', toInject('DELETE', url, h)),
    );
  });

  it('payloads in free-text fields: stored verbatim when accepted, never a 5xx', async () => {
    const text = fc.tuple(hostileText, hostileText).map(([a, b]) => `${a} feedback padding text ${b}`);
    let accepted = 0;
    await assertAll(fc.tuple(text, hostileText), async ([feedbackText, topic]) => {
      const request = toInject('POST', '/user/feedback', userHeaders, { json: { feedback: feedbackText, topic, questionIndex: 2 } });
      const before = await snapshot();
      const response = await t.app.inject(request);
      expect(response.statusCode, `${response.body} for ${JSON.stringify(feedbackText)} / ${JSON.stringify(topic)}`).toBeLessThan(500);
      if (response.statusCode === 201) {
        accepted += 1;
        const { id } = response.json() as { id: number };
        const list = await call<Array<{ id: number; feedback: string; topic: string }>>(t.app, 'GET', '/api/feedback', {
          admin: TEST_ADMIN_SECRET,
        });
        expect(list.body.find((f) => f.id === id)).toMatchObject({ feedback: feedbackText.trim(), topic: topic.trim() });
        tried.push('payload-feedback 201');
      } else {
        expect(Object.keys(response.json() as object)).toEqual(['error']);
        expect(await snapshot()).toBe(before);
        tried.push(`payload-feedback ${response.statusCode}`);
      }
    });
    expect(accepted).toBeGreaterThan(0);
    const nul = await call(t.app, 'POST', '/interview/rate-transcript', {
      email: USER,
      body: { transcripts: [{ role: 'interviewee', transcript: 'an answer\u0000' }], durationSeconds: 5, questionSetId: setId },
    });
    expect(nul).toMatchObject({ status: 400, body: { error: 'Text must not contain the NUL character (\\u0000).' } });
  });

  it('unknown routes and methods', async () => {
    const path = fc.oneof(
      fc.webPath().filter((p) => p !== '' && p !== '/'),
      hostileText.map((s) => `/api/${encodeForUrl(s)}`),
      fc.constantFrom('/user/login/../../api/emails', '/api/emails/', '/%2e%2e/%2e%2e/etc/passwd', '/api/feedback/1/2'),
    );
    const method = fc.constantFrom<'GET' | 'POST' | 'DELETE'>('GET', 'POST', 'DELETE');
    const known =
      /^\/(healthz|docs|api\/(config|question-sets|events|interview-stats|emails|feedback)|user\/(login|feedback|ratings)|interview\/(token|turn|rate-transcript))(\/|\?|$)/;
    await assertAll(
      // The request is parsed as a WHATWG URL (dot segments resolved: `/.`, `/a/..`, `/%2e` are
      // the home page) and the router ignores a trailing slash (`//` is the home page too); a
      // path that comes out as the home page or a known call is not an unknown route.
      fc.tuple(method, path).filter(([, p]) => {
        const forms = [p, safeDecode(p), asParsed(p), asParsed(safeDecode(p))].map((f) => f.replace(/\/+/g, '/'));
        return forms.every((f) => !known.test(f) && f !== '/');
      }),
      ([m, p]) => expectRejected('unknown-route', toInject(m, p, {})),
    );
  });
});

function asParsed(path: string): string {
  try {
    return new URL(path, 'http://localhost').pathname;
  } catch {
    return path;
  }
}
