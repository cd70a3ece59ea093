/** The Markdown of a rubric rating: summary, question-by-question feedback, delivery. */
import type { QuestionSetRecord } from './types';
import type { AnswerJudgement } from './rubric-rater-judge';
import { type DeliveryFigures, formatDeliveryMarkdown } from './delivery-figures';

/** Fewer words than this on average reads as brief answers in the summary. */
const BRIEF_AVERAGE_WORDS = 60;

export function emptyRatingMarkdown(set: QuestionSetRecord, figures: DeliveryFigures): string {
  return [
    `# Interview feedback: ${set.name}`,
    '',
    '**Score: 0/100**',
    '',
    `No answers were recorded in this session, so there is nothing to rate yet. None of the ${set.questions.length} questions were answered. Start a new session and answer out loud (or type your answers) to get feedback.`,
    '',
    formatDeliveryMarkdown(figures),
  ].join('\n');
}

export function ratingMarkdown(
  set: QuestionSetRecord,
  score: number,
  judgements: readonly AnswerJudgement[],
  figures: DeliveryFigures,
): string {
  const parts = [`# Interview feedback: ${set.name}`, '', `**Score: ${score}/100**`, '', summary(judgements), '', '## Question by question'];
  judgements.forEach((j, i) => {
    parts.push('', `### ${i + 1}. ${set.questions[i] ?? ''}`, '', `**${j.verdict}**${j.verdict === 'Not answered' ? '' : ` (${j.score}/100)`}`);
    if (j.verdict === 'Not answered') {
      parts.push('', 'You did not answer this question in the session.');
      if (j.missed.length) parts.push('', `**What a strong answer covers:** ${j.missed.join('; ')}.`);
      return;
    }
    parts.push('', `You said: "${j.quote}"`);
    const total = j.covered.length + j.missed.length;
    if (j.covered.length) parts.push('', `**What went well:** you covered ${j.covered.length} of ${total} key points: ${j.covered.join('; ')}.`);
    else parts.push('', `**What went well:** you gave an answer (${j.words} words), but it did not reach the key points of this question.`);
    if (j.missed.length) parts.push('', `**What to add:** ${j.missed.join('; ')}.`);
    else if (j.specifics < 2) parts.push('', '**What to add:** all key points covered; a concrete example from your own work would make it stronger.');
    else parts.push('', '**What to add:** nothing essential is missing.');
  });
  parts.push('', formatDeliveryMarkdown(figures));
  return parts.join('\n');
}

function summary(judgements: readonly AnswerJudgement[]): string {
  const total = judgements.length;
  const answered = judgements.filter((j) => j.verdict !== 'Not answered');
  const well = judgements.filter((j) => j.verdict === 'Answered well').length;
  const partly = judgements.filter((j) => j.verdict === 'Partly answered').length;
  const thin = judgements.filter((j) => j.verdict === 'Thin answer').length;
  const sentences = [
    `You answered ${answered.length} of ${total} ${total === 1 ? 'question' : 'questions'}: ${well} answered well, ${partly} partly answered, ${thin} thin.`,
  ];
  if (answered.length > 0) {
    const best = judgements.reduce((b, j, i) => (j.score > (judgements[b]?.score ?? -1) ? i : b), 0);
    sentences.push(`Your strongest answer was to question ${best + 1}.`);
    const missedTotal = answered.reduce((sum, j) => sum + j.missed.length, 0);
    const weakest = judgements.reduce((w, j, i) => (j.score < (judgements[w]?.score ?? 101) ? i : w), 0);
    if (weakest !== best && (judgements[weakest]?.score ?? 0) < 70) sentences.push(`Focus next on question ${weakest + 1}.`);
    const averageWords = answered.reduce((sum, j) => sum + j.words, 0) / answered.length;
    if (averageWords < BRIEF_AVERAGE_WORDS) {
      sentences.push('Your answers were brief: aim for a minute or two per answer, with the reasoning and an example.');
    } else if (missedTotal > 0) {
      sentences.push('To score higher, cover the key points listed under "What to add".');
    }
  }
  return sentences.join(' ');
}
