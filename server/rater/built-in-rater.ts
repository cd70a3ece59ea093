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
import { answerTextsToEmbed, judgeAnswer, type AnswerJudgement } from './rubric-rater-judge';
import { pairingTexts, rateWithRubric, textsToEmbed } from './rubric-rater';
import { eitherMeaning, meaningFor, type SentenceMeaning } from './sentence-meaning';
import type { SentenceEncoder } from './sentence-encoder';

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

/**
 * Runs the judgement on this thread, each set's Markdown parsed once per version
 * (model-answer-cache.ts). `meaning`: the sentence model's lookup over the texts `textsToPair` and
 * `textsToRate`, or `textsToJudge`, name (sentence-meaning.ts meaningFor); without it the words alone decide.
 */
export function judgeOnThisThread(models: ModelAnswerCache = createModelAnswerCache()) {
  const answerOf = (input: AnswerToJudge): { model: ModelAnswer | undefined; question: string | undefined } =>
    'model' in input ? input : { model: models(input.set)[input.questionIndex], question: input.set.questions[input.questionIndex] };
  return {
    textsToPair: (input: InterviewToRate): string[] => pairingTexts(input),
    textsToRate: (input: InterviewToRate, pairing?: SentenceMeaning): string[] => textsToEmbed(input, models(input.set), pairing),
    textsToJudge: (input: AnswerToJudge): string[] => {
      const { model, question } = answerOf(input);
      return answerTextsToEmbed(input.turns, model, question);
    },
    rate: (input: InterviewToRate, meaning?: SentenceMeaning): RatingResult => rateWithRubric(input, models(input.set), meaning),
    judge: (input: AnswerToJudge, meaning?: SentenceMeaning): AnswerJudgement => {
      const { model, question } = answerOf(input);
      return judgeAnswer(input.turns, model, question, meaning);
    },
  };
}

/**
 * The built-in rater on the calling thread: for tests of the judgement (with `encoder`, the
 * sentence model's too), and the same code the workers run; never the server's request path.
 */
export function inThreadRater(encoder?: SentenceEncoder): BuiltInRater {
  const judge = judgeOnThisThread();
  const meaning = async (texts: string[]) => (encoder ? meaningFor(encoder, texts) : undefined);
  return {
    rate: async (input) => {
      // Two batches: which question each answer belongs to decides which statements are judged, and
      // pairing may need the meaning of a few interviewer lines first (usually none are needed).
      const toPair = judge.textsToPair(input);
      const pairing = toPair.length === 0 ? undefined : await meaning(toPair);
      return judge.rate(input, eitherMeaning(pairing, await meaning(judge.textsToRate(input, pairing))));
    },
    judge: async (input) => judge.judge(input, await meaning(judge.textsToJudge(input))),
  };
}

/** The rubric rater provider: `builtIn` is the server's rater workers (rater-pool.ts); the default judges on this thread, for tests. */
export function createRubricRater(builtIn: BuiltInRater = inThreadRater()): Rater {
  return {
    rate: (input) => builtIn.rate(interviewToRate(input)),
  };
}
