/**
 * Correct answers people wrote in their own words, rated through the rater's entry point
 * (server/rater/index.ts) as an operator's own one-question set with no "Also accepted" lines:
 * each is credited, with the candidate's statement as evidence and how close it came, never
 * "Thin answer", "Off topic" or "Not answered".
 */
import { describe, expect, it } from 'vitest';
import type { QuestionSetRecord } from '../db/schema';
import { rateWithRubric } from './index';

function rate(question: string, keyPoint: string, answer: string) {
  const set = {
    id: 1,
    index: 1,
    name: 'Own set',
    isPremium: false,
    requiresFeedback: false,
    instructions: '',
    questions: [question],
    modelAnswers: [`### 1. ${question}`, '', keyPoint, '', '**Key points:**', '', `- ${keyPoint}`, ''].join('\n'),
  } as QuestionSetRecord;
  return rateWithRubric({
    set,
    transcripts: [
      { role: 'interviewer', transcript: question },
      { role: 'interviewee', transcript: answer },
    ],
    durationSeconds: 60,
  });
}

describe('correct answers in their own words, through the entry point', () => {
  it('credits the binary search tree answer', () => {
    const answer =
      'A binary search tree is a special binary tree arranged such that every left child node contains a value less than its parent, and every right child node contains a value greater than its parent.';
    const result = rate(
      'What is a binary search tree?',
      'a binary tree where for any node the left child is smaller than the parent, which is smaller than the right child',
      answer,
    );
    const [item] = result.breakdown;
    expect(item!.verdict).toBe('Answered well');
    expect(item!.covered).toHaveLength(1);
    expect(item!.evidence).toEqual([answer]);
    expect(result.score).toBeGreaterThanOrEqual(70);
    expect(result.markdown).toMatch(/You said: "A binary search tree is a special binary tree[^"]*"/);
  });

  it('credits "a do ... while loop will always run through once"', () => {
    const answer = 'a do ... while loop will always run through once, while a while loop performs a test before running through the loop.';
    const result = rate(
      'What is the main difference between a while and a do ... while statement?',
      'the block inside a do ... while executes at least once',
      answer,
    );
    const [item] = result.breakdown;
    expect(item!.verdict).toBe('Answered well');
    expect(item!.covered).toEqual(['the block inside a do ... while executes at least once']);
    expect(item!.evidence).toEqual([answer]);
    expect(result.score).toBeGreaterThanOrEqual(70);
    // Said in other words: the evidence says how close it came.
    expect(result.markdown).toMatch(
      /You said: "a do \.\.\. while loop will always run through once[^"]*" \(\d+ ?% of the point, by its words and their meaning\)/,
    );
  });
});
