/**
 * What the built-in rater does for the rest of the server, whichever thread runs it: rate a whole
 * interview, and judge one answer to one question ("Try an answer" in the set editor, the scripted
 * interviewer's follow-ups). One judgement everywhere (issue 32): all of them are `judgeAnswer`.
 *
 * `inThreadRater` runs it on the calling thread; the server runs it in worker threads
 * (rater-pool.ts, docs/decisions/028-rater-in-worker-threads.md), each of which runs an
 * `inThreadRater` of its own.
 */
import type { ModelAnswer } from '../catalogue/model-answers';
import type { QuestionSetRecord } from '../db/schema';
import type { Rater, RatingInput, RatingResult } from '../providers/types';
import { createModelAnswerCache, type ModelAnswerCache, type RatedSet } from './model-answer-cache';
import { judgeAnswer, type AnswerJudgement } from './rubric-rater-judge';
import { rateWithRubric } from './rubric-rater';

/** A whole interview to rate (what the rubric rater reads of a RatingInput). */
export interface InterviewToRate {
  set: QuestionSetRecord;
  transcripts: RatingInput['transcripts'];
  durationSeconds: number;
}

/** One answer to one question: of a stored set (by its index), or of a model answer as drafted in the editor. */
export type AnswerToJudge = { turns: string[] } & (
  { set: RatedSet; questionIndex: number } | { model: ModelAnswer | undefined; question: string }
);

export interface BuiltInRater {
  rate(input: InterviewToRate): Promise<RatingResult>;
  judge(input: AnswerToJudge): Promise<AnswerJudgement>;
}

/** The interview as the rubric rater reads it: only what it needs crosses to a worker. */
export function interviewToRate(input: RatingInput): InterviewToRate {
  return { set: input.set, transcripts: input.transcripts, durationSeconds: input.durationSeconds };
}

/** Runs the judgement on this thread, each set's Markdown parsed once per version (model-answer-cache.ts). */
export function judgeOnThisThread(models: ModelAnswerCache = createModelAnswerCache()) {
  return {
    rate: (input: InterviewToRate): RatingResult => rateWithRubric(input, models(input.set)),
    judge: (input: AnswerToJudge): AnswerJudgement => {
      if ('model' in input) return judgeAnswer(input.turns, input.model, input.question);
      return judgeAnswer(input.turns, models(input.set)[input.questionIndex], input.set.questions[input.questionIndex]);
    },
  };
}

/** The built-in rater on the calling thread: for unit tests and the worker itself, never the server's request path. */
export function inThreadRater(): BuiltInRater {
  const judge = judgeOnThisThread();
  return { rate: async (input) => judge.rate(input), judge: async (input) => judge.judge(input) };
}

/** The rubric rater provider: `builtIn` is the server's rater workers (rater-pool.ts); the default judges on this thread, for tests. */
export function createRubricRater(builtIn: BuiltInRater = inThreadRater()): Rater {
  return {
    rate: (input) => builtIn.rate(interviewToRate(input)),
  };
}
