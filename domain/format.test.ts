import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDuration, formatPercent, ordinal, wholeSecondsBetween } from './format';

describe('duration as minutes and seconds (docs/product-rules.md, Results and history)', () => {
  it.each([
    [0, '0m 0s'],
    [5, '0m 5s'],
    [60, '1m 0s'],
    [125, '2m 5s'],
    [3600, '60m 0s'],
  ])('%i s -> %s', (seconds, text) => expect(formatDuration(seconds)).toBe(text));

  it('shows a dash when unknown', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(-1)).toBe('—');
  });

  it('rounds a session to whole seconds', () => {
    expect(wholeSecondsBetween(1000, 3499)).toBe(2);
    expect(wholeSecondsBetween(1000, 3500)).toBe(3);
    expect(wholeSecondsBetween(5000, 1000)).toBe(0);
  });
});

describe('small formatters', () => {
  it('formats percents', () => {
    expect(formatPercent(87.4)).toBe('87%');
    expect(formatPercent(0)).toBe('0%');
  });

  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [101, '101st'],
    [111, '111th'],
  ])('ordinal %i -> %s', (n, text) => expect(ordinal(n)).toBe(text));

  it('formats dates in a given zone and leaves junk as it is', () => {
    expect(formatDate('2026-03-04T10:00:00Z', 'en-US', 'UTC')).toBe('Mar 4, 2026');
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatDateTime('2026-03-04T10:05:00Z', 'en-US', 'UTC')).toBe('Mar 4, 2026, 10:05 AM');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
