import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../contract';
import type { QuestionSetRecord } from '../db/schema';
import { inThreadRater, type BuiltInRater } from './built-in-rater';
import { rateWithRubric } from './rubric-rater';
import { loadSentenceEncoder } from './sentence-encoder';
import { pairAnswers, pairingTextsToEmbed } from './rubric-rater-pairing';
import type { SentenceMeaning } from './sentence-meaning';

const ask = (transcript: string, askedQuestion?: number): TranscriptEntry =>
  askedQuestion === undefined ? { role: 'interviewer', transcript } : { role: 'interviewer', transcript, askedQuestion };
const answer = (transcript: string): TranscriptEntry => ({ role: 'interviewee', transcript });
/** Each question's turns, in the set's order. */
const turnsOf = (questions: readonly string[], transcripts: TranscriptEntry[], meaning?: SentenceMeaning) =>
  pairAnswers(questions, transcripts, meaning).map((p) => p.turns);

const CACHING = ['What is a cache and why would you use one?', 'How do you invalidate cached data?'];

describe('pairing when the server knows which question a line asked', () => {
  it('keeps a scripted follow-up with its question even when its words are those of the next one', () => {
    const transcripts = [
      ask('Hello. Here is the first question. What is a cache and why would you use one?', 0),
      answer('A fast copy of data.'),
      ask('What can you tell me about invalidating cached data?', 0),
      answer('You delete the cached copy when the data changes.'),
      ask('Thank you. Here is the last question. How do you invalidate cached data?', 1),
      answer('Time to live expiry.'),
      ask('Thank you, that covers all of my questions.'),
    ];
    expect(turnsOf(CACHING, transcripts)).toEqual([
      ['A fast copy of data.', 'You delete the cached copy when the data changes.'],
      ['Time to live expiry.'],
    ]);
    // The same lines guessed by words: the follow-up reads as the second question.
    expect(
      turnsOf(
        CACHING,
        transcripts.map(({ askedQuestion: _, ...e }) => e),
      )[1],
    ).toEqual(['You delete the cached copy when the data changes.']);
  });

  it('goes back to a question the server says was asked again, and ignores a question the set no longer has', () => {
    expect(
      turnsOf(CACHING, [
        ask('Question 2 of 2.', 1),
        answer('Delete on write.'),
        ask('Of course. Here is the question again.', 0),
        answer('A fast copy.'),
        ask('And one more.', 7),
        answer('Still the first.'),
      ]),
    ).toEqual([['A fast copy.', 'Still the first.'], ['Delete on write.']]);
  });
});

/** Questions that differ only by a number. */
const METER = [
  'What does the meter show at a reading of 0?',
  'What does the meter show at a reading of 1.5?',
  'What does the meter show at a reading of 5?',
];

describe("pairing a language model's lines by order and words", () => {
  it('tells apart questions that differ only by a number, asked in order in other words', () => {
    expect(
      turnsOf(METER, [
        ask('Hi! Let us start. Say the meter sits at a reading of 0: what does it show?'),
        answer('The needle rests on the left.'),
        ask('Good. Now, when the reading is 1.5, what would you see on the meter?'),
        answer('The needle is a little past the first mark.'),
        ask('Last one: and at 5?'),
        answer('It is at full scale.'),
      ]),
    ).toEqual([['The needle rests on the left.'], ['The needle is a little past the first mark.'], ['It is at full scale.']]);
  });

  it('tells them apart when asked out of order, and does not take 1.5 for 5', () => {
    expect(
      turnsOf(METER, [
        ask('Let us begin with this: what does the meter show at a reading of 1.5?'),
        answer('A little past the first mark.'),
        ask('And what does it show at a reading of 5?'),
        answer('Full scale.'),
        ask('Going back to the start: what does it show at a reading of 0?'),
        answer('Nothing, the needle rests.'),
      ]),
    ).toEqual([['Nothing, the needle rests.'], ['A little past the first mark.'], ['Full scale.']]);
  });

  it("does not move to the next question on shared words when the line names another question's number", () => {
    const long = [
      'In the circuit on the worksheet, with the battery connected and the switch closed, what does the meter show at a reading of 0?',
      'In the circuit on the worksheet, with the battery connected and the switch closed, what does the meter show at a reading of 1.5?',
      'In the circuit on the worksheet, with the battery connected and the switch closed, what does the meter show at a reading of 3?',
    ];
    expect(
      turnsOf(long, [
        ask(long[0]!),
        answer('Zero volts.'),
        ask('Now take the circuit on the worksheet at 3: what does the meter show?'),
        answer('Three volts.'),
        ask('And the one in between, at 1.5?'),
        answer('One and a half volts.'),
      ]),
    ).toEqual([['Zero volts.'], ['One and a half volts.'], ['Three volts.']]);
  });

  it('reads a number written with grouped thousands as one number', () => {
    const load = ['How would you serve 1,000 requests a second?', 'How would you serve 100,000 requests a second?'];
    expect(
      turnsOf(load, [
        ask('Say you must serve 100,000 requests a second. How?'),
        answer('Many servers behind a load balancer.'),
        ask('And at 1000?'),
        answer('One server is enough.'),
      ]),
    ).toEqual([['One server is enough.'], ['Many servers behind a load balancer.']]);
  });

  it('tells apart questions that differ only by a label', () => {
    const bulbs = ['What happens to bulb A when switch X is opened?', 'What happens to bulb B when switch X is opened?'];
    expect(
      turnsOf(bulbs, [
        ask('First, what happens to bulb B when switch X is opened?'),
        answer('B goes out.'),
        ask('And bulb A?'),
        answer('A stays on.'),
      ]),
    ).toEqual([['A stays on.'], ['B goes out.']]);
  });

  const HTTP = ['What is an HTTP cookie?', 'What does the Cache-Control header do?', 'What is CORS and why do browsers enforce it?'];

  it('gives a question paraphrased beyond its words the line the order says asked it', () => {
    expect(
      turnsOf(HTTP, [
        ask('Welcome! What is an HTTP cookie?'),
        answer('A small piece of data the browser keeps for a site.'),
        ask('Next: how does a server tell browsers and proxies how long they may keep a response?'),
        answer('It sends max-age, and no-store when it must not be kept.'),
        ask('What is CORS, and why do browsers enforce it?'),
        answer('Cross-origin resource sharing.'),
      ]),
    ).toEqual([
      ['A small piece of data the browser keeps for a site.'],
      ['It sends max-age, and no-store when it must not be kept.'],
      ['Cross-origin resource sharing.'],
    ]);
  });

  it('keeps a follow-up with its question and gives the paraphrased next question the line after it', () => {
    expect(
      turnsOf(HTTP, [
        ask('Welcome! What is an HTTP cookie?'),
        answer('Data for a site.'),
        ask('Could you go a little deeper on that?'),
        answer('The browser sends it back on every request.'),
        ask('Thanks. How does a server say how long a response may be kept?'),
        answer('With max-age.'),
        ask('What is CORS, and why do browsers enforce it?'),
        answer('Cross-origin resource sharing.'),
      ]),
    ).toEqual([['Data for a site.', 'The browser sends it back on every request.'], ['With max-age.'], ['Cross-origin resource sharing.']]);
  });

  it('keeps a follow-up in the words of its own question with it when the interviewer skips the next question', () => {
    expect(
      turnsOf(HTTP, [
        ask('What is an HTTP cookie?'),
        answer('Data for a site.'),
        ask('Where does the browser keep an HTTP cookie?'),
        answer('In its cookie jar.'),
        ask('We are short of time, so: what is CORS, and why do browsers enforce it?'),
        answer('Cross-origin resource sharing.'),
      ]),
    ).toEqual([['Data for a site.', 'In its cookie jar.'], [], ['Cross-origin resource sharing.']]);
  });

  it('leaves an unrecognised last line a follow-up without meaning, and lets meaning move it on', () => {
    const transcripts = [
      ask('What is an HTTP cookie?'),
      answer('Data for a site.'),
      ask('What does the Cache-Control header do?'),
      answer('It says how long to cache.'),
      ask('Why might a page be refused a request to another site?'),
      answer('Because the other origin did not allow it.'),
    ];
    expect(turnsOf(HTTP, transcripts)).toEqual([
      ['Data for a site.'],
      ['It says how long to cache.', 'Because the other origin did not allow it.'],
      [],
    ]);
    expect(pairingTextsToEmbed(HTTP, transcripts)).toEqual([...HTTP, 'Why might a page be refused a request to another site?']);
    const closeness: Record<string, number> = { [HTTP[1]!]: 0.2, [HTTP[2]!]: 0.6 };
    const meaning: SentenceMeaning = { closeness: (_line, question) => closeness[question] ?? 0 };
    expect(turnsOf(HTTP, transcripts, meaning)).toEqual([
      ['Data for a site.'],
      ['It says how long to cache.'],
      ['Because the other origin did not allow it.'],
    ]);
  });

  it('lets meaning keep a generic follow-up with its question when the interviewer skips the next one', () => {
    const transcripts = [
      ask('What is an HTTP cookie?'),
      answer('Data for a site.'),
      ask('Could you go a little deeper on that?'),
      answer('The browser sends it back.'),
      ask('What is CORS, and why do browsers enforce it?'),
      answer('Cross-origin resource sharing.'),
    ];
    // Without meaning, order says the open line asked the question in between.
    expect(turnsOf(HTTP, transcripts)).toEqual([['Data for a site.'], ['The browser sends it back.'], ['Cross-origin resource sharing.']]);
    const closeness: Record<string, number> = { [HTTP[0]!]: 0.35, [HTTP[1]!]: 0.1 };
    const meaning: SentenceMeaning = { closeness: (_line, question) => closeness[question] ?? 0 };
    expect(turnsOf(HTTP, transcripts, meaning)).toEqual([
      ['Data for a site.', 'The browser sends it back.'],
      [],
      ['Cross-origin resource sharing.'],
    ]);
  });

  it('asks the model nothing when words found every question, or when the server knew', () => {
    const transcripts = [ask(HTTP[0]!), answer('a'), ask(HTTP[1]!), answer('b'), ask(HTTP[2]!), answer('c')];
    expect(pairingTextsToEmbed(HTTP, transcripts)).toEqual([]);
    expect(pairingTextsToEmbed(HTTP, [ask('Something else entirely?', 0), answer('a')])).toEqual([]);
  });
});

describe('pairing by meaning in a rating, with the sentence model', () => {
  let rater: BuiltInRater;
  beforeAll(async () => {
    rater = inThreadRater(await loadSentenceEncoder());
  }, 60_000);

  const set: QuestionSetRecord = {
    id: 1,
    name: 'HTTP basics',
    index: 1,
    isPremium: false,
    requiresFeedback: false,
    instructions: '',
    questions: ['What is an HTTP cookie?', 'What does the Cache-Control header do?', 'What is CORS and why do browsers enforce it?'],
    modelAnswers: [
      '### 1. What is an HTTP cookie?',
      '',
      'A small piece of data the browser keeps for a site.',
      '',
      '**Key points:** a small piece of data the browser stores for a site; sent back with every request to that site',
      '',
      '### 2. What does the Cache-Control header do?',
      '',
      'It tells caches how long a response may be kept.',
      '',
      '**Key points:** says how long a response may be cached; no-store forbids keeping it',
      '',
      '### 3. What is CORS and why do browsers enforce it?',
      '',
      'Cross-origin resource sharing lets a server allow other origins.',
      '',
      '**Key points:** the server names which other origins may read its responses; protects users from other sites reading their data',
    ].join('\n'),
  };

  it('rates a question asked in other words between two it recognised by its answer, not as "Not answered"', () => {
    const transcripts = [
      ask('What is an HTTP cookie?'),
      answer('A small piece of data the browser stores for a site, sent back with every request to it.'),
      ask('Next: how does a server tell browsers and proxies how long they may keep a response?'),
      answer('It says how long a response may be cached, and no-store forbids keeping it.'),
      ask('What is CORS and why do browsers enforce it?'),
      answer('The server names which other origins may read its responses, which protects users from other sites reading their data.'),
    ];
    const { breakdown } = rateWithRubric({ set, transcripts, durationSeconds: 120 });
    expect(breakdown.map((b) => [b.verdict, b.evidence])).toEqual([
      ['Answered well', expect.any(Array)],
      ['Answered well', ['It says how long a response may be cached, and no-store forbids keeping it.', expect.any(String)]],
      ['Answered well', expect.any(Array)],
    ]);
  });

  it('gives a last question asked in other words its answer, so it is not "Not answered"', async () => {
    const transcripts = [
      ask('What is an HTTP cookie?'),
      answer('A small piece of data the browser stores for a site, sent back with every request to it.'),
      ask('What does the Cache-Control header do?'),
      answer('It says how long a response may be cached, and no-store forbids keeping it.'),
      ask('Last one: why would a page be stopped from reading a response from another origin, and who decides?'),
      answer('The server names which other origins may read its responses, which protects users from other sites reading their data.'),
    ];
    const { breakdown } = await rater.rate({ set, transcripts, durationSeconds: 120 });
    expect(breakdown.map((b) => b.verdict)).toEqual(['Answered well', 'Answered well', 'Answered well']);
    // The words alone leave the line with the question before it.
    expect(rateWithRubric({ set, transcripts, durationSeconds: 120 }).breakdown[2]!.verdict).toBe('Not answered');
  });
});
