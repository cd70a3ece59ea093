import { describe, expect, it } from 'vitest';
import { judgeAnswer } from './rubric-rater-judge';
import { correctTypos, oneEdit, typoVocabulary } from './typos';

describe('typos of the question set’s words', () => {
  const vocabulary = typoVocabulary(['What is a binary search tree?', 'A binary tree where every left child is smaller than its parent.']);

  it('reads a word that is no English word as the one set word it is one edit from', () => {
    expect(correctTypos('a binray tree wher the left chlid is smaller', vocabulary)).toBe('a binary tree where the left child is smaller');
    expect(correctTypos('the parnet is larger', vocabulary)).toBe('the parent is larger');
  });

  it('splits two set words run together', () => {
    expect(correctTypos('a binarytree', vocabulary)).toBe('a binary tree');
  });

  it('leaves real words, words of no set word and ambiguous typos alone', () => {
    // "three" and "tee" are English words, "zzzz" is near nothing.
    expect(correctTypos('three tee zzzz', vocabulary)).toBe('three tee zzzz');
    // Names of code are no typos, whatever they run together: "setTimeout", "os.cpus()", "pg_stat".
    const code = typoVocabulary(['set a timeout', 'os and cpus', 'stat']);
    expect(correctTypos('setTimeout, settimeout(), os.cpus() and pg_stat', code)).toBe('setTimeout, settimeout(), os.cpus() and pg_stat');
    const ambiguous = typoVocabulary(['a cart and a card']);
    expect(correctTypos('the carx', ambiguous)).toBe('the carx');
  });

  it('knows the other sides of the opposite properties the set names', () => {
    const v = typoVocabulary(['They are not in the same region.']);
    expect(correctTypos('they are in seperate regions', v)).toBe('they are in separate regions');
    expect(correctTypos('they are in diffrent regions', v)).toBe('they are in different regions');
  });

  it('counts one edit: a letter added, dropped, changed, or two neighbours swapped', () => {
    expect(oneEdit('path', 'pah')).toBe(true);
    expect(oneEdit('path', 'apth')).toBe(true);
    expect(oneEdit('path', 'ppath')).toBe(true);
    expect(oneEdit('path', 'math')).toBe(true);
    expect(oneEdit('path', 'path')).toBe(false);
    expect(oneEdit('path', 'pots')).toBe(false);
  });

  it('lets a typed answer with typos earn the point its words say', () => {
    const model = {
      answer: 'They are not in the same region.',
      keyPoints: ['they are not in the same region'],
      accepted: [[]],
      contradictions: [[]],
    };
    expect(judgeAnswer(['they are each in a seperate reigon'], model, 'Where are the primary and the replica?').covered).toEqual([
      'they are not in the same region',
    ]);
  });
});
