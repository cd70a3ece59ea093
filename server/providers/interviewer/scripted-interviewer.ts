/**
 * The built-in interviewer of browser-speech mode. Stateless: where the interview stands is read
 * from the history of this interviewer's own lines (every question is asked verbatim, and every
 * follow-up has a recognisable form), so the server only has to store the transcript.
 */
import type { TranscriptEntry, TurnResponse } from '../../../contract';
import { splitModelAnswers } from '../../catalogue/model-answers';
import { countWords, keyPointCoverage } from '../../rater/text-match';
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
import type { Interviewer, InterviewerTurnInput } from '../types';
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

export function scriptedTurn({ set, history, utterance }: InterviewerTurnInput): TurnResponse {
  const questions = set.questions;
  if (questions.length === 0) return { say: CLOSING_EMPTY_SET, closeSession: { reason: DONE_REASON } };
  const position = readPosition(set, history);
  if (position.current === -1) {
    // Opening turn (or a candidate who spoke before the first question): greet and ask question 1.
    if (utterance && wantsToStop(utterance)) return { say: CLOSING_STOP, closeSession: { reason: STOP_REASON } };
    return { say: openingLine(set.name, questions.length, questions[0]!), closeSession: null };
  }
  const question = questions[position.current]!;
  if (!utterance) return { say: waitingLine(question), closeSession: null };
  if (wantsToStop(utterance)) return { say: CLOSING_STOP, closeSession: { reason: STOP_REASON } };
  if (wantsRepeat(utterance)) return { say: repeatLine(question), closeSession: null };

  const answer = [...position.answerSoFar, utterance].join(' ');
  const keyPoints = splitModelAnswers(set.modelAnswers, questions.length)[position.current]?.keyPoints ?? [];
  const coverage = keyPointCoverage(answer, keyPoints, question);
  // An "I don't know" that happens to name a key point is still an answer.
  const kind: AnswerKind =
    saysNotKnown(utterance) && keyPointCoverage(utterance, keyPoints, question).missed.length === keyPoints.length
      ? 'not-known'
      : countWords(answer) < THIN_ANSWER_WORDS || (keyPoints.length > 0 && coverage.ratio < THIN_COVERAGE)
        ? 'thin'
        : 'answer';
  if (!position.followedUp && kind !== 'answer') {
    return { say: followUpLine(coverage.missed, position.current, kind), closeSession: null };
  }
  const next = position.current + 1;
  if (next >= questions.length) return { say: closingDoneLine(kind), closeSession: { reason: DONE_REASON } };
  return { say: nextQuestionLine(next, questions.length, questions[next]!, kind), closeSession: null };
}

export function createScriptedInterviewer(): Interviewer {
  return {
    nextTurn: async (input) => scriptedTurn(input),
  };
}
