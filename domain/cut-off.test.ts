import { describe, expect, it } from 'vitest';
import { cutOffParts } from './cut-off';

describe('cutOffParts', () => {
  it('splits after the word in progress where the voice stopped', () => {
    expect(cutOffParts('What is a closure in JavaScript?', 12)).toEqual({ said: 'What is a closure', rest: 'in JavaScript?' });
    expect(cutOffParts('What is a closure in JavaScript?', 17)).toEqual({ said: 'What is a closure', rest: 'in JavaScript?' });
    expect(cutOffParts('What is a closure in JavaScript?', 0)).toEqual({ said: 'What', rest: 'is a closure in JavaScript?' });
  });

  it('a cut at or past the end leaves nothing unsaid; odd numbers are bounded', () => {
    expect(cutOffParts('Thanks.', 7)).toEqual({ said: 'Thanks.', rest: '' });
    expect(cutOffParts('Thanks.', 99)).toEqual({ said: 'Thanks.', rest: '' });
    expect(cutOffParts('Thanks. Next one.', -5)).toEqual({ said: 'Thanks.', rest: 'Next one.' });
  });
});
