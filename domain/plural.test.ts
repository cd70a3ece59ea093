import { describe, expect, it } from 'vitest';
import { count } from './plural';

describe('count', () => {
  it('puts the noun in the number the count needs', () => {
    expect(count(1, 'rating')).toBe('1 rating');
    expect(count(0, 'rating')).toBe('0 ratings');
    expect(count(2, 'key point')).toBe('2 key points');
    expect(count(1, 'person', 'people')).toBe('1 person');
    expect(count(1200, 'word', 'words', (n) => n.toLocaleString('en-US'))).toBe('1,200 words');
  });
});
