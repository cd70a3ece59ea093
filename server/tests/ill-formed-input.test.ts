/**
 * Bad input never reaches the database or a paid upstream call, and error logs never carry SQL
 * parameters, transcripts or emails. On both databases.
 */
import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { events } from '../db/schema';
import { serializeError } from '../plugins/log-redaction';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createRubricRater } from '../rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import type { Interviewer, Rater } from '../providers/types';

const ILL_FORMED = 'Text must be valid Unicode: it contains a lone surrogate (half of a character).';
const SECRET_ANSWER = 'my very private answer about closures';

describeDatabases('ill-formed input and error logs', (database) => {
  let t: TestApp;
  const lines: string[] = [];
  let interviewerCalls = 0;
  let poisonRating = false;
  const scripted = createScriptedInterviewer();
  const interviewer: Interviewer = {
    nextTurn: (input) => {
      interviewerCalls += 1;
      return scripted.nextTurn(input);
    },
  };
  const rubric = createRubricRater();
  // A rating PostgreSQL cannot store (U+0000): a real failed query whose parameters carry text.
  const rater: Rater = {
    async rate(input) {
      const result = await rubric.rate(input);
      return poisonRating ? { ...result, markdown: `${result.markdown} leak@example.com ${SECRET_ANSWER}\u0000` } : result;
    },
  };
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });

  beforeAll(async () => {
    t = await createTestApp({
      database,
      questionSets: FIXTURE_SETS,
      deps: { providers: { voice: createBrowserSpeechVoice(), rater, interviewer }, logger: { level: 'info', stream } },
    });
  }, 300_000);
  afterAll(() => t.close());

  it('answers 400 to a lone surrogate in a body or a broken query, before any service runs', async () => {
    const email = 'surrogate@example.com';
    await login(t.app, email);
    const setId = (await setIds(t.app)).get(1);
    const token = await call<{ sessionId: string; client_secret: { value: string } }>(
      t.app,
      'GET',
      `/interview/token?questionSetId=${setId}`,
      { email },
    );
    const bad = [
      await call(t.app, 'POST', '/interview/rate-transcript', {
        email,
        body: {
          transcripts: [{ role: 'interviewee', transcript: 'a\ud800b' }],
          durationSeconds: 5,
          questionSetId: setId,
          sessionId: token.body.sessionId,
        },
      }),
      await call(t.app, 'POST', '/interview/turn', { email, body: { sessionToken: token.body.client_secret.value, utterance: 'x\udc00' } }),
      await call(t.app, 'POST', '/user/login', { body: { email: 'a\ud800@example.com' } }),
      await call(t.app, 'POST', '/user/feedback', {
        email,
        body: { feedback: 'Clear questions and a good pace \ud83d.', topic: 'JavaScript', questionIndex: 1 },
      }),
    ];
    for (const answer of bad) expect(answer).toMatchObject({ status: 400, body: { error: ILL_FORMED } });
    // A query cannot carry a lone surrogate as text; %-encoded it is not UTF-8, and refused too.
    expect(await call(t.app, 'GET', '/user/ratings?page=1&x=%ED%A0%80', { email })).toMatchObject({
      status: 400,
      body: { error: 'The address is not valid: its query has a broken %-encoding.' },
    });
    expect((await call(t.app, 'GET', `/user/ratings?page=1&x=${encodeURIComponent('😀')}`, { email })).status).toBe(200);
    expect(interviewerCalls).toBe(0);
    expect(
      await t.db
        .select()
        .from(events)
        .where(and(eq(events.userEmail, email), eq(events.eventType, 'RATE'))),
    ).toEqual([]);
    // A well-formed pair (an emoji) is fine.
    expect(
      (
        await call(t.app, 'POST', '/interview/turn', {
          email,
          body: { sessionToken: token.body.client_secret.value, utterance: 'I like it 😀' },
        })
      ).status,
    ).toBe(200);
  });

  it('caps the total text of a transcript at 200,000 characters', async () => {
    const email = 'long@example.com';
    await login(t.app, email);
    const setId = (await setIds(t.app)).get(1);
    const transcripts = Array.from({ length: 11 }, () => ({ role: 'interviewee', transcript: 'y'.repeat(19_000) }));
    expect(
      await call(t.app, 'POST', '/interview/rate-transcript', { email, body: { transcripts, durationSeconds: 5, questionSetId: setId } }),
    ).toMatchObject({
      status: 400,
      body: { error: 'transcripts: The transcript is too long: at most 200,000 characters in total.' },
    });
  });

  it('logs a failed query with its SQL but without its parameters, the transcript or the email', async () => {
    const email = 'leak@example.com';
    await login(t.app, email);
    const setId = (await setIds(t.app)).get(1);
    await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
    poisonRating = true;
    lines.length = 0;
    const answer = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts: [{ role: 'interviewee', transcript: SECRET_ANSWER }], durationSeconds: 5, questionSetId: setId },
    });
    poisonRating = false;
    expect(answer).toEqual(
      expect.objectContaining({ status: 500, body: { error: 'Something went wrong on our side. Please try again.' } }),
    );
    const log = lines.join('');
    expect(log).toContain('update \\"events\\"');
    expect(log).not.toContain('leak@example.com');
    expect(log).not.toContain(SECRET_ANSWER);
    expect(log).not.toMatch(/params/i);
  });
});

describe('serializeError', () => {
  it('keeps the type, the SQL and the frames; drops parameters, details and emails', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "accounts_email_key"'), {
      code: '23505',
      detail: 'Key (email)=(a@b.example) already exists.',
    });
    const error = Object.assign(new Error('Failed query: insert into "accounts" ("email") values ($1)\nparams: a@b.example,secret words'), {
      query: 'insert into "accounts" ("email") values ($1)',
      params: ['a@b.example', 'secret words'],
      cause,
    });
    const out = JSON.stringify(serializeError(error));
    expect(out).toContain('insert into \\"accounts\\"');
    expect(out).toContain('23505');
    expect(out).not.toContain('a@b.example');
    expect(out).not.toContain('secret words');
    expect(serializeError(new Error('user x@y.example failed'))).toMatchObject({ message: 'user [email] failed' });
  });
});
