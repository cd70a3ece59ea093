/** The Markdown of a rubric rating: summary, question-by-question feedback, delivery. */
import type { QuestionSetRecord } from '../db/schema';
import { count } from '../../domain/plural';
import type { QuestionBreakdown, RatingBreakdown } from '../../contract';
import type { AnswerJudgement, Contradiction, NearMiss } from './rubric-rater-judge';
import { type DeliveryFigures, formatDeliveryMarkdown } from './delivery-figures';

/** Fewer words than this on average reads as brief answers in the summary. */
const BRIEF_AVERAGE_WORDS = 60;

export function emptyRatingMarkdown(set: QuestionSetRecord, figures: DeliveryFigures): string {
  return [
    `# Interview feedback: ${set.name}`,
    '',
    '**Score: 0/100**',
    '',
    `No answers were recorded in this session, so there is nothing to rate yet. ${set.questions.length === 1 ? 'The question was not answered.' : `None of the ${set.questions.length} questions were answered.`} Start a new session and answer out loud (or type your answers) to get feedback.`,
    '',
    formatDeliveryMarkdown(figures),
  ].join('\n');
}

export function ratingMarkdown(
  set: QuestionSetRecord,
  score: number,
  breakdown: RatingBreakdown,
  judgements: readonly AnswerJudgement[],
  figures: DeliveryFigures,
): string {
  const parts = [
    `# Interview feedback: ${set.name}`,
    '',
    `**Score: ${score}/100**`,
    '',
    summary(breakdown, judgements),
    '',
    '## Question by question',
  ];
  breakdown.forEach((item, i) => {
    const j = judgements[i];
    parts.push(
      '',
      `### ${i + 1}. ${item.question}`,
      '',
      ...questionFeedback(item, j?.contradicted ?? [], j?.specifics ?? 0, j?.closeness ?? [], j?.nearMisses ?? []),
    );
  });
  parts.push('', formatDeliveryMarkdown(figures));
  return parts.join('\n');
}

const NONSENSE_TEXT =
  'This did not read as an answer: a list of terms or the same words over and over earns no key points. Explain each idea in a full sentence, the way you would to a colleague.';
const OFF_TOPIC_TEXT = 'This answer was about something else: it did not address the question, so it earned none of its key points.';

/** One question's feedback, written from its breakdown item (plus contradictions and specifics). */
const percent = (x: number) => `${Math.round(x * 100)} %`;
/** How close the evidence came, after the quote: nothing for a statement that says every word of the point. */
const howClose = (c: number | undefined) =>
  c === undefined || c >= 0.995 ? '' : ` (${percent(c)} of the point, by its words and their meaning)`;

export function questionFeedback(
  item: QuestionBreakdown,
  contradicted: readonly Contradiction[],
  specifics: number,
  closeness: readonly number[] = [],
  nearMisses: readonly NearMiss[] = [],
): string[] {
  const parts = [`**${item.verdict}**${item.verdict === 'Not answered' ? '' : ` (${item.score}/100)`}`];
  if (item.verdict === 'Not answered') {
    parts.push('', 'You did not answer this question in the session.');
    if (item.missed.length) parts.push('', `**What a strong answer covers:** ${item.missed.join('; ')}.`);
    return parts;
  }
  if (item.verdict === 'Not a real answer') parts.push('', NONSENSE_TEXT);
  else if (item.verdict === 'Off topic') parts.push('', OFF_TOPIC_TEXT);
  const total = item.covered.length + item.missed.length;
  if (item.covered.length) {
    parts.push('', `**What went well:** you covered ${item.covered.length} of ${count(total, 'key point')}:`, '');
    item.covered.forEach((point, k) => parts.push(`- ${point}. You said: "${item.evidence[k] ?? ''}"${howClose(closeness[k])}`));
  } else if (item.verdict !== 'Not a real answer' && item.verdict !== 'Off topic') {
    parts.push('', '**What went well:** you gave an answer, but none of its sentences states a key point of this question.');
  }
  if (contradicted.length) {
    parts.push('', '**What to correct:**', '');
    for (const c of contradicted) parts.push(`- You said: "${c.said}", but: ${c.point}.`);
  }
  if (item.missed.length) {
    parts.push('', `**What to add:** ${item.missed.join('; ')}.`);
    for (const near of nearMisses)
      parts.push(
        '',
        `You came close to "${near.point}" when you said: "${near.said}" (${percent(near.closeness)} of the point, by its words and their meaning).`,
      );
  } else if (specifics < 2)
    parts.push('', '**What to add:** all key points covered; a concrete example from your own work would make it stronger.');
  else parts.push('', '**What to add:** nothing essential is missing.');
  return parts;
}

function summary(breakdown: RatingBreakdown, judgements: readonly AnswerJudgement[]): string {
  const total = breakdown.length;
  const answered = judgements.filter((j) => j.verdict !== 'Not answered');
  const well = judgements.filter((j) => j.verdict === 'Answered well').length;
  const partly = judgements.filter((j) => j.verdict === 'Partly answered').length;
  const thin = judgements.filter((j) => j.verdict === 'Thin answer').length;
  const offTopic = judgements.filter((j) => j.verdict === 'Off topic').length;
  const notReal = judgements.filter((j) => j.verdict === 'Not a real answer').length;
  // The two rarer verdicts are named only when they happened, so the usual summary stays short.
  const rare = [offTopic ? `, ${offTopic} off topic` : '', notReal ? `, ${notReal} not a real answer` : ''].join('');
  const sentences = [
    `You answered ${answered.length} of ${count(total, 'question')}: ${well} answered well, ${partly} partly answered, ${thin} thin${rare}.`,
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
