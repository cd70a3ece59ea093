import type { TranscriptEntry } from '../../../../contract';

/** How many of the candidate's own answers stay on screen during the interview. */
export const VISIBLE_ANSWERS = 3;

/**
 * The candidate's own words during the interview (typed answers at once, spoken ones as they are
 * recognised), newest last, beside the interviewer's stacked cards (docs/product-rules.md, Session lifecycle).
 */
export function YourAnswers({ transcript }: { transcript: TranscriptEntry[] }) {
  const answers = transcript.filter((entry) => entry.role === 'interviewee').slice(-VISIBLE_ANSWERS);
  if (answers.length === 0) return null;
  return (
    <section aria-label="Your answers" className="mt-6">
      <h2 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Your answers</h2>
      <ol className="mt-2 flex flex-col gap-2">
        {answers.map((entry, i) => (
          <li
            key={`${entry.at ?? i}-${entry.transcript}`}
            data-testid="your-answer"
            className="ml-6 rounded-2xl bg-indigo-700 px-4 py-3 text-sm text-white sm:ml-16"
          >
            <span className="sr-only">{entry.input === 'typed' ? 'You typed: ' : 'You said: '}</span>
            {entry.transcript}
          </li>
        ))}
      </ol>
    </section>
  );
}
