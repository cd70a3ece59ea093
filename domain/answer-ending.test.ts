import { describe, expect, it } from 'vitest';
import { answerEnding, endOfTurnPauseMs, showsPunctuation } from './answer-ending';

const CLOSURE = 'Thank you. Next question: what is a closure in JavaScript?';

describe('answerEnding', () => {
  it('hears nothing as unfinished', () => {
    expect(answerEnding('', CLOSURE)).toBe('unfinished');
    expect(answerEnding('  ... ', CLOSURE)).toBe('unfinished');
  });

  it('waits after a filler or a word that leads on, punctuated or not', () => {
    for (const answer of [
      'A closure is um',
      'A closure is a function that',
      'It keeps its variables because',
      'It keeps the scope and',
      'It remembers the variables of the',
      'Um.',
      'A closure is, uh,',
    ])
      expect(answerEnding(answer, CLOSURE), answer).toBe('unfinished');
  });

  it('waits after a sentence cut off mid-way', () => {
    expect(answerEnding('A closure is a function that remembers...', CLOSURE)).toBe('unfinished');
    expect(answerEnding('A closure keeps the scope —', CLOSURE)).toBe('unfinished');
    expect(answerEnding('A closure keeps the scope,', CLOSURE)).toBe('unfinished');
  });

  it('hears a closed sentence as finished', () => {
    expect(answerEnding('It remembers where it was created.', CLOSURE)).toBe('finished');
    expect(answerEnding('Yes!', 'Is that clear?')).toBe('finished');
    expect(answerEnding('I do not know?', CLOSURE)).toBe('finished');
  });

  it('hears unpunctuated words that answer the question as finished', () => {
    expect(answerEnding('a closure is a function that remembers the scope where it was created', CLOSURE)).toBe('finished');
    // "closures" meets "closure": the first five letters.
    expect(answerEnding('closures keep their outer variables alive', CLOSURE)).toBe('finished');
    expect(answerEnding('yes', 'Do you want to go on?')).toBe('finished');
  });

  it('is unsure of unpunctuated words that do not yet answer the question', () => {
    // Too few words, or not on the question's topic.
    expect(answerEnding('a closure', CLOSURE)).toBe('unsure');
    expect(answerEnding('it keeps variables alive after return', CLOSURE)).toBe('unsure');
    // "no" answers only a yes/no question.
    expect(answerEnding('no', CLOSURE)).toBe('unsure');
  });

  it('reads the last question of a line with several sentences', () => {
    const line = 'Good answer about closures. Now: how does the event loop work?';
    expect(answerEnding('the event loop takes tasks from a queue', line)).toBe('finished');
    expect(answerEnding('closures keep their outer variables alive', line)).toBe('unsure');
  });
});

describe('a recogniser that punctuates', () => {
  it('takes an unclosed sentence as not finished, however on-topic its words', () => {
    const words = 'a closure is a function that remembers the scope where it was created';
    expect(answerEnding(words, CLOSURE, 'punctuates')).toBe('unsure');
    expect(answerEnding(`${words}.`, CLOSURE, 'punctuates')).toBe('finished');
    expect(answerEnding('A closure is created every time', CLOSURE, 'punctuates')).toBe('unsure');
    expect(answerEnding('A closure is um', CLOSURE, 'punctuates')).toBe('unfinished');
  });

  it('is known from a sentence mark in its words, not from a decimal point', () => {
    expect(showsPunctuation('It keeps its scope. And more')).toBe(true);
    expect(showsPunctuation('Is it?')).toBe(true);
    expect(showsPunctuation('a reading of 1.5 volts')).toBe(false);
    expect(showsPunctuation('a reading of one volt')).toBe(false);
  });
});

describe('endOfTurnPauseMs', () => {
  const pauses = { pieceMs: 300, finishedMs: 400, unsureMs: 1200, unfinishedMs: 2500, heldMs: 1500 };
  it('gives each verdict its pause', () => {
    expect(endOfTurnPauseMs('A closure remembers its scope.', CLOSURE, pauses)).toBe(400);
    expect(endOfTurnPauseMs('it keeps variables alive after return', CLOSURE, pauses)).toBe(1200);
    expect(endOfTurnPauseMs('A closure is um', CLOSURE, pauses)).toBe(2500);
    expect(endOfTurnPauseMs('a closure remembers its scope', CLOSURE, pauses)).toBe(400);
    expect(endOfTurnPauseMs('a closure remembers its scope', CLOSURE, pauses, 'punctuates')).toBe(1200);
  });
});
