/**
 * The question-set editor's helpers over HTTP on both databases: "Try an answer" (the built-in
 * rater key point by key point, and the language-model rater when asked) and "Suggest phrasings"
 * (drafts from the language model, cleaned and never saved), with a local OpenAI-compatible server
 * in place of the model; the budget, the rate limit, and the answers without a model.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '../../test-support/fake-llm-server';
import { FIXTURE_SETS } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { LANGUAGE_MODEL_OFF, NO_LANGUAGE_MODEL } from '../services/admin';

const KEY_POINTS = '**Key points:** keeps access to its outer scope; created when the function is defined';
const draft = {
  name: 'Closures draft',
  index: 1,
  isPremium: false,
  requiresFeedback: false,
  instructions: '',
  questions: ['What is a closure?'],
  modelAnswers: [
    '### 1. What is a closure?',
    '',
    'A function with the variables of the scope it was made in.',
    '',
    KEY_POINTS,
    '',
    '**Also accepted:**',
    '',
    '- keeps access to its outer scope: remembers the variables around it',
    '',
    '**Contradicted by:**',
    '',
    '- keeps access to its outer scope: copies the outer variables',
  ].join('\n'),
};

interface Answer<T> {
  status: number;
  body: T;
}

/** Real HTTP to the listening app, as the admin web app calls it. */
async function send<T>(t: TestApp, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { 'x-admin-secret': t.config.adminSecret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

interface Tried {
  verdict: string;
  score: number;
  rater: string;
  covered: string[];
  keyPoints: Array<{ point: string; outcome: string; said: string | null; closeness: number | null }>;
  statements: string[];
  languageModel: { rater: string; covered: string[]; evidence: string[]; score: number } | null;
}

const isDrafting = (request: RecordedRequest) =>
  (request.body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === 'key_point_phrasings';
const userMessage = (request: RecordedRequest | undefined) =>
  ((request?.body.messages as Array<{ role: string; content: string }> | undefined) ?? []).find((m) => m.role === 'user')?.content ?? '';

describeDatabases('the question-set editor helpers', (database) => {
  describe('with a language model configured', () => {
    let llm: FakeLlmServer;
    let t: TestApp;
    const BUDGET = 5;

    beforeAll(async () => {
      llm = await startFakeLlmServer();
      t = await createTestApp({
        database,
        listen: true,
        questionSets: FIXTURE_SETS,
        config: { llmBaseUrl: llm.baseUrl, llmModel: 'fake-model', editorLlmCallsPerHour: BUDGET },
      });
    }, 300_000);
    afterAll(async () => {
      await t?.close();
      await llm?.close();
    });
    beforeEach(() => {
      llm.requests.length = 0;
    });
    afterEach(() => {
      // Every request to the model bounds its answer (issue 33 item 6).
      for (const request of llm.requests) expect(request.body.max_tokens).toEqual(expect.any(Number));
    });

    it('says which model the helpers use', async () => {
      expect(await send(t, 'GET', '/api/admin/question-sets/assistant')).toEqual({
        status: 200,
        body: { languageModel: 'fake-model', unavailable: null, callsPerHour: BUDGET },
      });
    });

    it('tries an answer with the built-in rater key point by key point, without calling the model unless asked', async () => {
      const tried = await send<Tried>(t, 'POST', '/api/admin/question-sets/try-answer', {
        set: draft,
        questionNumber: 1,
        answer: 'A closure copies the outer variables. It is created when the function is defined.',
      });
      expect(tried.status).toBe(200);
      expect(tried.body).toMatchObject({ rater: 'rubric', covered: ['created when the function is defined'], languageModel: null });
      expect(tried.body.keyPoints).toEqual([
        {
          point: 'keeps access to its outer scope',
          outcome: 'contradicted',
          said: 'A closure copies the outer variables.',
          closeness: null,
        },
        {
          point: 'created when the function is defined',
          outcome: 'credited',
          said: 'It is created when the function is defined.',
          closeness: expect.any(Number) as number,
        },
      ]);
      expect(tried.body.statements).toEqual(['A closure copies the outer variables.', 'It is created when the function is defined.']);
      expect(llm.requests).toHaveLength(0);

      // An accepted phrasing credits its point.
      const phrased = await send<Tried>(t, 'POST', '/api/admin/question-sets/try-answer', {
        set: draft,
        questionNumber: 1,
        answer: 'It remembers the variables around it.',
      });
      expect(phrased.body.keyPoints[0]).toMatchObject({ outcome: 'credited', said: 'It remembers the variables around it.' });
      expect(phrased.body.keyPoints[1]).toMatchObject({ outcome: expect.stringMatching(/^(missed|close)$/) as string });
    });

    it('asks the language-model rater too when told, and shows what it credited', async () => {
      llm.enqueue({
        content: JSON.stringify({
          summary: 'Good.',
          questions: [
            {
              number: 1,
              credits: [
                { keyPoint: 'keeps access to its outer scope', quote: 'the inner function still sees the variables of its parent' },
                { keyPoint: 'created when the function is defined', quote: 'an invented quote' },
              ],
              feedback: 'Fine.',
            },
          ],
          improvements: [],
        }),
      });
      const tried = await send<Tried>(t, 'POST', '/api/admin/question-sets/try-answer', {
        set: draft,
        questionNumber: 1,
        answer: 'The inner function still sees the variables of its parent.',
        languageModel: true,
      });
      expect(tried.status).toBe(200);
      expect(tried.body.rater).toBe('rubric');
      expect(tried.body.languageModel).toMatchObject({
        rater: 'llm:fake-model',
        covered: ['keeps access to its outer scope'],
        evidence: ['the inner function still sees the variables of its parent'],
        score: 50,
      });
      expect(llm.requests).toHaveLength(1);
      expect(userMessage(llm.requests[0])).toContain('Candidate: The inner function still sees the variables of its parent.');
    });

    it('suggests phrasings for one key point: cleaned, new ones only, nothing saved', async () => {
      llm.enqueue({
        content: JSON.stringify({
          accepted: [
            'still sees the outer scope',
            'Keeps access to its outer scope.',
            'remembers the variables around it',
            'holds on to **its** parent | variables',
            'x',
            'STILL SEES THE OUTER SCOPE',
          ],
          contradicted: ['copies the outer variables', 'a closure is a kind of class', 'still sees the outer scope'],
        }),
      });
      const before = (await send<unknown[]>(t, 'GET', '/api/admin/question-sets')).body;
      const suggested = await send(t, 'POST', '/api/admin/question-sets/suggest-phrasings', {
        set: draft,
        questionNumber: 1,
        keyPoint: 'Keeps access to its outer scope',
      });
      expect(suggested).toEqual({
        status: 200,
        body: {
          keyPoint: 'keeps access to its outer scope',
          accepted: ['still sees the outer scope', 'holds on to its parent variables'],
          contradicted: ['a closure is a kind of class'],
          drafter: 'llm:fake-model',
        },
      });
      expect(llm.requests).toHaveLength(1);
      const request = llm.requests[0];
      expect(request && isDrafting(request)).toBe(true);
      expect(request?.body.model).toBe('fake-model');
      const prompt = userMessage(request);
      expect(prompt).toContain('Question: What is a closure?');
      expect(prompt).toContain('Key point: keeps access to its outer scope');
      expect(prompt).toContain('Other key points of the question:\n- created when the function is defined');
      expect(prompt).toContain('Accepted phrasings it already has:\n- remembers the variables around it');
      expect(prompt).toContain('Contradictions it already has:\n- copies the outer variables');
      // The catalogue is as it was.
      expect((await send<unknown[]>(t, 'GET', '/api/admin/question-sets')).body).toEqual(before);
    });

    it('refuses a key point the question does not have, and says why when the model fails', async () => {
      expect(
        await send(t, 'POST', '/api/admin/question-sets/suggest-phrasings', { set: draft, questionNumber: 1, keyPoint: 'uses a class' }),
      ).toEqual({ status: 400, body: { error: 'Question 1 has no key point "uses a class".' } });
      expect(llm.requests).toHaveLength(0);

      llm.enqueue({ status: 500, message: 'overloaded' }, { status: 500, message: 'overloaded' });
      const failed = await send<{ error: string }>(t, 'POST', '/api/admin/question-sets/suggest-phrasings', {
        set: draft,
        questionNumber: 1,
        keyPoint: 'created when the function is defined',
      });
      expect(failed.status).toBe(502);
      expect(failed.body.error).toBe(
        `The language model could not draft phrasings: The language model endpoint (${new URL(llm.baseUrl).origin}) answered HTTP 500: overloaded`,
      );
      expect(llm.requests).toHaveLength(2);
    });

    it(`stops at EDITOR_LLM_CALLS_PER_HOUR requests to the model, retries counted, the built-in rater still answering`, async () => {
      // Four requests so far: one tried answer, one suggestion, and a failed one with its retry
      // (three calls of ours; issue 33 item 6: the budget counted calls, not requests). The budget is five.
      llm.setFallback({ content: JSON.stringify({ accepted: ['still sees the outer scope'], contradicted: [] }) });
      const suggest = () =>
        send<{ error?: string }>(t, 'POST', '/api/admin/question-sets/suggest-phrasings', {
          set: draft,
          questionNumber: 1,
          keyPoint: 'keeps access to its outer scope',
        });
      expect((await suggest()).status).toBe(200);
      const refused = await suggest();
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(
        /^The editor's language-model budget of 5 calls an hour \(EDITOR_LLM_CALLS_PER_HOUR, all admins together\) is used up\. Try again in (60|59) minutes\.$/,
      );
      expect(llm.requests).toHaveLength(1);
      // The language-model rater is refused too, with the same sentence (not the rubric's answer in its place).
      const judged = await send<{ error?: string }>(t, 'POST', '/api/admin/question-sets/try-answer', {
        set: draft,
        questionNumber: 1,
        answer: 'It is created when the function is defined.',
        languageModel: true,
      });
      expect(judged.status).toBe(429);
      expect(judged.body.error).toBe(refused.body.error);
      expect(llm.requests).toHaveLength(1);
      const tried = await send<Tried>(t, 'POST', '/api/admin/question-sets/try-answer', {
        set: draft,
        questionNumber: 1,
        answer: 'It is created when the function is defined.',
      });
      expect(tried.status).toBe(200);
    });
  });

  describe('the size of what the editor sends (issue 33 item 6)', () => {
    let llm: FakeLlmServer;
    let t: TestApp;
    const CHARS = 12_000;

    beforeAll(async () => {
      llm = await startFakeLlmServer();
      t = await createTestApp({
        database,
        listen: true,
        questionSets: FIXTURE_SETS,
        config: { llmBaseUrl: llm.baseUrl, llmModel: 'fake-model', editorLlmCallsPerHour: 100, editorLlmPromptCharsPerHour: CHARS },
      });
    }, 300_000);
    afterAll(async () => {
      await t?.close();
      await llm?.close();
    });

    it('sends no request larger than the cap: 413 with a sentence, nothing sent', async () => {
      const huge = { ...draft, modelAnswers: `${draft.modelAnswers}\n\n${'A closure keeps the scope it was made in. '.repeat(1600)}` };
      const tried = await send<{ error?: string }>(t, 'POST', '/api/admin/question-sets/try-answer', {
        set: huge,
        questionNumber: 1,
        answer: 'It keeps access to its outer scope.',
        languageModel: true,
      });
      expect(tried.status).toBe(413);
      expect(tried.body.error).toMatch(
        /^This would send [\d,]+ characters to the language model in one request; the editor sends at most 60,000\. Shorten the set's model answers or the answer, or try it with the built-in rater\.$/,
      );
      expect(llm.requests).toHaveLength(0);
    });

    it('counts the characters of every request against EDITOR_LLM_PROMPT_CHARS_PER_HOUR', async () => {
      llm.setFallback({ content: JSON.stringify({ accepted: ['still sees the outer scope'], contradicted: [] }) });
      const answers: Array<{ status: number; body: { error?: string } }> = [];
      for (let i = 0; i < 20 && !answers.some((a) => a.status === 429); i++) {
        answers.push(
          await send<{ error?: string }>(t, 'POST', '/api/admin/question-sets/suggest-phrasings', {
            set: draft,
            questionNumber: 1,
            keyPoint: 'keeps access to its outer scope',
          }),
        );
      }
      const refused = answers.at(-1);
      expect(refused?.status).toBe(429);
      expect(refused?.body.error).toMatch(
        /^The editor's language-model budget of 12,000 characters an hour \(EDITOR_LLM_PROMPT_CHARS_PER_HOUR, all admins together\) is used up\. Try again in (60|59) minutes\.$/,
      );
      // What was sent stays within the hour's characters.
      const sent = llm.requests.reduce((sum, r) => sum + JSON.stringify(r.body).length, 0);
      expect(sent).toBeLessThanOrEqual(CHARS);
      expect(llm.requests.length).toBe(answers.length - 1);
      expect(answers.length).toBeGreaterThan(1);
    });
  });

  describe('without a language model', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ database, listen: true, questionSets: FIXTURE_SETS });
    }, 300_000);
    afterAll(() => t?.close());

    it('says why "Suggest phrasings" is unavailable, and tries answers with the built-in rater', async () => {
      expect(await send(t, 'GET', '/api/admin/question-sets/assistant')).toEqual({
        status: 200,
        body: { languageModel: null, unavailable: NO_LANGUAGE_MODEL, callsPerHour: 60 },
      });
      expect(
        await send(t, 'POST', '/api/admin/question-sets/suggest-phrasings', {
          set: draft,
          questionNumber: 1,
          keyPoint: 'keeps access to its outer scope',
        }),
      ).toEqual({ status: 409, body: { error: NO_LANGUAGE_MODEL } });
      const body = { set: draft, questionNumber: 1, answer: 'It is created when the function is defined.' };
      expect(await send(t, 'POST', '/api/admin/question-sets/try-answer', { ...body, languageModel: true })).toEqual({
        status: 409,
        body: { error: NO_LANGUAGE_MODEL },
      });
      expect(await send(t, 'POST', '/api/admin/question-sets/try-answer', body)).toMatchObject({
        status: 200,
        body: { rater: 'rubric', covered: ['created when the function is defined'], languageModel: null },
      });
    });

    it('limits suggestions to 10 a minute per client address', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        statuses.push(
          (
            await send(t, 'POST', '/api/admin/question-sets/suggest-phrasings', {
              set: draft,
              questionNumber: 1,
              keyPoint: 'keeps access to its outer scope',
            })
          ).status,
        );
      }
      // The first call of the previous test counted too.
      expect(statuses.filter((s) => s === 409)).toHaveLength(9);
      expect(statuses.slice(9)).toEqual([429, 429]);
    });

    it('refuses a secretless call before anything else', async () => {
      const response = await fetch(`${t.baseUrl}/api/admin/question-sets/assistant`);
      expect(response.status).toBe(401);
    });
  });
});

describe('an editor whose language-model calls are turned off', () => {
  let llm: FakeLlmServer;
  let t: TestApp;
  beforeAll(async () => {
    llm = await startFakeLlmServer();
    t = await createTestApp({
      database: 'pglite',
      listen: true,
      questionSets: FIXTURE_SETS,
      config: { llmBaseUrl: llm.baseUrl, llmModel: 'fake-model', editorLlmCallsPerHour: 0 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('says so and never calls the model', async () => {
    expect((await send(t, 'GET', '/api/admin/question-sets/assistant')).body).toEqual({
      languageModel: 'fake-model',
      unavailable: LANGUAGE_MODEL_OFF,
      callsPerHour: 0,
    });
    expect(
      await send(t, 'POST', '/api/admin/question-sets/suggest-phrasings', {
        set: draft,
        questionNumber: 1,
        keyPoint: 'keeps access to its outer scope',
      }),
    ).toEqual({ status: 409, body: { error: LANGUAGE_MODEL_OFF } });
    expect(llm.requests).toHaveLength(0);
  });
});

describe('an endpoint without JSON-schema support', () => {
  let llm: FakeLlmServer;
  let t: TestApp;
  beforeAll(async () => {
    llm = await startFakeLlmServer();
    llm.setFallback({
      decide: (request) =>
        request.body.response_format
          ? { status: 400, message: 'response_format is not supported by this server' }
          : { content: 'Here are some ideas:\n```json\n{"accepted": ["still sees the outer scope"], "contradicted": []}\n```' },
    });
    t = await createTestApp({
      database: 'pglite',
      listen: true,
      questionSets: FIXTURE_SETS,
      config: { llmBaseUrl: llm.baseUrl, llmModel: 'fake-model' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('is asked again without the schema, learned once, and its JSON read out of the prose', async () => {
    const body = { set: draft, questionNumber: 1, keyPoint: 'keeps access to its outer scope' };
    const first = await send(t, 'POST', '/api/admin/question-sets/suggest-phrasings', body);
    expect(first).toMatchObject({ status: 200, body: { accepted: ['still sees the outer scope'], contradicted: [] } });
    expect(llm.requests.map((r) => r.body.response_format !== undefined)).toEqual([true, false]);
    expect(userMessage(llm.requests[1])).toContain('Key point: keeps access to its outer scope');
    expect((llm.requests[1]?.body.messages as Array<{ content: string }>)[0]?.content).toContain('Answer ONLY with one JSON object');
    await send(t, 'POST', '/api/admin/question-sets/suggest-phrasings', body);
    expect(llm.requests.map((r) => r.body.response_format !== undefined)).toEqual([true, false, false]);
  });
});
