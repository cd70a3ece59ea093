import { describe, expect, it } from 'vitest';
import { incompleteLevelText, levelCompletion } from './level-completion';

const q = (question: string, verdict: string) => ({ question, verdict });

describe('levelCompletion (docs/product-rules.md, Topic tiles)', () => {
  it('completes a level only when every question was answered and the score reaches the minimum', () => {
    const all = [q('A?', 'Answered well'), q('B?', 'Thin answer'), q('C?', 'Off topic')];
    expect(levelCompletion(all, 35, 0)).toEqual({ completed: true, unanswered: [], scoreBelow: null });
    expect(levelCompletion(all, 35, 50)).toEqual({ completed: false, unanswered: [], scoreBelow: 50 });
    expect(levelCompletion(all, 50, 50).completed).toBe(true);
  });

  it('names the questions left without an answer, in the set order', () => {
    const some = [q('A?', 'Answered well'), q('B?', 'Not answered'), q('C?', 'Not a real answer')];
    expect(levelCompletion(some, 35, 0)).toEqual({ completed: false, unanswered: ['B?', 'C?'], scoreBelow: null });
  });

  it('judges a rating stored without a breakdown by its score alone', () => {
    expect(levelCompletion(null, 10, 0).completed).toBe(true);
    expect(levelCompletion(null, 10, 20).completed).toBe(false);
  });
});

describe('incompleteLevelText', () => {
  it('says nothing for a completed level', () => {
    expect(incompleteLevelText({ completed: true, unanswered: [], scoreBelow: null }, 80, 5)).toBeNull();
  });

  it('lists what is missing', () => {
    expect(incompleteLevelText({ completed: false, unanswered: ['B?', 'C?'], scoreBelow: null }, 35, 5)).toBe(
      'This interview did not complete its level. Not answered (2 of 5 questions): “B?” “C?” To complete it, answer every question of the set in one interview.',
    );
    expect(incompleteLevelText({ completed: false, unanswered: [], scoreBelow: 60 }, 35, 5)).toBe(
      'This interview did not complete its level. The score 35 is below 60, the minimum score to complete a level here. To complete it, score at least 60 in an interview on this set.',
    );
  });
});
