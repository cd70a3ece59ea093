/**
 * docs/product-rules.md, Session lifecycle (Reconnecting): what a continuation call (an OpenAI
 * voice session resumed after a dropped connection) is told, built from the server's transcript.
 * A question the candidate had not answered when the connection dropped is asked again, led by
 * "Welcome back."; after an answer the interview goes on with the next question.
 */
import type { TranscriptEntry } from '../../../contract';
import { INAUDIBLE, WELCOME_BACK } from '../../../domain/interviewer-protocol';

/** Where a continuation call picks up. */
export type ResumePoint =
  /** The last interviewer line got no answer: `question` is asked again. */
  | { kind: 'ask-again'; question: string }
  /** The last line was answered: `question` is the next one. */
  | { kind: 'next'; question: string }
  /** Every question was asked and the last one answered: the interview closes. */
  | { kind: 'close' };

type Line = Pick<TranscriptEntry, 'role' | 'transcript'>;

/** From the stored transcript: ask the unanswered question again, else go on after the last one asked. */
export function resumePoint(questions: readonly string[], transcript: readonly Line[]): ResumePoint {
  const lastAsked = transcript.findLastIndex((e) => e.role === 'interviewer');
  // An answer that could not be heard counts as none (it is rated as unanswered too).
  const answered = transcript
    .slice(lastAsked + 1)
    .some((e) => e.role === 'interviewee' && e.transcript.trim() !== '' && e.transcript !== INAUDIBLE);
  const asked = lastQuestionAsked(questions, transcript);
  // Before the first question (only a greeting was said) there is nothing to ask again.
  if (lastAsked >= 0 && !answered && asked >= 0) {
    const line = transcript[lastAsked]!.transcript;
    // A follow-up that is no question of the set is asked again as it was said.
    const question = normalise(line).includes(normalise(questions[asked]!)) ? questions[asked]! : stripWelcomeBack(line);
    return { kind: 'ask-again', question };
  }
  const next = questions[asked + 1];
  return next === undefined ? { kind: 'close' } : { kind: 'next', question: next };
}

/** A continuation call's extra instructions: what was said so far and where to pick up. */
export function continuationInstructions(transcript: readonly Line[], point: ResumePoint): string {
  const lines = transcript.map((e) => `${e.role === 'interviewer' ? 'Interviewer' : 'Candidate'}: ${e.transcript}`).join('\n');
  return [
    'This interview was interrupted by a dropped connection and is now continuing. Do not greet the candidate again;',
    `start with "${WELCOME_BACK}", then continue.`,
    pickUp(point),
    '',
    'Transcript so far:',
    lines || '(nothing yet)',
  ].join('\n');
}

function pickUp(point: ResumePoint): string {
  switch (point.kind) {
    case 'ask-again':
      return `The candidate had not answered the last question yet. Ask this question again: ${point.question}`;
    case 'next':
      return `Continue with this question: ${point.question}`;
    case 'close':
      return 'All questions were asked and answered: thank the candidate and call close_session.';
  }
}

/** Index of the last question of the set the interviewer has asked (-1: none yet). */
function lastQuestionAsked(questions: readonly string[], transcript: readonly Line[]): number {
  const said = transcript
    .filter((e) => e.role === 'interviewer')
    .map((e) => normalise(e.transcript))
    .join('\n');
  let last = -1;
  questions.forEach((q, i) => {
    if (said.includes(normalise(q))) last = i;
  });
  return last;
}

function stripWelcomeBack(line: string): string {
  return line.startsWith(WELCOME_BACK) ? line.slice(WELCOME_BACK.length).trim() : line;
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
