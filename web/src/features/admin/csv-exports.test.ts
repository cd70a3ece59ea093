import { describe, expect, it } from 'vitest';
import type { AdminEvent, AdminFeedback } from '../../../../contract/admin';
import { feedbackCsv, feedbackCsvName, ratingsCsv, readableTranscript } from './csv-exports';

function event(overrides: Partial<AdminEvent>): AdminEvent {
  return {
    id: 1, userEmail: 'a@example.com', eventType: 'RATE', topic: 'React', questionSetIndex: 0,
    eventTimestamp: '2026-03-04T10:00:00.000Z', durationSeconds: 95, transcript: [], ratingMarkdown: '# Good',
    score: 81, rater: 'rubric', ...overrides,
  };
}

describe('ratingsCsv', () => {
  it('exports only RATE events, with a readable transcript', () => {
    const csv = ratingsCsv([
      event({ id: 3, eventType: 'START', transcript: null, ratingMarkdown: null, score: null }),
      event({
        id: 2,
        transcript: [
          { role: 'interviewer', transcript: 'Why hooks?' },
          { role: 'interviewee', transcript: '=cmd, "quoted"' },
        ],
        ratingMarkdown: '## Score\n- ok',
      }),
    ]);
    expect(csv).toBe(
      'ID,User Email,Topic,Set Index,Timestamp,Duration (s),Score,Rater,Transcript,Rating Markdown\r\n' +
        '2,a@example.com,React,0,2026-03-04T10:00:00.000Z,95,81,rubric,' +
        '"Interviewer: Why hooks?\nInterviewee: =cmd, ""quoted""","## Score\n- ok"\r\n',
    );
  });

  it('answers null when nothing was rated', () => {
    expect(ratingsCsv([event({ eventType: 'START' })])).toBeNull();
    expect(ratingsCsv([])).toBeNull();
  });

  it('neutralises a transcript that starts with a formula sign only at the cell start', () => {
    expect(readableTranscript([{ role: 'interviewee', transcript: 'x' }])).toBe('Interviewee: x');
    const csv = ratingsCsv([event({ userEmail: '@evil.com', ratingMarkdown: '-bullet' })]);
    expect(csv).toContain(",'@evil.com,");
    expect(csv?.endsWith(",'-bullet\r\n")).toBe(true);
  });
});

describe('feedbackCsv', () => {
  const item: AdminFeedback = {
    id: 7, user: null, topic: 'SQL', questionIndex: 2, feedback: '+SUM(1)\n<b>bold</b>', createdAt: '2026-01-02T03:04:05.000Z',
  };

  it('writes one row per feedback, unknown users as an empty cell', () => {
    expect(feedbackCsv([item, { ...item, id: 8, user: { email: 'b@example.com' }, feedback: 'fine' }])).toBe(
      'ID,User Email,Topic,Question Index,Feedback,Created At\r\n' +
        `7,,SQL,2,"'+SUM(1)\n<b>bold</b>",2026-01-02T03:04:05.000Z\r\n` +
        '8,b@example.com,SQL,2,fine,2026-01-02T03:04:05.000Z\r\n',
    );
  });

  it('answers null for no feedback', () => {
    expect(feedbackCsv([])).toBeNull();
  });

  it('names the file with the local date', () => {
    expect(feedbackCsvName(new Date(2026, 0, 5, 23, 59))).toBe('feedback_data_2026-01-05.csv');
    expect(feedbackCsvName(new Date(2026, 11, 31, 0, 0))).toBe('feedback_data_2026-12-31.csv');
  });
});
