import { describe, expect, it } from 'vitest';
import { keyPointCoverage } from './text-match';

describe('keyPointCoverage', () => {
  const question = 'What is the difference between var, let and const in JavaScript?';
  const keyPoints = ['let and const are block scoped', 'prefer const, then let', 'const prevents reassignment but not mutation'];
  const answer = 'var is function scoped, and let and const are block scoped.';

  it('gives no key point for the question said back: its own words are no evidence', () => {
    // Without the question, naming const and let "covers" the advice to prefer const.
    expect(keyPointCoverage(answer, keyPoints).covered).toContain('prefer const, then let');
    const judged = keyPointCoverage(answer, keyPoints, question);
    expect(judged.covered).toEqual(['let and const are block scoped']);
    expect(judged.missed).toEqual(['prefer const, then let', 'const prevents reassignment but not mutation']);
  });

  it('still counts a point made only of the question\'s words when the answer says them', () => {
    expect(keyPointCoverage('let and const differ from var', ['let and const'], question).covered).toEqual(['let and const']);
  });

  it('counts the point when the answer adds what the question did not say', () => {
    expect(keyPointCoverage('I prefer const and use let only when I reassign.', keyPoints, question).covered).toContain('prefer const, then let');
  });
});
