/**
 * docs/product-rules.md, Topic tiles: a rated interview completes its level only when it answered
 * every question of the set and scored at least LEVEL_PASS_SCORE (50 here). Over HTTP, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { call, FIXTURE_SETS, login, setIds } from '../../test-support/fixtures';

const CLOSURE = 'What is a closure?';
const EVENT_LOOP = 'How does the event loop work?';
const GOOD = {
  closure: 'A closure is a function that keeps access to the variables of its outer scope.',
  loop: 'The event loop runs queued tasks one at a time, and microtasks run after each task.',
};
/** Two sets of one topic, the first with key points the rubric rater can credit (docs/question-sets.md). */
const SETS = [
  {
    ...FIXTURE_SETS[0]!,
    questions: [CLOSURE, EVENT_LOOP],
    modelAnswers: [
      `### 1. ${CLOSURE}`,
      GOOD.closure,
      '**Key points:** a function keeps access to the variables of its outer scope',
      `### 2. ${EVENT_LOOP}`,
      GOOD.loop,
      '**Key points:** the event loop runs queued tasks one at a time; microtasks run after each task',
    ].join('\n\n'),
  },
  FIXTURE_SETS[1]!,
];

describeDatabases('level completion', (database) => {
  let t: TestApp;
  let ids: Map<number, number>;
  const set = (index: number) => ids.get(index) ?? -1;

  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: SETS, config: { levelPassScore: 50, freeSessionLimit: 10 } });
    ids = await setIds(t.app);
  }, 300_000);
  afterAll(() => t.close());

  async function rate(email: string, answers: Array<[string, string]>) {
    const token = await call<{ sessionId: string }>(t.app, 'GET', `/interview/token?questionSetId=${set(1)}`, { email });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    const transcripts = answers.flatMap(([question, answer]) => [
      { role: 'interviewer', transcript: question },
      { role: 'interviewee', transcript: answer },
    ]);
    const rated = await call<{ score: number; level: { completed: boolean; unanswered: string[]; scoreBelow: number | null } }>(
      t.app,
      'POST',
      '/interview/rate-transcript',
      { email, body: { transcripts, durationSeconds: 90, questionSetId: set(1), sessionId: token.body.sessionId } },
    );
    expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    return rated.body;
  }

  const levels = async (email: string) =>
    (await call<{ topicLevels: Record<string, number> }>(t.app, 'POST', '/user/login', { body: { email } })).body.topicLevels;
  const set2 = async (email: string) => (await call(t.app, 'GET', `/interview/token?questionSetId=${set(2)}`, { email })).status;

  it('an interview that left a question unanswered does not complete the level, and says which', async () => {
    const email = 'half@example.com';
    await login(t.app, email);
    const rated = await rate(email, [[CLOSURE, GOOD.closure]]);
    expect(rated.level).toEqual({ completed: false, unanswered: [EVENT_LOOP], scoreBelow: rated.score < 50 ? 50 : null });
    expect(await levels(email)).toEqual({});
    expect(await set2(email)).toBe(403);
  });

  it('every question answered but below LEVEL_PASS_SCORE does not complete it either', async () => {
    const email = 'thin@example.com';
    await login(t.app, email);
    const thin = 'I think it is something about functions in general.';
    const rated = await rate(email, [
      [CLOSURE, thin],
      [EVENT_LOOP, thin],
    ]);
    expect(rated.score).toBeLessThan(50);
    expect(rated.level).toEqual({ completed: false, unanswered: [], scoreBelow: 50 });
    expect(await levels(email)).toEqual({});
  });

  it('every question answered at the minimum score completes it and opens the next set', async () => {
    const email = 'whole@example.com';
    await login(t.app, email);
    const rated = await rate(email, [
      [CLOSURE, GOOD.closure],
      [EVENT_LOOP, GOOD.loop],
    ]);
    expect(rated.score).toBeGreaterThanOrEqual(50);
    expect(rated.level).toEqual({ completed: true, unanswered: [], scoreBelow: null });
    expect(await levels(email)).toEqual({ JavaScript: 1 });
    expect(await set2(email)).toBe(200);
  });
});

describe('LEVEL_PASS_SCORE', () => {
  it('defaults to 0', async () => {
    const { loadConfig } = await import('../config');
    expect(loadConfig({}).levelPassScore).toBe(0);
    expect(() => loadConfig({ LEVEL_PASS_SCORE: '101' })).toThrow(/LEVEL_PASS_SCORE/);
  });
});
