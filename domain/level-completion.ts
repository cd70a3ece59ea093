/**
 * When a rated interview completes its level (docs/product-rules.md, Topic tiles): every question
 * of the set was answered, and the score reaches the operator's minimum (`LEVEL_PASS_SCORE`,
 * 0 by default). The server decides with this rule; the feedback screen shows its answer.
 */

/** The rater's verdicts (contract/rating-breakdown.ts) that mean a question got no answer. */
export const UNANSWERED_VERDICTS = ['Not answered', 'Not a real answer'] as const;

export interface RatedQuestion {
  question: string;
  verdict: string;
}

export interface LevelCompletion {
  completed: boolean;
  /** The set's questions the interview left without an answer, in the set's order. */
  unanswered: string[];
  /** The minimum score the operator set, when the interview's score is below it; otherwise null. */
  scoreBelow: number | null;
}

const unanswered = (verdict: string) => (UNANSWERED_VERDICTS as readonly string[]).includes(verdict);

/**
 * A rating without a breakdown (stored before breakdowns existed) is judged by its score alone:
 * which questions it answered is not known any more.
 */
export function levelCompletion(breakdown: readonly RatedQuestion[] | null, score: number, passScore: number): LevelCompletion {
  const missing = (breakdown ?? []).filter((q) => unanswered(q.verdict)).map((q) => q.question);
  const scoreBelow = score < passScore ? passScore : null;
  return { completed: missing.length === 0 && scoreBelow === null, unanswered: missing, scoreBelow };
}

/**
 * The feedback screen's sentences for an interview that did not complete its level, or null when
 * it did: what is missing, question by question, and the score the operator asks for.
 */
export function incompleteLevelText(completion: LevelCompletion, score: number, questionCount: number): string | null {
  if (completion.completed) return null;
  const sentences = ['This interview did not complete its level.'];
  const n = completion.unanswered.length;
  if (n > 0) {
    const quoted = completion.unanswered.map((q) => `“${q}”`).join(' ');
    sentences.push(`Not answered (${n} of ${questionCount} ${questionCount === 1 ? 'question' : 'questions'}): ${quoted}`);
  }
  if (completion.scoreBelow !== null)
    sentences.push(`The score ${score} is below ${completion.scoreBelow}, the minimum score to complete a level here.`);
  sentences.push(
    n > 0
      ? 'To complete it, answer every question of the set in one interview.'
      : `To complete it, score at least ${completion.scoreBelow ?? 0} in an interview on this set.`,
  );
  return sentences.join(' ');
}
