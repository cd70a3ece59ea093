import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../contract';
import { readCatalogue, type CatalogueSet } from '../catalogue/read-catalogue';
import { loadTranscriptFixture } from '../../test-support/transcripts/load-transcripts';
import { rateWithRubric } from './rubric-rater';
import { createRubricRater } from './built-in-rater';
import type { QuestionSetRecord } from '../db/schema';

const CATALOGUE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../content/question-sets');
const FIXTURES: Record<number, string> = {
  1: '01-javascript-fundamentals',
  2: '02-javascript-advanced',
  3: '03-react',
  4: '04-node-apis',
  5: '05-sql-databases',
  6: '06-behavioural',
  7: '07-system-design',
  8: '08-data-structures-algorithms',
};

let sets: CatalogueSet[] = [];
beforeAll(async () => {
  sets = await readCatalogue(CATALOGUE);
});
const record = (index: number): QuestionSetRecord => ({ ...sets.find((s) => s.index === index)!, id: index });

const SMALL_SET: QuestionSetRecord = {
  id: 9,
  name: 'Caching',
  index: 9,
  isPremium: false,
  requiresFeedback: false,
  instructions: '',
  questions: ['What is a cache and why would you use one?', 'How do you invalidate cached data?'],
  modelAnswers: [
    '### 1. What is a cache and why would you use one?',
    '',
    'A fast copy of data.',
    '',
    '**Key points:** fast copy of data; reduce latency; reduce load on the database',
    '',
    '### 2. How do you invalidate cached data?',
    '',
    'Expire it or delete it on write.',
    '',
    '**Key points:** time to live expiry; delete the key on write; race conditions between writers',
  ].join('\n'),
};

describe('rubric rater on the shipped catalogue', () => {
  it('has a strong, weak and empty fixture for every shipped set', () => {
    expect(sets.map((s) => s.index).sort((a, b) => a - b)).toEqual(Object.keys(FIXTURES).map(Number));
  });

  it.each(Object.entries(FIXTURES))('scores strong > weak > empty for set %s (%s)', async (index, file) => {
    const set = record(Number(index));
    const fixture = loadTranscriptFixture(file);
    const rater = createRubricRater();
    const [strong, weak, empty] = await Promise.all(
      (['strong', 'weak', 'empty'] as const).map((kind) => rater.rate({ set, transcripts: fixture[kind], durationSeconds: 900 })),
    );
    expect(strong!.score).toBeGreaterThanOrEqual(70);
    expect(weak!.score).toBeLessThan(25);
    expect(strong!.score).toBeGreaterThan(weak!.score);
    expect(weak!.score).toBeGreaterThan(empty!.score);
    expect(empty!.score).toBe(0);
    for (const result of [strong!, weak!, empty!]) {
      expect(result.rater).toBe('rubric');
      expect(result.markdown.startsWith(`# Interview feedback: ${set.name}\n\n**Score: ${result.score}/100**`)).toBe(true);
    }
    // Every question of the weak run was asked and answered, however thinly.
    expect(weak!.markdown).not.toContain('**Not answered**');
  });

  it('writes the exact Markdown for an empty session', () => {
    const set = record(1);
    const result = rateWithRubric({ set, transcripts: loadTranscriptFixture(FIXTURES[1]!).empty, durationSeconds: 42 });
    expect(result.breakdown.map((b) => [b.verdict, b.score, b.covered, b.evidence])).toEqual(
      set.questions.map(() => ['Not answered', 0, [], []]),
    );
    expect(result.breakdown[0]).toMatchObject({
      question: set.questions[0],
      missed: [
        'var is function scoped',
        'let and const are block scoped',
        'hoisting and the temporal dead zone',
        'const prevents reassignment but not mutation',
        'prefer const, then let',
      ],
    });
    expect({ ...result, breakdown: undefined }).toEqual({
      score: 0,
      rater: 'rubric',
      breakdown: undefined,
      markdown: [
        '# Interview feedback: JavaScript',
        '',
        '**Score: 0/100**',
        '',
        'No answers were recorded in this session, so there is nothing to rate yet. None of the 5 questions were answered. Start a new session and answer out loud (or type your answers) to get feedback.',
        '',
        '## Delivery',
        '',
        '- Words spoken: 0 (no spoken answers were recorded)',
      ].join('\n'),
    });
  });

  it('quotes the candidate and names missed key points in the strong JavaScript run', () => {
    const { markdown } = rateWithRubric({ set: record(1), transcripts: loadTranscriptFixture(FIXTURES[1]!).strong, durationSeconds: 600 });
    expect(markdown).toContain('You answered 5 of 5 questions: 5 answered well, 0 partly answered, 0 thin.');
    expect(markdown).toContain(
      '### 2. Can you explain what a closure is and give a practical example of where you would use one?\n\n**Answered well**',
    );
    expect(markdown).toContain(
      '- a function that remembers and carries the lexical scope it was created in. You said: "A closure is when a function remembers the lexical scope it was created in."',
    );
    expect(markdown).toContain('- Words spoken: 461 in 5 answers (about 92 words per answer)');
    expect(markdown).toContain('- Filler words: none heard');
  });

  it('uses the answer timings for pace when the transcript has them', () => {
    const { markdown } = rateWithRubric({ set: record(2), transcripts: loadTranscriptFixture(FIXTURES[2]!).weak, durationSeconds: 80 });
    // Six answers over 61 s of answer time (each measured from the line before it).
    expect(markdown).toContain('- Words spoken: 46 in 6 answers (about 8 words per answer)');
    expect(markdown).toContain('- Speaking pace: about 45 words per minute while answering (including pauses to think)');
    expect(markdown).toContain('- Filler words: 10 (9.7 per minute): "um" 2, "uh" 2, "like" 2, "basically" 2, "you know" 1, "sort of" 1');
  });
});

describe('rubric rater pairing and judging', () => {
  const say = (role: TranscriptEntry['role'], transcript: string): TranscriptEntry => ({ role, transcript });

  it('marks a skipped question "Not answered" and still rates the rest', () => {
    const result = rateWithRubric({
      set: SMALL_SET,
      durationSeconds: 0,
      transcripts: [
        say('interviewer', 'Hi! Before we start, how are you today?'),
        say('interviewee', 'Good thanks, a bit nervous.'),
        say('interviewer', 'Let us jump to this one: how do you invalidate cached data?'),
        say(
          'interviewee',
          'Every entry gets a time to live so it expires, and on write we delete the key. Two writers can race, so delete rather than update.',
        ),
      ],
    });
    expect(result.markdown).toContain(
      '### 1. What is a cache and why would you use one?\n\n**Not answered**\n\nYou did not answer this question in the session.\n\n**What a strong answer covers:** fast copy of data; reduce latency; reduce load on the database.',
    );
    expect(result.markdown).toContain('### 2. How do you invalidate cached data?\n\n**');
    expect(result.markdown).toContain(
      [
        '**What went well:** you covered 3 of 3 key points:',
        '',
        '- time to live expiry. You said: "Every entry gets a time to live so it expires, and on write we delete the key."',
        '- delete the key on write. You said: "Every entry gets a time to live so it expires, and on write we delete the key."',
        '- race conditions between writers. You said: "Two writers can race, so delete rather than update."',
      ].join('\n'),
    );
    expect(result.markdown).toContain('- Speaking pace: not available (the session had no timings)');
    // Question 1 counts as zero: the score is at most half.
    expect(result.score).toBeGreaterThan(0);
    expect(result.score).toBeLessThanOrEqual(50);
  });

  it('keeps follow-ups and paraphrased questions with the right question', () => {
    const result = rateWithRubric({
      set: SMALL_SET,
      durationSeconds: 120,
      transcripts: [
        say('interviewer', 'Welcome! So, tell me what a cache is, and why you would use one.'),
        say('interviewee', 'It is a fast copy of data.'),
        say('interviewer', 'Could you say more about what that buys you in a busy system?'),
        say('interviewee', 'It reduces latency and takes load off the database.'),
        say('interviewer', 'And how would you go about invalidating cached data?'),
        say('interviewee', 'I never do that.'),
      ],
    });
    expect(result.breakdown[0]).toEqual({
      question: SMALL_SET.questions[0],
      verdict: 'Answered well',
      score: expect.any(Number),
      covered: ['fast copy of data', 'reduce latency', 'reduce load on the database'],
      missed: [],
      evidence: [
        'It is a fast copy of data.',
        'It reduces latency and takes load off the database.',
        'It reduces latency and takes load off the database.',
      ],
    });
    expect(result.markdown).toContain('### 2. How do you invalidate cached data?\n\n**Thin answer**');
    expect(result.markdown).toContain(
      '**What went well:** you gave an answer, but none of its sentences states a key point of this question.',
    );
    expect(result.markdown).toContain('**What to add:** time to live expiry; delete the key on write; race conditions between writers.');
  });

  it('does not reward a long answer about something else', () => {
    const offTopic = [
      'I really enjoy hiking in the mountains with my family on weekends.',
      'We cook dinner together afterwards, usually a big pot of soup.',
      'Last summer we walked the whole ridge in two days and slept in a hut.',
      'My daughter carried her own backpack for the first time and was very proud of it.',
      'In winter we swap the boots for skis when there is enough snow.',
    ].join(' ');
    const result = rateWithRubric({
      set: SMALL_SET,
      durationSeconds: 300,
      transcripts: [
        say('interviewer', SMALL_SET.questions[0]!),
        say('interviewee', offTopic),
        say('interviewer', SMALL_SET.questions[1]!),
        say('interviewee', offTopic),
      ],
    });
    expect(result.score).toBeLessThan(15);
    expect(result.breakdown.map((b) => b.verdict)).toEqual(['Off topic', 'Off topic']);
    const repeated = 'I really enjoy hiking in the mountains with my family on weekends. '.repeat(8);
    const again = rateWithRubric({
      set: SMALL_SET,
      durationSeconds: 60,
      transcripts: [say('interviewer', SMALL_SET.questions[0]!), say('interviewee', repeated)],
    });
    expect(again.breakdown[0]!.verdict).toBe('Not a real answer');
    expect(again.markdown).toContain(
      'This did not read as an answer: a list of terms or the same words over and over earns no key points.',
    );
    expect(result.markdown).toContain(
      'This answer was about something else: it did not address the question, so it earned none of its key points.',
    );
  });

  it('pairs answers in order when only the candidate was transcribed', () => {
    const result = rateWithRubric({
      set: SMALL_SET,
      durationSeconds: 60,
      transcripts: [
        say('interviewee', 'A fast copy of data to reduce latency and database load.'),
        say('interviewee', 'Time to live expiry and deleting the key on write.'),
      ],
    });
    expect(result.markdown).not.toContain('**Not answered**');
    expect(result.score).toBeGreaterThan(50);
  });

  it('rates a 60-minute transcript quickly and deterministically', () => {
    const set = record(1);
    const strong = loadTranscriptFixture(FIXTURES[1]!).strong;
    const long: TranscriptEntry[] = [];
    for (let i = 0; i < 40; i++) long.push(...strong.map((e, j) => ({ ...e, at: (i * strong.length + j) * 9000 })));
    const first = rateWithRubric({ set, transcripts: long, durationSeconds: 3600 });
    expect(rateWithRubric({ set, transcripts: long, durationSeconds: 3600 })).toEqual(first);
    expect(first.score).toBeGreaterThan(70);
  });
});

describe('rubric rater counts', () => {
  const ONE: QuestionSetRecord = {
    id: 9,
    name: 'One question',
    index: 9,
    isPremium: false,
    requiresFeedback: false,
    instructions: '',
    questions: ['What is a cache?'],
    modelAnswers: '### 1. What is a cache?\n\nA fast copy.\n\n**Key points:** a fast copy of data',
  };

  it('puts counts of one in the singular: one question, one key point', () => {
    const empty = rateWithRubric({ set: ONE, transcripts: [], durationSeconds: 0 }).markdown;
    expect(empty).toContain('The question was not answered.');
    expect(empty).not.toMatch(/\b1 questions\b/);
    const rated = rateWithRubric({
      set: ONE,
      transcripts: [
        { role: 'interviewer', transcript: 'What is a cache?' },
        { role: 'interviewee', transcript: 'A cache keeps a fast copy of data close to where it is read, so reads are quicker.' },
      ],
      durationSeconds: 60,
    }).markdown;
    expect(rated).toContain('You answered 1 of 1 question:');
    expect(rated).toContain('you covered 1 of 1 key point:');
  });
});
