/**
 * The built-in rater: one part of the server with one entry point. It judges a transcript against
 * a question set's model answers (whose file format the catalogue owns: server/catalogue/) and
 * writes the feedback. Inside: statements (statements.ts), words and stems (text-match.ts,
 * porter-stem.ts, lexicon.ts), the evidence rule (evidence-match.ts, contrasts.ts), meaning by word
 * vectors (semantic.ts, word-vectors.ts, vectors/), pairing answers to questions
 * (rubric-rater-pairing.ts), judging one answer (rubric-rater-judge.ts) and the Markdown
 * (rubric-rater-markdown.ts). docs/question-sets.md "How answers are judged" says what it does.
 */
export { createRubricRater, rateWithRubric, RUBRIC_RATER_NAME, toBreakdown } from './rubric-rater';
export { judgeAnswer, quote, type AnswerJudgement } from './rubric-rater-judge';
export { questionFeedback } from './rubric-rater-markdown';
export { splitStatements } from './statements';
