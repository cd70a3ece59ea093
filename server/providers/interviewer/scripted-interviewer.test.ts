import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptEntry, TurnResponse } from '../../../contract';
import type { InterviewerTurn } from '../types';
import { readCatalogue, type CatalogueSet } from '../../catalogue/read-catalogue';
import { loadTranscriptFixture } from '../../../test-support/transcripts/load-transcripts';
import { inThreadRater, rateWithRubric } from '../../rater';
import { createScriptedInterviewer, scriptedTurn } from './scripted-interviewer';
import { followUpTopic, wantsRepeat, wantsToStop } from './scripted-interviewer-lines';
import type { QuestionSetRecord } from '../../db/schema';

const CATALOGUE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../content/question-sets');

const SET: QuestionSetRecord = {
  id: 1,
  name: 'Caching',
  index: 1,
  isPremium: false,
  requiresFeedback: false,
  instructions: '',
  questions: ['What is a cache and why would you use one?', 'How do you invalidate cached data?', 'What is a cache stampede?'],
  modelAnswers: [
    '### 1. What is a cache and why would you use one?',
    '',
    'A fast copy of data.',
    '',
    '**Key points:** a fast copy of data; lower latency for reads; less load on the database',
    '',
    '### 2. How do you invalidate cached data?',
    '',
    'Expire it or delete it on write.',
    '',
    '**Key points:** TTL expiry bounds staleness; delete the key on write; race conditions between writers',
    '',
    '### 3. What is a cache stampede?',
    '',
    'Many misses at once.',
    '',
    '**Key points:** many requests miss at once; request coalescing; early refresh with jitter',
  ].join('\n'),
};

const STRONG_1 =
  'A cache keeps a fast copy of data close to where it is read, so reads get lower latency, and it takes load off the database because most requests never reach it. We used Redis in front of Postgres for product pages.';
const STRONG_2 =
  'Every entry gets a TTL so expiry bounds the staleness, and on write we update the database and then delete the key rather than updating it, because two writers can race and leave an old value behind in the cache.';
const STRONG_3 =
  'A stampede is when a hot key expires and many requests miss at once and all hit the database. Request coalescing lets one request refill the key while others wait, and early refresh with jitter spreads expiries out.';

/** Plays one turn the way the server does: the utterance and the line are appended to the history. */
async function play(history: TranscriptEntry[], utterance?: string, set: QuestionSetRecord = SET): Promise<InterviewerTurn> {
  const turn = await createScriptedInterviewer().nextTurn({ set, history: [...history], utterance });
  if (utterance) history.push({ role: 'interviewee', transcript: utterance });
  const { askedQuestion } = turn;
  if (turn.say) history.push({ role: 'interviewer', transcript: turn.say, ...(askedQuestion === undefined ? {} : { askedQuestion }) });
  return turn;
}

describe('scripted interviewer', () => {
  it('greets and asks question 1 on the opening turn', async () => {
    expect(await play([])).toEqual({
      say: 'Hello, and welcome to your practice interview on Caching. I will ask you 3 questions, one at a time, and you can take your time with each answer. Here is the first question. What is a cache and why would you use one?',
      closeSession: null,
      askedQuestion: 0,
    });
  });

  it('asks the questions in order and closes after the last answer', async () => {
    const history: TranscriptEntry[] = [];
    await play(history);
    expect(await play(history, STRONG_1)).toEqual({
      say: 'Thanks, that is helpful. Question 2 of 3. How do you invalidate cached data?',
      closeSession: null,
      askedQuestion: 1,
    });
    expect(await play(history, STRONG_2)).toEqual({
      say: 'Okay, thank you. Here is the last question. What is a cache stampede?',
      closeSession: null,
      askedQuestion: 2,
    });
    expect(await play(history, STRONG_3)).toEqual({
      say: 'Thank you, that covers all of my questions. Well done for working through them all. Your written feedback is being prepared now.',
      closeSession: { reason: 'all questions covered' },
    });
  });

  it('asks one follow-up on a thin answer, drawing on a missed key point without stating it', async () => {
    const history: TranscriptEntry[] = [];
    await play(history);
    const followUp = await play(history, 'It makes things faster.');
    // "a fast copy of data" names too much to be a prompt; the next missed point's subject is used.
    expect(followUp).toEqual({ say: 'Could you say a little more about lower latency?', closeSession: null, askedQuestion: 0 });
    expect(followUp.say).not.toContain('reads');
    // A second thin answer does not earn a second follow-up: the interview moves on, without calling it helpful.
    expect((await play(history, 'Not much more to say.')).say).toBe('All right. Question 2 of 3. How do you invalidate cached data?');
  });

  it('picks the follow-up topic from the first missed key point', async () => {
    const history: TranscriptEntry[] = [];
    await play(history);
    await play(history, STRONG_1);
    // Mentions deleting on write only: TTL expiry is the first point missed.
    expect((await play(history, 'We delete the key on write.')).say).toBe('What about TTL expiry? Where does that come in?');
  });

  it('repeats the current question on request, without using up the follow-up', async () => {
    const history: TranscriptEntry[] = [];
    await play(history);
    expect(await play(history, 'Sorry, can you repeat the question?')).toEqual({
      say: 'Of course. Here is the question again. What is a cache and why would you use one?',
      closeSession: null,
      askedQuestion: 0,
    });
    expect((await play(history, 'It is faster.')).say).toBe('Could you say a little more about lower latency?');
    expect((await play(history, 'Could you say that again?')).say).toBe(
      'Of course. Here is the question again. What is a cache and why would you use one?',
    );
    // The follow-up was already asked before the repeat: the next answer moves on.
    expect((await play(history, 'Still just faster.')).say).toBe('All right. Question 2 of 3. How do you invalidate cached data?');
  });

  it.each(['Not sure.', "I don't know.", 'I have no idea, sorry.', 'Pass.', "I'm not really sure about that one."])(
    'does not thank an "I don\'t know" (%s): one nudge towards a missed key point, then the next question',
    async (utterance) => {
      const history: TranscriptEntry[] = [];
      await play(history);
      const nudge = (await play(history, utterance)).say;
      expect(nudge).toBe("That's all right. As a hint, think about lower latency. What can you tell me about it?");
      const next = (await play(history, utterance)).say;
      expect(next).toBe("That's all right, let's move on. Question 2 of 3. How do you invalidate cached data?");
      for (const line of [nudge, next]) expect(line).not.toMatch(/thank|helpful/i);
    },
  );

  it('after the last question, an "I don\'t know" is not praised as an answer', async () => {
    const history: TranscriptEntry[] = [];
    await play(history);
    await play(history, STRONG_1);
    await play(history, STRONG_2);
    await play(history, 'No idea.');
    expect((await play(history, 'No idea.')).say).toBe(
      "That's all right. Thank you, that covers all of my questions. Well done for working through them all. Your written feedback is being prepared now.",
    );
  });

  it('nudges without naming anything when no missed key point has a nameable subject', async () => {
    const set = {
      ...SET,
      modelAnswers: SET.modelAnswers.replace(
        'a fast copy of data; lower latency for reads; less load on the database',
        'use a cache for reads',
      ),
    };
    const history: TranscriptEntry[] = [];
    await play(history, undefined, set);
    expect((await play(history, "I don't know.", set)).say).toBe(
      "That's all right. Is there any part of it you can answer, even a small one?",
    );
    expect((await play(history, "I don't know.", set)).say).toBe(
      "That's all right, let's move on. Question 2 of 3. How do you invalidate cached data?",
    );
  });

  it('an answer that says "not sure" but covers a key point is an answer, not an "I don\'t know"', async () => {
    const history: TranscriptEntry[] = [];
    await play(history);
    // A statement: the rater credits no point for a question ("lower latency for reads?"), so neither does the interviewer.
    expect((await play(history, 'Not sure, but it gives lower latency for reads.')).say).toBe(
      'Could you say a little more about less load?',
    );
  });

  it.each(['I want to stop.', "Let's stop here", 'Can we end the interview please?', 'stop', 'I would like to finish now.'])(
    'closes when the candidate asks to stop: %s',
    async (utterance) => {
      const history: TranscriptEntry[] = [];
      await play(history);
      expect(await play(history, utterance)).toEqual({
        say: 'Of course, we can stop here. Thank you for your time today. Your written feedback is being prepared now.',
        closeSession: { reason: 'the candidate asked to stop' },
      });
    },
  );

  it('does not mistake an answer about stopping things for a request to stop', () => {
    expect(wantsToStop('You stop the timer when the component unmounts, and end the subscription too.')).toBe(false);
    expect(wantsToStop('I would stop the loop once the target is found.')).toBe(false);
    expect(wantsRepeat('We repeat the request with exponential backoff.')).toBe(false);
    expect(wantsRepeat('Pardon?')).toBe(true);
    expect(wantsRepeat("Sorry, I didn't catch that.")).toBe(true);
  });

  it('re-asks the current question when a turn comes without an answer', async () => {
    const history: TranscriptEntry[] = [];
    await play(history);
    await play(history, STRONG_1);
    expect(await play(history)).toEqual({
      say: 'Take your time. The question is: How do you invalidate cached data?',
      closeSession: null,
      askedQuestion: 1,
    });
    expect((await play(history, STRONG_2)).say).toBe('Okay, thank you. Here is the last question. What is a cache stampede?');
  });

  it('is stateless: the same history and utterance give the same line', async () => {
    const history: TranscriptEntry[] = [
      { role: 'interviewer', transcript: 'Hello. Here is the first question. What is a cache and why would you use one?' },
    ];
    const a = await scriptedTurn({ set: SET, history, utterance: 'It is fast.' }, inThreadRater());
    const b = await scriptedTurn({ set: SET, history, utterance: 'It is fast.' }, inThreadRater());
    expect(a).toEqual(b);
  });

  it('closes at once for a set without questions', async () => {
    expect(await play([], undefined, { ...SET, questions: [], modelAnswers: '' })).toEqual({
      say: 'Hello, and thank you for joining. This question set has no questions yet, so we will end here.',
      closeSession: { reason: 'all questions covered' },
    });
  });

  it('names only the subject of a key point, never its claim', () => {
    expect(followUpTopic('var is function scoped')).toBe('var');
    expect(followUpTopic('loose equality performs type coercion')).toBe('loose equality');
    expect(followUpTopic('event listeners and subscriptions not removed')).toBe('event listeners and subscriptions');
    // Longer than four words: naming it would say too much.
    expect(followUpTopic('hoisting and the temporal dead zone')).toBeNull();
    expect(followUpTopic('use data or evidence rather than opinion')).toBeNull();
    expect(followUpTopic('pagination, filtering and sorting')).toBe('pagination');
  });

  it('names no subject a person would not ask about', () => {
    // "How would you bring a function into your answer?" was said for this one.
    expect(followUpTopic('a function that remembers and carries the lexical scope it was created in')).toBeNull();
    expect(followUpTopic('a promise is pending, then fulfilled or rejected')).toBeNull();
    expect(followUpTopic('429 with Retry-After')).toBeNull();
    expect(followUpTopic('concrete example such as a counter, debounce or event handler')).toBeNull();
    expect(followUpTopic('new sets the prototype from the constructor property')).toBeNull();
    expect(followUpTopic('update the database then invalidate the cache key')).toBeNull();
    expect(followUpTopic('asynchronous analytics through a queue')).toBe('asynchronous analytics');
    expect(followUpTopic('debounce waits for a quiet period')).toBe('debounce');
    expect(followUpTopic('a specific lesson learned')).toBe('a specific lesson learned');
  });

  it('reads a follow-up of an earlier wording as a follow-up, so a stored interview goes on the same way', async () => {
    const history: TranscriptEntry[] = [
      { role: 'interviewer', transcript: 'Hello. Here is the first question. What is a cache and why would you use one?' },
      { role: 'interviewee', transcript: 'It is fast.' },
      { role: 'interviewer', transcript: 'How would you bring lower latency into your answer?' },
    ];
    expect((await scriptedTurn({ set: SET, history, utterance: 'Still fast.' }, inThreadRater())).say).toBe(
      'All right. Question 2 of 3. How do you invalidate cached data?',
    );
  });
});

describe('scripted interviewer on the shipped catalogue', () => {
  let sets: CatalogueSet[] = [];
  beforeAll(async () => {
    sets = await readCatalogue(CATALOGUE);
  });

  it('runs every set with speakable lines, one follow-up at most per question, and closes', async () => {
    for (const catalogueSet of sets) {
      const set = { ...catalogueSet, id: catalogueSet.index };
      const history: TranscriptEntry[] = [];
      const lines: string[] = [(await play(history, undefined, set)).say];
      let turn: TurnResponse = { say: '', closeSession: null };
      for (let i = 0; i < set.questions.length * 2 + 1 && turn.closeSession === null; i++) {
        turn = await play(history, 'I am not sure.', set);
        lines.push(turn.say);
      }
      expect(turn.closeSession).toEqual({ reason: 'all questions covered' });
      // "I am not sure" everywhere: each question gets exactly one nudge, then the next question; nothing thanks it.
      expect(lines).toHaveLength(set.questions.length * 2 + 1);
      for (const line of lines.slice(1)) expect(line).not.toMatch(/^(Thank|Got it|Okay, thank)|helpful/);
      for (const line of lines) expect(line).not.toMatch(/[*_`#[\]]/);
      for (const keyPoints of set.modelAnswers.match(/\*\*Key points:\*\*.*$/gm) ?? []) {
        for (const point of keyPoints.replace('**Key points:**', '').split(';')) {
          if (point.trim().split(/\s+/).length > 4) expect(lines.join(' ')).not.toContain(point.trim());
        }
      }
    }
  });

  it('conducts an interview that the rubric rater pairs and rates correctly', async () => {
    const catalogueSet = sets.find((s) => s.index === 1)!;
    const set = { ...catalogueSet, id: 1 };
    const answers = loadTranscriptFixture('01-javascript-fundamentals')
      .strong.filter((e) => e.role === 'interviewee')
      .map((e) => e.transcript);
    const history: TranscriptEntry[] = [];
    await play(history, undefined, set);
    let turn: TurnResponse = { say: '', closeSession: null };
    for (const answer of answers) turn = await play(history, answer, set);
    expect(turn.closeSession).toEqual({ reason: 'all questions covered' });
    // Strong answers need no follow-ups: greeting, four next questions, closing.
    expect(history.filter((e) => e.role === 'interviewer')).toHaveLength(6);
    const rating = rateWithRubric({ set, transcripts: history, durationSeconds: 600 });
    expect(rating.score).toBeGreaterThanOrEqual(75);
    expect(rating.markdown).toContain('You answered 5 of 5 questions: 5 answered well');
  });
});
