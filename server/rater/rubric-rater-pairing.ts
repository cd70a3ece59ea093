/**
 * Pairs each question of a set with what the candidate said in answer to it. Interviewer lines
 * are matched to questions by weighted word overlap, walking forward in order: the expected next
 * question needs less overlap than a jump ahead, so paraphrased questions still match while
 * greetings, follow-ups and acknowledgements stay with the current question.
 */
import type { TranscriptEntry } from '../../contract';
import { contentStems } from './text-match';

export interface PairedAnswer {
  /** The candidate's turns given while this question was current. */
  turns: string[];
  /** The interviewer lines matched to this question (the ask and any follow-ups). */
  asked: boolean;
}

/** Share of the question's (weighted) words a line must contain to count as asking it. */
const NEXT_QUESTION_THRESHOLD = 0.3;
const JUMP_THRESHOLD = 0.55;

interface WeightedQuestion {
  stems: Set<string>;
  weights: Map<string, number>;
  total: number;
}

function weighQuestions(questions: readonly string[]): WeightedQuestion[] {
  const stemSets = questions.map((q) => new Set(contentStems(q)));
  const documentFrequency = new Map<string, number>();
  for (const stems of stemSets) for (const s of stems) documentFrequency.set(s, (documentFrequency.get(s) ?? 0) + 1);
  return stemSets.map((stems) => {
    // Words shared by several questions ("javascript", "react") say little about which one is asked.
    const weights = new Map([...stems].map((s) => [s, 1 / (documentFrequency.get(s) ?? 1)] as const));
    return { stems, weights, total: [...weights.values()].reduce((a, b) => a + b, 0) };
  });
}

function matchedWeight(lineStems: ReadonlySet<string>, question: WeightedQuestion): number {
  let hit = 0;
  for (const [s, w] of question.weights) if (lineStems.has(s)) hit += w;
  return hit;
}

function similarity(lineStems: ReadonlySet<string>, question: WeightedQuestion): number {
  return question.total === 0 ? 0 : matchedWeight(lineStems, question) / question.total;
}

export function pairAnswers(questions: readonly string[], transcripts: readonly TranscriptEntry[]): PairedAnswer[] {
  const paired: PairedAnswer[] = questions.map(() => ({ turns: [], asked: false }));
  if (questions.length === 0) return paired;
  const hasInterviewer = transcripts.some((e) => e.role === 'interviewer' && e.transcript.trim());
  if (!hasInterviewer) {
    // No interviewer lines at all (e.g. only the candidate was transcribed): answers in order.
    transcripts
      .filter((e) => e.role === 'interviewee' && e.transcript.trim())
      .forEach((e, i) => paired[Math.min(i, questions.length - 1)]?.turns.push(e.transcript));
    return paired;
  }

  const weighted = weighQuestions(questions);
  const matched = matchInterviewerLines(weighted, transcripts);
  // An interviewer who paraphrased every question beyond recognition: fall back to order,
  // one question per interviewer line that asks something.
  const fallback = matched.every((m) => m === null);
  let current = -1;
  transcripts.forEach((entry, i) => {
    if (entry.role === 'interviewer') {
      const target = fallback ? (entry.transcript.includes('?') ? Math.min(current + 1, questions.length - 1) : null) : matched[i];
      if (target !== null && target !== undefined) current = target;
      if (current >= 0) paired[current]!.asked = true;
    } else if (current >= 0 && entry.transcript.trim()) {
      paired[current]!.turns.push(entry.transcript);
    }
  });
  return paired;
}

/** For each transcript entry: the question an interviewer line asks, or null (stay where we are). */
function matchInterviewerLines(weighted: WeightedQuestion[], transcripts: readonly TranscriptEntry[]): Array<number | null> {
  let current = -1;
  return transcripts.map((entry) => {
    if (entry.role !== 'interviewer') return null;
    const stems = new Set(contentStems(entry.transcript));
    const next = current + 1;
    if (next < weighted.length && similarity(stems, weighted[next]!) >= NEXT_QUESTION_THRESHOLD) {
      // Prefer a later question if the line clearly asks that one instead (a skipped question).
      // On equal shares, the question with more of its words in the line wins (a short question
      // like "What is a cache?" is fully contained in "How do you invalidate cached data?").
      const better = bestFrom(stems, weighted, next + 1);
      const nextScore = similarity(stems, weighted[next]!);
      const jump =
        better !== null &&
        better.score >= JUMP_THRESHOLD &&
        (better.score > nextScore ||
          (better.score === nextScore && matchedWeight(stems, weighted[better.index]!) > matchedWeight(stems, weighted[next]!)));
      current = jump ? better.index : next;
      return current;
    }
    const ahead = bestFrom(stems, weighted, next + 1);
    if (ahead && ahead.score >= JUMP_THRESHOLD) {
      current = ahead.index;
      return current;
    }
    // Going back (the candidate asked to revisit an earlier question) needs a clear match too.
    const behind = bestFrom(stems, weighted, 0, current);
    if (behind && behind.score >= JUMP_THRESHOLD && behind.index !== current) {
      current = behind.index;
      return current;
    }
    return null;
  });
}

function bestFrom(
  stems: ReadonlySet<string>,
  weighted: WeightedQuestion[],
  from: number,
  to = weighted.length,
): { index: number; score: number } | null {
  let best: { index: number; score: number } | null = null;
  for (let i = Math.max(0, from); i < Math.min(to, weighted.length); i++) {
    const score = similarity(stems, weighted[i]!);
    if (!best || score > best.score) best = { index: i, score };
  }
  return best;
}
