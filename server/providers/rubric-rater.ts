/**
 * The built-in rater: deterministic, offline and fast. Each question is paired with the
 * candidate's answer and judged against the model answer's key points; the score is the mean
 * over all questions, so unanswered questions count as zero.
 */
import { splitModelAnswers } from '../catalogue/model-answers';
import { deliveryFigures } from './delivery-figures';
import { judgeAnswer } from './rubric-rater-judge';
import { emptyRatingMarkdown, ratingMarkdown } from './rubric-rater-markdown';
import { pairAnswers } from './rubric-rater-pairing';
import type { Rater, RatingInput, RatingResult } from './types';

export const RUBRIC_RATER_NAME = 'rubric';

export function rateWithRubric({ set, transcripts, durationSeconds }: RatingInput): RatingResult {
  const figures = deliveryFigures(transcripts, durationSeconds);
  if (figures.wordsSpoken === 0) {
    return { score: 0, markdown: emptyRatingMarkdown(set, figures), rater: RUBRIC_RATER_NAME };
  }
  const modelAnswers = splitModelAnswers(set.modelAnswers, set.questions.length);
  const judgements = pairAnswers(set.questions, transcripts).map((pair, i) => judgeAnswer(pair.turns, modelAnswers[i]?.keyPoints ?? [], set.questions[i]));
  const score = judgements.length === 0 ? 0 : Math.round(judgements.reduce((sum, j) => sum + j.score, 0) / judgements.length);
  return { score, markdown: ratingMarkdown(set, score, judgements, figures), rater: RUBRIC_RATER_NAME };
}

export function createRubricRater(): Rater {
  return {
    rate: async (input) => rateWithRubric(input),
  };
}
