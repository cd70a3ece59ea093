import { describe, expect, it } from 'vitest';
import { interviewColumns } from './dashboard-page';
import { previewText } from './feedback-page';
import { failureSentence } from '../../lib/load-data';
import { wholeNumber } from './email-credits-dialog';
import { removedText } from './emails-actions';
import { adminTexts } from './format';

describe('interviewColumns', () => {
  it('has one column per interview number up to the highest key, 0 where missing', () => {
    expect(interviewColumns({ '1': 5, '3': 2 })).toEqual([
      { label: '1st interview taken', count: 5 },
      { label: '2nd', count: 0 },
      { label: '3rd', count: 2 },
    ]);
  });

  it('names later columns with ordinals and ignores keys that are not numbers', () => {
    const columns = interviewColumns({ '12': 1, total: 99 });
    expect(columns).toHaveLength(12);
    expect(columns.map((c) => c.label).slice(3)).toEqual(['4th', '5th', '6th', '7th', '8th', '9th', '10th', '11th', '12th']);
    expect(columns[11]).toEqual({ label: '12th', count: 1 });
  });

  it('has no columns without interviews', () => {
    expect(interviewColumns({})).toEqual([]);
  });
});

describe('previewText', () => {
  it('cuts at 150 characters', () => {
    expect(previewText('a'.repeat(150))).toBe('a'.repeat(150));
    expect(previewText(`${'b'.repeat(150)}c`)).toBe(`${'b'.repeat(150)}...`);
  });

  it('counts an emoji as one character and never cuts it in half', () => {
    expect(previewText(`${'a'.repeat(149)}😀 and more`)).toBe(`${'a'.repeat(149)}😀...`);
    expect(previewText('😀'.repeat(150))).toBe('😀'.repeat(150));
  });
});

describe('adminTexts', () => {
  it('puts the server error after the prefix, or uses the sentence for other failures', () => {
    const texts = adminTexts('Failed to fetch emails', 'An error occurred while fetching emails.');
    expect(failureSentence({ ok: false, kind: 'http', status: 500, message: 'Nope.', serverError: 'Nope.' }, texts)).toBe(
      'Failed to fetch emails: Nope.',
    );
    expect(failureSentence({ ok: false, kind: 'network', error: null }, texts)).toBe('An error occurred while fetching emails.');
  });
});

describe('removedText', () => {
  it('counts what an erasure removed, in the singular for one', () => {
    expect(removedText({ accounts: 1, events: 2, feedback: 0, sessions: 1 })).toBe('1 account, 2 events, 0 feedback, 1 session');
  });
});

describe('wholeNumber', () => {
  it('takes whole numbers from 0 to a million only', () => {
    expect(wholeNumber(' 12 ')).toBe(12);
    expect(wholeNumber('1000000')).toBe(1_000_000);
    for (const text of ['1000001', '-1', '1.5', '', 'ten']) expect(wholeNumber(text)).toBeNull();
  });
});
