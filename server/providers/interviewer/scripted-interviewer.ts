/**
 * The built-in interviewer of browser-speech mode. Stateless: where the interview stands is read
 * from the history of this interviewer's own lines (every question is asked verbatim, and every
 * follow-up has a recognisable form), so the server only has to store the transcript.
 */
import type { TranscriptEntry } from '../../../contract';
import { inThreadRater, type BuiltInRater } from '../../rater';
import {
  CLOSING_EMPTY_SET,
  CLOSING_STOP,
  DONE_REASON,
  STOP_REASON,
  closingDoneLine,
  followUpLine,
  isFollowUpLine,
  nextQuestionLine,
  openingLine,
  repeatLine,
  saysNotKnown,
  waitingLine,
  type AnswerKind,
  wantsRepeat,
  wantsToStop,
} from './scripted-interviewer-lines';
import { speakable } from './speakable';
import type { Interviewer, InterviewerTurn, InterviewerTurnInput } from '../types';
import type { QuestionSetRecord } from '../../db/schema';

/** An answer shorter than this is thin whatever it covers. */
export const THIN_ANSWER_WORDS = 25;
/** An answer that reaches less than this share of the key points is thin. */
export const THIN_COVERAGE = 0.34;

interface Position {
  /** Index of the question being answered; -1 before the first question was asked. */
  current: number;
  /** Whether this question already had its one follow-up. */
  followedUp: boolean;
  /** What the candidate has said since the question was first asked (not counting requests to repeat). */
  answerSoFar: string[];
}

const normalise = (text: string) => speakable(text).toLowerCase();

/** Reads the history: which question is current, whether it had its follow-up, what was answered. */
export function readPosition(set: QuestionSetRecord, history: readonly TranscriptEntry[]): Position {
  const questions = set.questions.map(normalise);
  let position: Position = { current: -1, followedUp: false, answerSoFar: [] };
  for (const entry of history) {
    if (entry.role === 'interviewer') {
      const line = normalise(entry.transcript);
      // The latest question mentioned in the line; a repeat names the current one again.
      let asked = -1;
      questions.forEach((q, i) => {
        if (q && line.includes(q)) asked = i;
      });
      if (asked !== -1 && asked !== position.current) position = { current: asked, followedUp: false, answerSoFar: [] };
      else if (asked === -1 && isFollowUpLine(entry.transcript)) position.followedUp = true;
    } else if (position.current >= 0 && !wantsRepeat(entry.transcript)) {
      position.answerSoFar.push(entry.transcript);
    }
  }
  return position;
}

/**
 * `rater`: the built-in rater that judges the answer so far, the same judgement as the rating's
 * (issue 32: one rater everywhere), so a follow-up never asks about a point the candidate has just
 * described. Every line that asks, repeats or follows up on a question says which
 * (`askedQuestion`): the server stores it with the line and the rating pairs answers by it.
 */
export async function scriptedTurn({ set, history, utterance }: InterviewerTurnInput, rater: BuiltInRater): Promise<InterviewerTurn> {
  const questions = set.questions;
  if (questions.length === 0) return { say: CLOSING_EMPTY_SET, closeSession: { reason: DONE_REASON } };
  const position = readPosition(set, history);
  if (position.current === -1) {
    // Opening turn (or a candidate who spoke before the first question): greet and ask question 1.
    if (utterance && wantsToStop(utterance)) return { say: CLOSING_STOP, closeSession: { reason: STOP_REASON } };
    return { say: openingLine(set.name, questions.length, questions[0]!), closeSession: null, askedQuestion: 0 };
  }
  const question = questions[position.current]!;
  const current = position.current;
  if (!utterance) return { say: waitingLine(question), closeSession: null, askedQuestion: current };
  if (wantsToStop(utterance)) return { say: CLOSING_STOP, closeSession: { reason: STOP_REASON } };
  if (wantsRepeat(utterance)) return { say: repeatLine(question), closeSession: null, askedQuestion: current };

  const judged = await rater.judge({ set, questionIndex: position.current, turns: [...position.answerSoFar, utterance] });
  const keyPoints = judged.covered.length + judged.missed.length;
  const ratio = keyPoints === 0 ? 0 : judged.covered.length / keyPoints;
  // An "I don't know" that states a key point is still an answer.
  const kind: AnswerKind =
    saysNotKnown(utterance) && (await rater.judge({ set, questionIndex: position.current, turns: [utterance] })).covered.length === 0
      ? 'not-known'
      : judged.words < THIN_ANSWER_WORDS || (keyPoints > 0 && ratio < THIN_COVERAGE)
        ? 'thin'
        : 'answer';
  if (!position.followedUp && kind !== 'answer') {
    return { say: followUpLine(notYetSaid(judged), current, kind), closeSession: null, askedQuestion: current };
  }
  const next = position.current + 1;
  if (next >= questions.length) return { say: closingDoneLine(kind), closeSession: { reason: DONE_REASON } };
  return { say: nextQuestionLine(next, questions.length, questions[next]!, kind), closeSession: null, askedQuestion: next };
}

/** The points to ask about: missed, and not just described in other words (those the rater found a statement close to). */
function notYetSaid(judged: Awaited<ReturnType<BuiltInRater['judge']>>): string[] {
  const described = new Set(judged.nearMisses.map((n) => n.point));
  return judged.missed.filter((point) => !described.has(point));
}

/** `rater`: the server's rater workers (the application context's `rater`); the default judges on this thread, for tests. */
export function createScriptedInterviewer(rater: BuiltInRater = inThreadRater()): Interviewer {
  return {
    nextTurn: (input) => scriptedTurn(input, rater),
  };
}
