/**
 * The interview as one conversation, oldest first and newest last (docs/product-rules.md, Session
 * lifecycle): the last three interviewer lines as cards (the newest one stands out) with the
 * candidate's answers between them, where they were given. On a phone the newest line and the
 * newest answer are kept in view above the fixed bottom panel, whose height changes with what it
 * holds (a notice, the answer box).
 */
import { useEffect, useRef } from 'react';
import type { TranscriptEntry } from '../../../../contract';
import { VISIBLE_INTERVIEWER_MESSAGES } from './session-controller';
import { cutOffParts } from '../../../../domain/cut-off';

/** The transcript from the third-last interviewer line on. */
export function visibleTurns(transcript: readonly TranscriptEntry[]): TranscriptEntry[] {
  let shown = 0;
  let start = transcript.length;
  while (start > 0 && shown < VISIBLE_INTERVIEWER_MESSAGES) {
    start -= 1;
    if (transcript[start]?.role === 'interviewer') shown += 1;
  }
  // Answers before the oldest card shown belong to lines no longer on screen.
  while (start < transcript.length && transcript[start]?.role !== 'interviewer') start += 1;
  return transcript.slice(start);
}

/**
 * The fixed bottom panel's height, kept current, and the conversation's end scrolled to just above
 * it whenever the panel or the conversation changes size (a new line, an answer, a notice, a
 * rotated phone).
 */
function useEndAbovePanel(list: React.RefObject<HTMLElement | null>, end: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const panel = document.querySelector<HTMLElement>('[data-bottom-panel]');
    const target = end.current;
    if (!panel || !target || !list.current) return;
    const observer = new ResizeObserver(() => {
      target.style.scrollMarginBottom = `${panel.offsetHeight + 16}px`;
      // The page's own bottom padding (main-layout.tsx, pb-44) covers a panel of up to 176 px.
      target.style.height = `${Math.max(0, panel.offsetHeight - 176 + 16)}px`;
      target.scrollIntoView({ block: 'end' });
    });
    observer.observe(panel);
    observer.observe(list.current);
    return () => observer.disconnect();
  }, [list, end]);
}

export function Conversation({ transcript }: { transcript: readonly TranscriptEntry[] }) {
  const turns = visibleTurns(transcript);
  const list = useRef<HTMLOListElement>(null);
  const end = useRef<HTMLDivElement>(null);
  useEndAbovePanel(list, end);

  return (
    <>
      <ol ref={list} aria-label="Interview" className="flex flex-col gap-3">
        {withAges(turns).map(({ entry, age }, i) => {
          const key = `${i}-${entry.at ?? ''}-${entry.transcript}`;
          return age === null ? (
            <Answer key={key} entry={entry} />
          ) : (
            <Card key={key} text={entry.transcript} age={age} cutAt={entry.cutAt} />
          );
        })}
      </ol>
      <div ref={end} aria-hidden="true" />
    </>
  );
}

/** Each interviewer line's age (0 for the newest), null for the candidate's answers. */
function withAges(turns: readonly TranscriptEntry[]): Array<{ entry: TranscriptEntry; age: number | null }> {
  let older = turns.filter((t) => t.role === 'interviewer').length;
  return turns.map((entry) => (entry.role === 'interviewer' ? { entry, age: --older } : { entry, age: null }));
}

/** `age` 0 is the newest interviewer line; `cutAt`: where the candidate talked over it (a dash, "(interrupted)"). */
function Card({ text, age, cutAt }: { text: string; age: number; cutAt?: number | undefined }) {
  const cut = cutAt === undefined ? null : cutOffParts(text, cutAt);
  return (
    <li
      data-testid="message-card"
      className={[
        'rounded-2xl border bg-white px-5 py-4 shadow-sm transition',
        age === 0 ? 'border-indigo-200 text-base text-slate-900 shadow-md' : 'border-slate-200 text-sm text-slate-700',
        age === 1 ? 'mr-8 opacity-90 sm:mr-16' : '',
        age === 2 ? 'mr-8 opacity-75 sm:mr-16' : '',
      ].join(' ')}
    >
      <span className="sr-only">{age === 0 ? 'Latest message: ' : 'Earlier message: '}</span>
      {cut ? (
        <>
          {cut.said}
          <span aria-hidden="true" data-testid="cut-off-mark">
            —
          </span>
          <span className="sr-only"> (interrupted)</span>
          {cut.rest && <span className="text-slate-400"> {cut.rest}</span>}
        </>
      ) : (
        text
      )}
    </li>
  );
}

function Answer({ entry }: { entry: TranscriptEntry }) {
  return (
    <li data-testid="your-answer" className="ml-8 rounded-2xl bg-indigo-700 px-4 py-3 text-sm text-white sm:ml-16">
      <span className="sr-only">{entry.input === 'typed' ? 'You typed: ' : 'You said: '}</span>
      {entry.transcript}
    </li>
  );
}
