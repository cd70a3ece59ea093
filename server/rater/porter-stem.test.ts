/**
 * The stemmer and the matcher's word handling on pathological input (docs/decisions/016-rater-measured-on-people.md, point 4): every
 * step is linear in the input's length, and a token longer than any word is one opaque token.
 */
import { describe, expect, it } from 'vitest';
import { matchKeyPoints } from './evidence-match';
import { MAX_WORD_LENGTH, porterStem } from './porter-stem';
import { splitStatements } from './statements';
import { contentStems, OPAQUE_STEM, rawKey, stem } from './text-match';

/** CPU milliseconds `fn` takes (CPU, not wall time: the bound holds on a busy machine too). */
const timed = (fn: () => void): number => {
  const started = process.cpuUsage();
  fn();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
};

describe('the Porter stemmer on runs of "y"', () => {
  it('reads "y" as Porter does, without recursion: a consonant at the start or after a vowel, alternating in a run', () => {
    expect(['toy', 'syzygy', 'yyyy', 'sayyyyed', 'crying', 'happy', 'yyyyyyyyyyyying'].map(porterStem)).toEqual([
      'toi',
      'syzygi',
      'yyyi',
      'sayyyi',
      'cry',
      'happi',
      'yyyyyyyyyyyi',
    ]);
  });

  it('leaves a word longer than MAX_WORD_LENGTH as it is, at once: 12,500 "y"s once overflowed the stack', () => {
    const long = 'y'.repeat(12_500);
    let stemmed = '';
    expect(timed(() => (stemmed = porterStem(long)))).toBeLessThan(50);
    expect(stemmed).toBe(long);
    expect(porterStem('y'.repeat(MAX_WORD_LENGTH))).toBe(`${'y'.repeat(MAX_WORD_LENGTH - 1)}i`);
    expect(porterStem('y'.repeat(MAX_WORD_LENGTH + 1))).toBe('y'.repeat(MAX_WORD_LENGTH + 1));
  });
});

describe('overlong tokens', () => {
  it('are one opaque token: not stemmed, no concept, no content word of a key point', () => {
    const long = 'x'.repeat(MAX_WORD_LENGTH + 1);
    expect(stem(long)).toBe(OPAQUE_STEM);
    expect(rawKey(long)).toBe(OPAQUE_STEM);
    expect(contentStems(`closure ${long} scope`)).toEqual(['closur', 'scope']);
  });

  it('cost time linear in their length: 100 KB without a space, and 2,000 distinct long words', () => {
    const noSpace = 'y'.repeat(100_000);
    let distinct = '';
    for (let i = 0; distinct.length < 100_000; i++) distinct += `${i.toString(36).padStart(8, 'q')}${'abcdefghij'.repeat(4)} `;
    for (const text of [noSpace, distinct, 'a.b,'.repeat(25_000)]) {
      const ms = timed(() =>
        matchKeyPoints(
          splitStatements(text),
          [{ text: 'a closure keeps its outer scope', accepted: [], contradictions: [] }],
          'What is a closure?',
        ),
      );
      expect(ms).toBeLessThan(1_500);
    }
  });

  it('leave the real words around them to earn their point', () => {
    const answer = `A closure keeps access to the variables of its outer function ${'y'.repeat(12_500)} even after it returns.`;
    const [match] = matchKeyPoints(
      splitStatements(answer),
      [{ text: 'a function keeps access to its outer scope variables', accepted: [], contradictions: [] }],
      'What is a closure?',
    );
    expect(match!.status).toBe('covered');
  });
});

describe('statements of long unpunctuated speech', () => {
  it('read each word a bounded number of times, however short its clauses', () => {
    const words = Array.from({ length: 6_000 }, (_, i) => `and it w${i.toString(36)}`).join(' ');
    const statements = splitStatements(words);
    const tokens = statements.reduce((n, s) => n + s.tokens.length, 0);
    expect(tokens).toBeLessThan(8 * 18_000);
  });

  it("cut a run of words joined without spaces into statements of a window's size", () => {
    const statements = splitStatements('const,um,'.repeat(10_000));
    expect(Math.max(...statements.map((s) => s.tokens.length))).toBeLessThanOrEqual(36);
  });
});
