/**
 * The built-in rater: deterministic, offline and fast. Each question is paired with the
 * candidate's answer and judged against the model answer's key points; the score is the mean
 * over all questions, so unanswered questions count as zero.
 */
import type { RatingBreakdown } from '../../contract';
import { splitModelAnswers, type ModelAnswer } from '../catalogue/model-answers';
import { deliveryFigures } from './delivery-figures';
import { answerTextsToEmbed, judgeAnswer, type AnswerJudgement } from './rubric-rater-judge';
import type { SentenceMeaning } from './sentence-meaning';
import { emptyRatingMarkdown, ratingMarkdown } from './rubric-rater-markdown';
import { pairAnswers, pairingTextsToEmbed } from './rubric-rater-pairing';
import type { RatingInput, RatingResult } from '../providers/types';

export const RUBRIC_RATER_NAME = 'rubric';

export function toBreakdown(questions: readonly string[], judgements: readonly AnswerJudgement[]): RatingBreakdown {
  return judgements.map((j, i) => ({
    question: questions[i] ?? '',
    verdict: j.verdict,
    score: j.score,
    covered: j.covered,
    missed: j.missed,
    evidence: j.evidence,
  }));
}

/**
 * The texts whose meaning pairing answers to questions may ask about (the questions and the
 * interviewer lines words and order left open; rubric-rater-pairing.ts), embedded before the rest:
 * which question an answer belongs to decides which texts textsToEmbed names. Often none.
 */
export function pairingTexts({ set, transcripts }: Pick<RatingInput, 'set' | 'transcripts'>): string[] {
  return pairingTextsToEmbed(set.questions, transcripts);
}

/**
 * Every text whose meaning rateWithRubric will ask about for this input (key points and the
 * candidate's statements, question by question): embed them all at once (sentence-meaning.ts
 * meaningFor) and pass the lookup to rateWithRubric. `pairing`: the lookup over pairingTexts,
 * which pairs answers to questions as rateWithRubric will.
 */
export function textsToEmbed(
  { set, transcripts }: Pick<RatingInput, 'set' | 'transcripts'>,
  models?: ModelAnswer[],
  pairing?: SentenceMeaning,
): string[] {
  const modelAnswers = models ?? splitModelAnswers(set.modelAnswers, set.questions.length);
  const texts = pairAnswers(set.questions, transcripts, pairing).flatMap((pair, i) =>
    answerTextsToEmbed(pair.turns, modelAnswers[i], set.questions[i]),
  );
  return [...new Set(texts)];
}

/**
 * `models`: the set's model answers already parsed (built-in-rater.ts keeps them per version of
 * the set). `meaning`: the sentence model's lookup over pairingTexts(input) and textsToEmbed(input);
 * without it the words alone decide (RATER_MODEL=off).
 */
export function rateWithRubric(
  { set, transcripts, durationSeconds }: Pick<RatingInput, 'set' | 'transcripts' | 'durationSeconds'>,
  models?: ModelAnswer[],
  meaning?: SentenceMeaning,
): RatingResult {
  const figures = deliveryFigures(transcripts, durationSeconds);
  const modelAnswers = models ?? splitModelAnswers(set.modelAnswers, set.questions.length);
  if (figures.wordsSpoken === 0) {
    const judgements = set.questions.map((_, i) => judgeAnswer([], modelAnswers[i]));
    return {
      score: 0,
      markdown: emptyRatingMarkdown(set, figures),
      breakdown: toBreakdown(set.questions, judgements),
      rater: RUBRIC_RATER_NAME,
    };
  }
  const judgements = pairAnswers(set.questions, transcripts, meaning).map((pair, i) =>
    judgeAnswer(pair.turns, modelAnswers[i], set.questions[i], meaning),
  );
  const score = judgements.length === 0 ? 0 : Math.round(judgements.reduce((sum, j) => sum + j.score, 0) / judgements.length);
  const breakdown = toBreakdown(set.questions, judgements);
  return { score, markdown: ratingMarkdown(set, score, breakdown, judgements, figures), breakdown, rater: RUBRIC_RATER_NAME };
}
