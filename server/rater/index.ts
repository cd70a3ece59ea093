/**
 * The built-in rater: one part of the server with one entry point, this file (lint refuses any
 * other way in: eslint.config.js). It judges a transcript against a question set's model answers
 * (whose file format the catalogue owns: server/catalogue/) and writes the feedback. The server
 * runs it in worker threads (rater-pool.ts, created in buildApp as the context's `rater`;
 * docs/decisions/028-rater-in-worker-threads.md), so no rating holds up another request. Inside:
 * statements (statements.ts), words and stems (text-match.ts, porter-stem.ts, lexicon.ts), the
 * evidence rule (evidence-match.ts, contrasts.ts), meaning by word vectors (semantic.ts,
 * word-vectors.ts, vectors/), pairing answers to questions (rubric-rater-pairing.ts), judging one
 * answer (rubric-rater-judge.ts), the Markdown (rubric-rater-markdown.ts), the delivery figures
 * (delivery-figures.ts), the check of a language model's quotes (quote-check.ts), and meaning
 * by sentence: the sentence model (sentence-encoder.ts, its files model/ checked by model-files.ts, made by
 * scripts/rater-model/) and
 * its lookup (sentence-meaning.ts).
 * docs/question-sets.md "How answers are judged" says what it does.
 */
export { rateWithRubric, RUBRIC_RATER_NAME, textsToEmbed, toBreakdown } from './rubric-rater';
export { createRubricRater, inThreadRater, type AnswerToJudge, type BuiltInRater, type InterviewToRate } from './built-in-rater';
export { createRaterPool, type RaterPool } from './rater-pool';
export { checkedRaterModel, raterModelDir } from './model-setting';
export { answerTextsToEmbed, judgeAnswer, quote, type AnswerJudgement } from './rubric-rater-judge';
export { checkModelFiles, MODEL_DIR } from './model-files';
export { loadSentenceEncoder, type SentenceEncoder } from './sentence-encoder';
export { meaningFor, meaningFromVectors, type SentenceMeaning } from './sentence-meaning';
export { questionFeedback } from './rubric-rater-markdown';
export { splitStatements } from './statements';
export { deliveryFigures, formatDeliveryMarkdown, type DeliveryFigures } from './delivery-figures';
export { normaliseWords, quoteIsInTranscript } from './quote-check';
