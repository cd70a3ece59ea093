import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { call, FIXTURE_SETS, login } from '../../test-support/fixtures';

describeDatabases('question sets, login, feedback', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS });
  }, 300_000);
  afterAll(() => t.close());

  describe('GET /api/question-sets', () => {
    it('lists every set sorted by index and withholds premium model answers from anonymous callers', async () => {
      const { status, body } = await call<Array<Record<string, unknown>>>(t.app, 'GET', '/api/question-sets');
      expect(status).toBe(200);
      expect(body.map((s) => s.index)).toEqual([1, 2, 3, 4]);
      expect(Object.keys(body[0] ?? {}).sort()).toEqual([
        'id',
        'index',
        'isPremium',
        'modelAnswers',
        'name',
        'questions',
        'requiresFeedback',
      ]);
      expect(body[0]).toMatchObject({
        name: 'JavaScript',
        isPremium: false,
        requiresFeedback: false,
        questions: FIXTURE_SETS[0]?.questions,
      });
      expect(body[0]?.modelAnswers).toBe(FIXTURE_SETS[0]?.modelAnswers);
      expect(body[3]).toMatchObject({ name: 'System Design', isPremium: true, modelAnswers: null });
    });

    it('gives premium model answers to an active pro only', async () => {
      await login(t.app, 'free@example.com');
      await login(t.app, 'pro@example.com');
      await call(t.app, 'POST', '/api/emails', {
        admin: t.config.adminSecret,
        body: { email: 'pro@example.com', isPro: true, limit: null },
      });
      const free = await call<Array<{ modelAnswers: string | null }>>(t.app, 'GET', '/api/question-sets', { email: 'free@example.com' });
      expect(free.body[3]?.modelAnswers).toBeNull();
      const pro = await call<Array<{ modelAnswers: string | null }>>(t.app, 'GET', '/api/question-sets', { email: ' PRO@example.com ' });
      expect(pro.body[3]?.modelAnswers).toBe(FIXTURE_SETS[3]?.modelAnswers);
    });

    it("shows candidates the model answers without the rater's phrasing blocks (the admin editor keeps them)", async () => {
      const answer = [
        '### 1. What is hoisting?',
        '',
        'Declarations are moved to the top of their scope before the code runs.',
        '',
        '**Key points:** declarations are hoisted; let and const sit in the temporal dead zone',
        '',
      ];
      const raterBlocks = [
        '**Also accepted:**',
        '- declarations are hoisted: you can call a function before the line that defines it',
        '',
        '**Contradicted by:**',
        '- declarations are hoisted: the code is physically moved',
        '',
      ];
      const modelAnswers = [...answer, ...raterBlocks, 'Say it with an example.'].join('\n');
      const created = await call<{ id: number }>(t.app, 'POST', '/api/admin/question-sets', {
        admin: t.config.adminSecret,
        body: {
          name: 'Hoisting',
          index: 5,
          isPremium: false,
          requiresFeedback: false,
          instructions: '',
          questions: ['What is hoisting?'],
          modelAnswers,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // The list is cached for a short while; the admin editor's write refreshes it in this process.
      const listed = await call<Array<{ id: number; modelAnswers: string | null }>>(t.app, 'GET', '/api/question-sets');
      expect(listed.body.find((s) => s.id === created.body.id)?.modelAnswers).toBe([...answer, 'Say it with an example.'].join('\n'));
      const admin = await call<Array<{ id: number; modelAnswers: string }>>(t.app, 'GET', '/api/admin/question-sets', {
        admin: t.config.adminSecret,
      });
      expect(admin.body.find((s) => s.id === created.body.id)?.modelAnswers).toBe(modelAnswers);
      const removed = await call(t.app, 'DELETE', `/api/admin/question-sets/${created.body.id}`, {
        admin: t.config.adminSecret,
        body: { confirm: true },
      });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    });

    it('refuses a malformed x-user-email', async () => {
      const { status, body } = await call(t.app, 'GET', '/api/question-sets', { email: 'not an email' });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'x-user-email: Please enter a valid email address.' });
    });
  });

  describe('POST /user/login', () => {
    it('creates the account on first login (isNewUser) and not afterwards; emails are trimmed and lower-cased', async () => {
      const first = await call(t.app, 'POST', '/user/login', { body: { email: '  New.User@Example.COM ' } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        subscription: { type: 'free', status: 'active' },
        progress: [],
        topicLevels: {},
        topicFeedback: {},
        isNewUser: true,
        credits: { left: 5, limit: 5, proLimit: 100 },
      });
      const second = await call<{ isNewUser: boolean }>(t.app, 'POST', '/user/login', { body: { email: 'new.user@example.com' } });
      expect(second.body.isNewUser).toBe(false);
    });

    it('says how many interviews are left: one fewer after a start, Pro has more, an own limit is the limit', async () => {
      const email = 'credits@example.com';
      const credits = async () => (await call<{ credits: unknown }>(t.app, 'POST', '/user/login', { body: { email } })).body.credits;
      expect(await credits()).toEqual({ left: 5, limit: 5, proLimit: 100 });
      const sets = await call<Array<{ id: number }>>(t.app, 'GET', '/api/question-sets', { email });
      expect((await call(t.app, 'GET', `/interview/token?questionSetId=${sets.body[0]?.id ?? -1}`, { email })).status).toBe(200);
      expect(await credits()).toEqual({ left: 4, limit: 5, proLimit: 100 });
      await call(t.app, 'POST', '/api/emails', { admin: t.config.adminSecret, body: { email, isPro: true, limit: null } });
      expect(await credits()).toEqual({ left: 99, limit: 100, proLimit: null });
      await call(t.app, 'POST', '/api/emails', { admin: t.config.adminSecret, body: { email, isPro: false, limit: null } });
      expect((await call(t.app, 'PATCH', `/api/emails/${email}`, { admin: t.config.adminSecret, body: { sessionLimit: 1 } })).status).toBe(
        200,
      );
      // An own limit is the operator's word: no Pro offer, and never below zero left.
      expect(await credits()).toEqual({ left: 0, limit: 1, proLimit: null });
    });

    it('answers 400 with a sentence for an invalid email, a missing field and a non-JSON body', async () => {
      expect(await call(t.app, 'POST', '/user/login', { body: { email: 'a b@c.d' } })).toMatchObject({
        status: 400,
        body: { error: 'email: Please enter a valid email address.' },
      });
      expect(await call(t.app, 'POST', '/user/login', { body: {} })).toMatchObject({
        status: 400,
        body: { error: 'email: Email must be text.' },
      });
      const broken = await t.app.inject({
        method: 'POST',
        url: '/user/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({ error: 'The request body is not valid JSON.' });
    });
  });

  describe('POST /user/feedback', () => {
    const good = { feedback: '  The questions were clear and fair.  ', topic: 'Behavioural', questionIndex: 3 };

    it('stores feedback (trimmed) and marks the topic in the login response', async () => {
      await login(t.app, 'fb@example.com');
      const answer = await call<{ id: number }>(t.app, 'POST', '/user/feedback', { email: 'fb@example.com', body: good });
      expect(answer.status).toBe(201);
      expect(answer.body.id).toBeGreaterThan(0);
      const state = await call<{ topicFeedback: Record<string, boolean> }>(t.app, 'POST', '/user/login', {
        body: { email: 'fb@example.com' },
      });
      expect(state.body.topicFeedback).toEqual({ Behavioural: true });
      const list = await call<Array<{ id: number; feedback: string; user: { email: string } }>>(t.app, 'GET', '/api/feedback', {
        admin: t.config.adminSecret,
      });
      expect(list.body.find((f) => f.id === answer.body.id)).toMatchObject({
        feedback: 'The questions were clear and fair.',
        user: { email: 'fb@example.com' },
      });
    });

    it('enforces the length rules with their documented texts', async () => {
      await login(t.app, 'fb2@example.com');
      const short = await call(t.app, 'POST', '/user/feedback', {
        email: 'fb2@example.com',
        body: { ...good, feedback: '   too short text     ' },
      });
      expect(short).toMatchObject({ status: 400, body: { error: 'feedback: Feedback must be at least 20 characters.' } });
      const long = await call(t.app, 'POST', '/user/feedback', { email: 'fb2@example.com', body: { ...good, feedback: 'x'.repeat(1001) } });
      expect(long).toMatchObject({ status: 400, body: { error: 'feedback: Feedback must be at most 1000 characters.' } });
      const missing = await call(t.app, 'POST', '/user/feedback', {
        email: 'fb2@example.com',
        body: { feedback: good.feedback, topic: 'Behavioural' },
      });
      expect(missing).toMatchObject({ status: 400, body: { error: 'questionIndex: Missing feedback submission information.' } });
    });

    it('needs a known user', async () => {
      expect(await call(t.app, 'POST', '/user/feedback', { body: good })).toMatchObject({
        status: 401,
        body: { error: 'Please log in first: the x-user-email header is missing.' },
      });
      expect(await call(t.app, 'POST', '/user/feedback', { email: 'ghost@example.com', body: good })).toMatchObject({
        status: 401,
        body: { error: 'We do not know this email yet. Please log in first.' },
      });
    });
  });
});

describeDatabases('invite-only signup', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config: { signup: 'invite' } });
  }, 300_000);
  afterAll(() => t.close());

  it('refuses unknown emails with 403 and admits admin-created ones as new users', async () => {
    expect(await call(t.app, 'POST', '/user/login', { body: { email: 'stranger@example.com' } })).toMatchObject({
      status: 403,
      body: { error: 'This email has not been invited. Please ask the team for access.' },
    });
    const created = await call(t.app, 'POST', '/api/emails', {
      admin: t.config.adminSecret,
      body: { email: 'Invited@Example.com', limit: null },
    });
    expect(created.status).toBe(201);
    const first = await call<{ isNewUser: boolean }>(t.app, 'POST', '/user/login', { body: { email: 'invited@example.com' } });
    expect(first.status).toBe(200);
    expect(first.body.isNewUser).toBe(true);
    const again = await call<{ isNewUser: boolean }>(t.app, 'POST', '/user/login', { body: { email: 'invited@example.com' } });
    expect(again.body.isNewUser).toBe(false);
  });
});
