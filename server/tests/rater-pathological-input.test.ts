/**
 * No transcript can make the built-in rater take more than linear time (docs/decisions/016-rater-measured-on-people.md): long
 * runs of one letter (the stemmer once recursed per "y"), a whole entry without spaces, words
 * joined by punctuation, many distinct long words. Rated over HTTP on both databases, within a
 * time bound (after the model has loaded) far below what a super-linear path would take, while the server keeps answering.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RateResponse } from '../../contract';
import { call, login, setIds } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';

/** Deterministic letters (a small LCG), so every run rates the same text. */
function letters(seed: number, length: number): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += String.fromCharCode(97 + (x % 26));
  }
  return out;
}

/** Words of 41-90 letters, all distinct, separated by spaces, about `chars` long. */
function longWords(seed: number, chars: number): string {
  const words: string[] = [];
  let size = 0;
  for (let i = 0; size < chars - 100; i++) {
    const word = letters(seed + i * 7919, 41 + (i % 50));
    words.push(word);
    size += word.length + 1;
  }
  return words.join(' ');
}

/** A set with key points, so the test can see which statement still earns one. */
const SETS = [
  {
    name: 'JavaScript',
    index: 1,
    isPremium: false,
    requiresFeedback: false,
    instructions: '',
    questions: ['What is a closure?', 'How does the event loop work?'],
    modelAnswers: [
      '### 1. What is a closure?',
      '',
      'A closure is a function that keeps access to the variables of its outer scope.',
      '',
      '**Key points:** a function keeps access to its outer scope variables',
      '',
      '### 2. How does the event loop work?',
      '',
      'The event loop runs tasks, and all microtasks after each task.',
      '',
      '**Key points:** microtasks run before the next task',
    ].join('\n'),
  },
];

const ENTRY = 20_000;
const PATHOLOGICAL = [
  // The reported attack: a run of 12,500 "y"s (stack overflow) and runs of 1,000 (quadratic).
  `A closure keeps access to the variables of its outer function ${'y'.repeat(12_500)} even after it returns.`,
  Array.from({ length: 7 }, () => 'y'.repeat(1_000)).join(' '),
  // 100 KB without a single space: one letter, words joined by dots and commas, digits, mixed case.
  'y'.repeat(ENTRY),
  Array.from({ length: ENTRY / 2 }, (_, i) => (i % 2 ? 'closure' : 'um').slice(0, 1))
    .join('.')
    .padEnd(ENTRY, 'a')
    .slice(0, ENTRY),
  'const,um,'.repeat(ENTRY / 9).slice(0, ENTRY),
  '1234567890'.repeat(ENTRY / 10),
  'aB'.repeat(ENTRY / 2),
  // Many distinct long words.
  longWords(1, ENTRY),
  longWords(2, ENTRY),
];

describeDatabases('the rater on pathological input', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: SETS });
  }, 300_000);
  afterAll(() => t.close());

  /** One ordinary rating first, so the rater's workers have loaded the sentence model before the clock starts. */
  async function warmUp(setId: number | undefined): Promise<void> {
    const email = `warm-up-${database}@example.com`;
    await login(t.app, email);
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email })).status).toBe(200);
    const warm = await call(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: {
        transcripts: [{ role: 'interviewee', transcript: 'A closure keeps its outer scope.' }],
        durationSeconds: 60,
        questionSetId: setId,
      },
    });
    expect(warm.status).toBe(200);
  }

  // The bound is far above a linear rating (well under a second on an idle machine) and far below
  // what a super-linear path takes (minutes): it catches the blow-up, not the machine's load.
  it('rates a transcript of pathological tokens in a few seconds, not minutes, and the server keeps answering', async () => {
    const email = `pathological-${database}@example.com`;
    const setId = (await setIds(t.app)).get(1);
    await warmUp(setId);
    await login(t.app, email);
    expect((await call(t.app, 'GET', `/interview/token?questionSetId=${setId}`, { email })).status).toBe(200);
    const transcripts = [
      { role: 'interviewer', transcript: 'What is a closure?' },
      ...PATHOLOGICAL.map((transcript) => ({ role: 'interviewee', transcript })),
      { role: 'interviewer', transcript: 'How does the event loop work?' },
      { role: 'interviewee', transcript: `${'y'.repeat(12_500)} ${longWords(3, 7_000)}` },
    ];
    const total = transcripts.reduce((n, e) => n + e.transcript.length, 0);
    expect(total).toBeGreaterThan(170_000);
    expect(total).toBeLessThanOrEqual(200_000);

    const started = performance.now();
    const rating = await call<RateResponse>(t.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { transcripts, durationSeconds: 600, questionSetId: setId },
    });
    const ms = performance.now() - started;
    expect(rating.status, JSON.stringify(rating.body).slice(0, 300)).toBe(200);
    expect(ms).toBeLessThan(10_000);
    expect(rating.body.breakdown.map((b) => b.question)).toEqual(['What is a closure?', 'How does the event loop work?']);
    // The one real sentence still earns its point; the rest is no answer.
    expect(rating.body.breakdown[0]!.covered).toEqual(['a function keeps access to its outer scope variables']);
    expect(rating.body.breakdown[1]!.covered).toEqual([]);
    expect(rating.body.breakdown[1]!.verdict).toBe('Not a real answer');
    expect((await call(t.app, 'GET', '/healthz')).status).toBe(200);
  }, 60_000);
});
