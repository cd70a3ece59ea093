import { describe, expect, it } from 'vitest';
import { feedbackCsvRow, ratingCsvRow, readableTranscript } from './csv-exports';

describe('export rows', () => {
  it('writes a rating with a readable transcript, quoting and neutralising only cell starts', () => {
    const row = ratingCsvRow({
      id: 2,
      userEmail: '@evil.com',
      topic: 'React',
      questionSetIndex: 0,
      eventTimestamp: '2026-03-04T10:00:00.000Z',
      durationSeconds: 95,
      score: 81,
      rater: 'rubric',
      transcript: [
        { role: 'interviewer', transcript: 'Why hooks?' },
        { role: 'interviewee', transcript: '=cmd, "quoted"' },
      ],
      ratingMarkdown: '-bullet',
    });
    expect(row).toBe(
      `2,'@evil.com,React,0,1,2026-03-04T10:00:00.000Z,95,81,rubric,"Interviewer: Why hooks?\nInterviewee: =cmd, ""quoted""",'-bullet\r\n`,
    );
    expect(readableTranscript(null)).toBe('');
  });

  it('writes feedback, an unknown user as an empty cell', () => {
    expect(
      feedbackCsvRow({
        id: 7,
        userEmail: null,
        topic: 'SQL',
        questionIndex: 2,
        feedback: '+SUM(1)\n<b>bold</b>',
        createdAt: '2026-01-02T03:04:05.000Z',
      }),
    ).toBe(`7,,SQL,2,"'+SUM(1)\n<b>bold</b>",2026-01-02T03:04:05.000Z\r\n`);
  });
});
