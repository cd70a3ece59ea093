import { describe, expect, it } from 'vitest';
import { feedbackCsvName } from './csv-exports';

describe('feedbackCsvName', () => {
  it('names the file with the local date', () => {
    expect(feedbackCsvName(new Date(2026, 0, 5, 23, 59))).toBe('feedback_data_2026-01-05.csv');
    expect(feedbackCsvName(new Date(2026, 11, 31, 0, 0))).toBe('feedback_data_2026-12-31.csv');
  });
});
