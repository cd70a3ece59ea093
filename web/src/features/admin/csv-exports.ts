import { toCsv } from '../../../../domain/csv';
import type { AdminEvent, AdminFeedback } from '../../../../contract/admin';

/** Spec §9: the two export names. */
export const RATINGS_CSV_NAME = 'ratings_and_transcripts.csv';

/** `feedback_data_{date}.csv` with the operator's local calendar date as YYYY-MM-DD. */
export function feedbackCsvName(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `feedback_data_${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

export const RATINGS_HEADER = [
  'ID', 'User Email', 'Topic', 'Set Index', 'Timestamp', 'Duration (s)', 'Score', 'Rater', 'Transcript', 'Rating Markdown',
] as const;

export const FEEDBACK_HEADER = ['ID', 'User Email', 'Topic', 'Question Index', 'Feedback', 'Created At'] as const;

const ROLE_LABEL = { interviewer: 'Interviewer', interviewee: 'Interviewee' } as const;

/** A transcript as a spreadsheet reader wants it: one "Speaker: words" line per turn. */
export function readableTranscript(transcript: AdminEvent['transcript']): string {
  return (transcript ?? []).map((entry) => `${ROLE_LABEL[entry.role]}: ${entry.transcript}`).join('\n');
}

/** Spec §5: only RATE events are exported; null when there are none (the page alerts instead). */
export function ratingsCsv(events: readonly AdminEvent[]): string | null {
  const rated = events.filter((event) => event.eventType === 'RATE');
  if (rated.length === 0) return null;
  return toCsv(
    RATINGS_HEADER,
    rated.map((event) => [
      event.id,
      event.userEmail,
      event.topic,
      event.questionSetIndex,
      event.eventTimestamp,
      event.durationSeconds,
      event.score,
      event.rater,
      readableTranscript(event.transcript),
      event.ratingMarkdown,
    ]),
  );
}

/** Null when there is no feedback (the page alerts instead). */
export function feedbackCsv(items: readonly AdminFeedback[]): string | null {
  if (items.length === 0) return null;
  return toCsv(
    FEEDBACK_HEADER,
    items.map((item) => [item.id, item.user?.email ?? null, item.topic, item.questionIndex, item.feedback, item.createdAt]),
  );
}

/**
 * Hands a CSV file to the browser's download machinery. It starts with the UTF-8 byte-order mark:
 * without it Excel reads the file in the local code page and garbles every non-ASCII character.
 */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has already handed the blob to the download; revoking later keeps slow browsers safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
