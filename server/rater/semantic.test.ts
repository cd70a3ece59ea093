/**
 * Meaning as well as spelling (docs/decisions/016-rater-measured-on-people.md): correct answers in other words,
 * honest verdicts for short and paraphrased answers, and how close the evidence came.
 */
import { describe, expect, it } from 'vitest';
import { judgeAnswer } from './rubric-rater-judge';
import { closeness, softWords } from './semantic';
import { cosine, rowOf, vocabularySize } from './word-vectors';

const model = (keyPoint: string) => ({ answer: keyPoint, keyPoints: [keyPoint], accepted: [[]], contradictions: [[]] });

describe('word vectors', () => {
  it('are read from the repository: 80,000 words, near words near', () => {
    expect(vocabularySize()).toBe(80_000);
    expect(cosine(rowOf('begin'), rowOf('start'))).toBeGreaterThan(0.8);
    expect(cosine(rowOf('tree'), rowOf('salary'))).toBeLessThan(0.3);
    expect(rowOf('qwzxv')).toBe(-1);
  });

  it('bring a key point and a statement in other words close, and a statement about something else not', () => {
    const point = softWords('the left child is smaller than the parent');
    expect(closeness(point, softWords('every left child node holds a value less than its parent'))).toBeGreaterThan(0.8);
    expect(closeness(point, softWords('we had a meeting about the budget on Friday'))).toBeLessThan(0.3);
  });
});

describe('correct answers in other words', () => {
  it('credits the binary search tree answer in its own words, with the statement and how close it came', () => {
    const j = judgeAnswer(
      [
        'A binary search tree is a special binary tree arranged such that every left child node contains a value less than its parent, and every right child node contains a value greater than its parent.',
      ],
      model('a binary tree where for any node the left child is smaller than the parent, which is smaller than the right child'),
      'What is a binary search tree?',
    );
    expect(j.verdict).toBe('Answered well');
    expect(j.score).toBeGreaterThanOrEqual(70);
    expect(j.covered).toEqual([
      'a binary tree where for any node the left child is smaller than the parent, which is smaller than the right child',
    ]);
    expect(j.closeness[0]).toBeGreaterThan(0.8);
    expect(j.closeness[0]).toBeLessThan(1);
  });

  it('credits the do ... while answer "will always run through once" with its statement, and not a wrong one', () => {
    const point = model('the block inside a do ... while executes at least once');
    const question = 'What is the main difference between a while and a do ... while statement?';
    const said = 'a do ... while loop will always run through once, while a while loop performs a test before running through the loop.';
    const j = judgeAnswer([said], point, question);
    expect(j.verdict).toBe('Answered well');
    expect(j.score).toBeGreaterThanOrEqual(70);
    expect(j.covered).toEqual(['the block inside a do ... while executes at least once']);
    // The whole sentence is the evidence: "do ... while" is one name, not the end of a sentence.
    expect(j.evidence).toEqual([said]);
    expect(j.closeness[0]).toBeGreaterThan(0);
    expect(j.closeness[0]).toBeLessThan(1);
    // Denied, or only the other loop described, it earns nothing.
    expect(judgeAnswer(['the body of a do ... while never runs at least once'], point, question).covered).toEqual([]);
    expect(judgeAnswer(['a while loop checks its condition first'], point, question).covered).toEqual([]);
  });

  it('credits a short correct answer and calls it answered well', () => {
    const j = judgeAnswer(['At the main function.'], model('at the main function'), 'Where do C++ programs begin to execute?');
    expect(j.verdict).toBe('Answered well');
    expect(j.covered).toEqual(['at the main function']);
  });

  it('calls off topic only an answer that shares nothing with the question and its points', () => {
    const point = model('a closure keeps access to the variables of its outer function');
    const elsewhere = judgeAnswer(
      ['Last summer we hiked in the mountains for a week and the weather was lovely every single day.'],
      point,
      'What is a closure?',
    );
    expect(elsewhere.verdict).toBe('Off topic');
    expect(elsewhere.score).toBeLessThanOrEqual(20);
    const near = judgeAnswer(
      ['It is when an inner function can still use the variables of the function around it after that one has returned.'],
      point,
      'What is a closure?',
    );
    expect(near.verdict).not.toBe('Off topic');
    expect(near.score).toBeGreaterThan(elsewhere.score);
  });
});
