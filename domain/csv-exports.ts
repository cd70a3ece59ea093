/**
 * The two admin exports' columns (ratings_and_transcripts.csv and feedback_data_{date}.csv),
 * written once for the server, which streams them.
 */
import { csvRow } from './csv';

/** The UTF-8 byte-order mark: without it Excel reads the file in the local code page. */
export const CSV_BOM = '\uFEFF';

export const RATINGS_CSV_NAME = 'ratings_and_transcripts.csv';

/**
 * The headers say which number is which: the events' stored set index counts from 0 (the admin
 * table's "Set Index"), candidates know the set by its number counting from 1 ("Set 1").
 */
export const RATINGS_HEADER = [
  'ID',
  'User Email',
  'Topic',
  'Set Index (from 0)',
  'Set Number (as candidates see it)',
  'Timestamp',
  'Duration (s)',
  'Score',
  'Rater',
  'Transcript',
  'Rating Markdown',
] as const;

/** Feedback's number is the set number candidates see (the list's "Q{n}"). */
export const FEEDBACK_HEADER = ['ID', 'User Email', 'Topic', 'Set Number Q (as candidates see it)', 'Feedback', 'Created At'] as const;

/** "Set 1 · JavaScript": a set as candidates know it, from its 1-based number and topic. */
export function setLabel(setNumber: number | null, topic: string | null): string {
  if (setNumber === null) return topic ?? '';
  return topic ? `Set ${setNumber} · ${topic}` : `Set ${setNumber}`;
}

interface TranscriptLine {
  role: 'interviewer' | 'interviewee';
  transcript: string;
}

const ROLE_LABEL = { interviewer: 'Interviewer', interviewee: 'Interviewee' } as const;

/** A transcript as a spreadsheet reader wants it: one "Speaker: words" line per turn. */
export function readableTranscript(transcript: readonly TranscriptLine[] | null): string {
  return (transcript ?? []).map((entry) => `${ROLE_LABEL[entry.role]}: ${entry.transcript}`).join('\n');
}

export interface RatingCsvRecord {
  id: number;
  userEmail: string | null;
  topic: string | null;
  questionSetIndex: number | null;
  eventTimestamp: string;
  durationSeconds: number | null;
  score: number | null;
  rater: string | null;
  transcript: readonly TranscriptLine[] | null;
  ratingMarkdown: string | null;
}

export function ratingCsvRow(event: RatingCsvRecord): string {
  return csvRow([
    event.id,
    event.userEmail,
    event.topic,
    event.questionSetIndex,
    event.questionSetIndex === null ? null : event.questionSetIndex + 1,
    event.eventTimestamp,
    event.durationSeconds,
    event.score,
    event.rater,
    readableTranscript(event.transcript),
    event.ratingMarkdown,
  ]);
}

export interface FeedbackCsvRecord {
  id: number;
  userEmail: string | null;
  topic: string;
  questionIndex: number;
  feedback: string;
  createdAt: string;
}

export function feedbackCsvRow(item: FeedbackCsvRecord): string {
  return csvRow([item.id, item.userEmail, item.topic, item.questionIndex, item.feedback, item.createdAt]);
}

/** `feedback_data_{date}.csv` with a calendar date as YYYY-MM-DD (the caller's local date). */
export function feedbackCsvName(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `feedback_data_${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
