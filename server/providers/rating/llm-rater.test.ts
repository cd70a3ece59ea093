import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../../test-support/fake-llm-server';
import { deliveryFigures, formatDeliveryMarkdown } from '../../rater';
import { createLlmClient } from '../upstream/llm-client';
import { createLlmRater, ratingJsonSchema } from './llm-rater';
import { createRubricRater } from '../../rater';
import type { RatingInput } from '../types';
import type { QuestionSetRecord } from '../../db/schema';

const set: QuestionSetRecord = {
  id: 1,
  name: 'JavaScript',
  index: 1,
  isPremium: false,
  requiresFeedback: false,
  questions: ['What is a closure?', 'How does the event loop work?'],
  instructions: '',
  modelAnswers: [
    '### 1. What is a closure?',
    'A function bundled with its lexical scope.',
    '',
    '**Key points:** a function plus its lexical scope; keeps access to outer variables',
    '',
    '### 2. How does the event loop work?',
    'It runs tasks from queues when the call stack is empty; microtasks first.',
    '',
    '**Key points:** runs callbacks when the call stack is empty; microtasks before tasks',
  ].join('\n'),
};

const input: RatingInput = {
  set,
  durationSeconds: 95,
  transcripts: [
    { role: 'interviewer', transcript: 'Hello! What is a closure?', at: 1000 },
    { role: 'interviewee', transcript: 'Um, a closure is a function that keeps access to its outer scope, basically.', at: 12_000 },
    { role: 'interviewer', transcript: 'How does the event loop work?', at: 14_000 },
    { role: 'interviewee', transcript: 'I am not sure, it runs callbacks later?', at: 30_000 },
  ],
};

const good = {
  summary: 'You explained closures well but were unsure about the event loop.',
  questions: [
    { number: 2, credits: [], feedback: 'Mention the call stack and the microtask queue.' },
    {
      number: 1,
      credits: [
        { keyPoint: 'a function plus its lexical scope', quote: 'a closure is a function that keeps access to its outer scope' },
        { keyPoint: 'keeps access to outer variables', quote: 'a function that keeps access to its outer scope' },
      ],
      feedback: 'Clear and correct.',
    },
  ],
  improvements: ['Practise explaining the event loop with an example.'],
};

let llm: FakeLlmServer;
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => {
  llm.requests.length = 0;
  llm.setFallback({ status: 500, message: 'nothing scripted' });
});

const fallbacks: Error[] = [];
const rater = (timeoutMs = 5000) =>
  createLlmRater({
    client: createLlmClient({ baseUrl: llm.baseUrl, apiKey: 'sk-test', model: 'gpt-test' }, { timeoutMs }),
    fallback: createRubricRater(),
    sleep: async () => undefined,
    onFallback: (e) => fallbacks.push(e),
  });

describe('llm rater', () => {
  it("sends the model answers without the word matcher's phrasing lists", async () => {
    llm.enqueue({ content: JSON.stringify(good) });
    const withBlocks = `${set.modelAnswers}\n\n**Also accepted:**\n- 1: callbacks wait for an empty stack\n\n**Contradicted by:**\n- 1: callbacks run in parallel threads`;
    await rater().rate({ ...input, set: { ...set, modelAnswers: withBlocks } });
    const prompt = (llm.requests[0]?.body as { messages: Array<{ content: string }> }).messages[1]?.content ?? '';
    expect(prompt).toContain('**Key points:** runs callbacks when the call stack is empty; microtasks before tasks');
    expect(prompt).not.toContain('Also accepted');
    expect(prompt).not.toContain('callbacks run in parallel threads');
  });

  it('asks for a strict JSON schema and writes verdicts, quotes, improvements and delivery figures', async () => {
    llm.enqueue({ content: JSON.stringify(good) });
    const result = await rater().rate(input);
    const body = llm.requests[0]?.body as { response_format: unknown; messages: Array<{ content: string }> };
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'interview_rating', strict: true, schema: ratingJsonSchema },
    });
    expect(body.messages[1]?.content).toContain('Candidate: I am not sure, it runs callbacks later?');
    expect(body.messages[1]?.content).toContain('microtasks first');
    // Computed by the server from the verified credits: 2 of 2 and 0 of 2 key points.
    expect(result.score).toBe(50);
    expect(result.rater).toBe('llm:gpt-test');
    expect(result.breakdown).toEqual([
      {
        question: 'What is a closure?',
        verdict: 'Answered well',
        score: 100,
        covered: ['a function plus its lexical scope', 'keeps access to outer variables'],
        missed: [],
        evidence: ['a closure is a function that keeps access to its outer scope', 'a function that keeps access to its outer scope'],
      },
      {
        question: 'How does the event loop work?',
        verdict: 'Thin answer',
        score: 0,
        covered: [],
        missed: ['runs callbacks when the call stack is empty', 'microtasks before tasks'],
        evidence: [],
      },
    ]);
    const delivery = formatDeliveryMarkdown(deliveryFigures(input.transcripts, input.durationSeconds));
    expect(result.markdown).toBe(
      [
        '## Summary',
        '',
        'You explained closures well but were unsure about the event loop.',
        '',
        '**Score: 50/100**',
        '',
        '## Question by question',
        '',
        '### 1. What is a closure?',
        '',
        '**Answered well** (100/100)',
        '',
        '**What went well:** you covered 2 of 2 key points:',
        '',
        '- a function plus its lexical scope. You said: "a closure is a function that keeps access to its outer scope"',
        '- keeps access to outer variables. You said: "a function that keeps access to its outer scope"',
        '',
        '**What to add:** nothing essential is missing.',
        '',
        'Clear and correct.',
        '',
        '### 2. How does the event loop work?',
        '',
        '**Thin answer** (0/100)',
        '',
        '**What went well:** you gave an answer, but none of its sentences states a key point of this question.',
        '',
        '**What to add:** runs callbacks when the call stack is empty; microtasks before tasks.',
        '',
        'Mention the call stack and the microtask queue.',
        '',
        '## What to improve',
        '',
        '- Practise explaining the event loop with an example.',
        '',
        delivery,
        '',
        '---',
        '',
        '_Feedback written by the language model gpt-test; each credited key point was checked against your own words._',
      ].join('\n'),
    );
  });

  it('drops credits whose quote the candidate never said, or for a point that is not a key point, and scores only what is left', async () => {
    const inventing = {
      ...good,
      questions: [
        {
          number: 1,
          credits: [
            {
              keyPoint: 'a function plus its lexical scope',
              quote: 'closures capture variables by reference in the enclosing lexical environment',
            },
            // A real quote, fuzzily copied (a dropped filler word, different punctuation and case).
            { keyPoint: 'Keeps access to outer variables.', quote: 'A closure is a function that keeps access to its outer scope' },
          ],
          feedback: 'Excellent.',
        },
        {
          number: 2,
          credits: [
            {
              keyPoint: 'runs callbacks when the call stack is empty',
              quote: 'the event loop runs callbacks when the call stack is empty',
            },
            { keyPoint: 'microtasks before tasks', quote: 'microtasks always run before the next task' },
            { keyPoint: 'an invented key point', quote: 'it runs callbacks later' },
          ],
          feedback: 'Perfect.',
        },
      ],
    };
    llm.enqueue({ content: JSON.stringify(inventing) });
    const result = await rater().rate(input);
    expect(result.breakdown.map((b) => [b.covered, b.evidence])).toEqual([
      [['keeps access to outer variables'], ['A closure is a function that keeps access to its outer scope']],
      [[], []],
    ]);
    expect(result.score).toBe(25);
    expect(result.markdown).not.toContain('capture variables by reference');
    expect(result.markdown).not.toContain('when the call stack is empty. You said');
  });

  it('keeps the rubric verdict for keyword salad, whatever the model credits', async () => {
    const salad: RatingInput = {
      set,
      durationSeconds: 30,
      transcripts: [
        { role: 'interviewer', transcript: 'What is a closure?' },
        {
          role: 'interviewee',
          transcript: 'function lexical scope outer variables access closure function scope keeps bundled inner returns',
        },
      ],
    };
    llm.enqueue({
      content: JSON.stringify({
        ...good,
        questions: [
          {
            number: 1,
            credits: [{ keyPoint: 'a function plus its lexical scope', quote: 'function lexical scope outer variables' }],
            feedback: 'Great.',
          },
          { number: 2, credits: [], feedback: '' },
        ],
      }),
    });
    const result = await rater().rate(salad);
    expect(result.breakdown[0]).toMatchObject({ verdict: 'Not a real answer', covered: [] });
    expect(result.breakdown[0]!.score).toBeLessThanOrEqual(10);
  });

  it('retries malformed or out-of-range answers, then succeeds', async () => {
    llm.enqueue(
      { content: 'not json at all' },
      { content: JSON.stringify({ ...good, questions: [{ number: 1, credits: 'all of them', feedback: '' }, good.questions[0]] }) },
      { content: JSON.stringify({ ...good, questions: [good.questions[0]] }) },
      { content: JSON.stringify(good) },
    );
    await expect(
      createLlmRater({
        client: createLlmClient({ baseUrl: llm.baseUrl, apiKey: null, model: 'm' }),
        fallback: createRubricRater(),
        retries: 3,
        sleep: async () => undefined,
      }).rate(input),
    ).resolves.toMatchObject({ score: 50, rater: 'llm:m' });
    expect(llm.requests).toHaveLength(4);
  });

  it('asks again without the schema when the endpoint refuses response_format', async () => {
    llm.setFallback({
      decide: (r) =>
        r.body.response_format
          ? { status: 400, message: "response_format 'json_schema' is not supported" }
          : { content: `Here you go:\n${JSON.stringify(good)}` },
    });
    const result = await rater().rate(input);
    expect(result.rater).toBe('llm:gpt-test');
    expect(llm.requests.map((r) => Boolean(r.body.response_format))).toEqual([true, false]);
    expect((llm.requests[1]?.body as { messages: Array<{ content: string }> }).messages[0]?.content).toContain(
      'Answer ONLY with one JSON object matching this JSON schema',
    );
  });

  it('also asks without the schema on a server error that names response_format', async () => {
    llm.setFallback({
      decide: (r) =>
        r.body.response_format ? { status: 500, message: 'Unsupported response_format type' } : { content: JSON.stringify(good) },
    });
    expect((await rater().rate(input)).rater).toBe('llm:gpt-test');
    expect(llm.requests.map((r) => Boolean(r.body.response_format))).toEqual([true, false]);
  });

  it('falls back to the rubric rating after bounded retries and says so', async () => {
    fallbacks.length = 0;
    llm.setFallback({ status: 503, message: 'overloaded' });
    const result = await rater().rate(input);
    const rubric = await createRubricRater().rate(input);
    expect(llm.requests).toHaveLength(3);
    expect(result.score).toBe(rubric.score);
    const origin = new URL(llm.baseUrl).origin;
    // The candidate reads no address and no upstream text; the admin's rater field has them.
    expect(result.markdown).toBe(
      `> The AI rater could not rate this interview, so this feedback comes from the built-in rubric rater.\n\n${rubric.markdown}`,
    );
    expect(result.markdown).not.toContain(origin);
    expect(result.rater).toBe(`rubric (llm:gpt-test failed: The language model endpoint (${origin}) answered HTTP 503: overloaded)`);
    expect(fallbacks.map((e) => e.message)).toEqual([`The language model endpoint (${origin}) answered HTTP 503: overloaded`]);
  });

  it('does not retry a rejected key, and gives up on a slow endpoint', async () => {
    llm.enqueue({ status: 401, message: 'bad key' });
    expect((await rater().rate(input)).rater).toMatch(/^rubric \(llm:gpt-test failed: .*rejected the API key \(HTTP 401\)/);
    expect(llm.requests).toHaveLength(1);

    llm.requests.length = 0;
    llm.setFallback({ delayMs: 1000, then: { content: JSON.stringify(good) } });
    const slow = await rater(200).rate(input);
    expect(slow.rater).toContain('did not answer within 0.2 seconds');
    expect(slow.markdown).not.toContain('did not answer');
    expect(llm.requests).toHaveLength(3);
  });

  it('leaves a transcript without a word from the candidate to the rubric, without asking the model', async () => {
    const silent: RatingInput = { set, durationSeconds: 20, transcripts: [{ role: 'interviewer', transcript: 'What is a closure?' }] };
    const result = await rater().rate(silent);
    expect(result).toEqual(await createRubricRater().rate(silent));
    expect(llm.requests).toHaveLength(0);
  });
});
