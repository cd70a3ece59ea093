/**
 * Delivery figures of an interview: how much the candidate said, how fast, and how many filler
 * words. Pace and filler words are measured on spoken answers only; answers the candidate typed
 * (`input: 'typed'`) are counted as typed text. Deterministic, shared by the rubric rater and the
 * LLM rater so both report the same numbers.
 */
import type { TranscriptEntry } from '../../contract';
import { count } from '../../domain/plural';
import { tokenize } from './text-match';
import { wordList, wordSet } from './word-lists';

/** The filler words and phrases counted, in the order the feedback lists them. */
export const FILLER_WORDS: readonly string[] = wordList('delivery.fillers');
export type FillerWord = string;

export interface DeliveryFigures {
  /** Words of all answers, spoken or typed (0: the candidate answered nothing). */
  wordsSpoken: number;
  /** Interviewee turns with at least one word, spoken or typed. */
  answers: number;
  averageAnswerWords: number;
  /** Of the above, the answers the candidate typed and their words. */
  typedAnswers: number;
  typedWords: number;
  /**
   * What the per-minute figures of the spoken answers are measured over: `answer-time` when the
   * transcript carries timings (`at`), `session` when only the session duration is known and every
   * answer was spoken, null otherwise (or when nothing was spoken).
   */
  basis: 'answer-time' | 'session' | null;
  /** Minutes the figures are measured over (rounded to 0.1), null without a basis. */
  minutes: number | null;
  /** Spoken words per minute. */
  wordsPerMinute: number | null;
  /** In spoken answers. */
  fillerCount: number;
  fillersPerMinute: number | null;
  /** Most frequent first; only fillers that occurred. */
  fillers: Array<{ word: FillerWord; count: number }>;
}

const DETERMINERS = wordSet('delivery.determiners');
/** Words before "like" that make it a filler ("and like, we had..."), not a comparison or a verb. */
const LIKE_FILLER_BEFORE = wordSet('delivery.likeFillerBefore');
/** Words before "like" that make it a verb or comparison ("I'd like", "looks like"). */
const LIKE_REAL_BEFORE = wordSet('delivery.likeRealBefore');
/**
 * Words after "like" that make it a preposition ("like a loop counter", "like the map above",
 * "like when you retry"): an example or a comparison, not a filler. A comma after it still says filler.
 */
const LIKE_REAL_AFTER = wordSet('delivery.likeRealAfter');
const YOU_KNOW_REAL_BEFORE = wordSet('delivery.youKnowRealBefore');
const YOU_KNOW_REAL_AFTER = wordSet('delivery.youKnowRealAfter');

/**
 * Counts filler words in one utterance. "like", "you know", "kind of" and "sort of" are only
 * counted where they are fillers, not where they carry meaning ("I'd like", "do you know how",
 * "what kind of index").
 */
export function countFillers(text: string): Map<FillerWord, number> {
  const counts = new Map<FillerWord, number>();
  const add = (word: FillerWord) => counts.set(word, (counts.get(word) ?? 0) + 1);
  // Keep sentence breaks and commas as tokens: they decide whether "like" is a filler.
  const tokens = text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?|[,.!?;:—–-]/g) ?? [];
  const isBreak = (t: string | undefined) => t === undefined || /^[,.!?;:—–-]$/.test(t);
  tokens.forEach((token, i) => {
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if (/^u+h*m+$/.test(token) || token === 'erm') add('um');
    else if (/^u+h+$/.test(token) || token === 'er') add('uh');
    else if (token === 'basically') add('basically');
    else if (token === 'actually') add('actually');
    else if (token === 'like') {
      if (before !== undefined && LIKE_REAL_BEFORE.has(before)) return;
      if (after !== undefined && LIKE_REAL_AFTER.has(after)) return;
      if (isBreak(before) || after === ',' || (before !== undefined && LIKE_FILLER_BEFORE.has(before))) add('like');
    } else if (token === 'know' && before === 'you') {
      const beforeYou = tokens[i - 2];
      if (beforeYou !== undefined && YOU_KNOW_REAL_BEFORE.has(beforeYou)) return;
      if (after !== undefined && YOU_KNOW_REAL_AFTER.has(after)) return;
      add('you know');
    } else if (token === 'of' && (before === 'kind' || before === 'sort')) {
      const beforeKind = tokens[i - 2];
      if (beforeKind !== undefined && DETERMINERS.has(beforeKind)) return;
      add(before === 'kind' ? 'kind of' : 'sort of');
    }
  });
  return counts;
}

export function deliveryFigures(transcripts: readonly TranscriptEntry[], durationSeconds: number): DeliveryFigures {
  let wordsSpoken = 0;
  let answers = 0;
  let typedWords = 0;
  let typedAnswers = 0;
  let answerMs = 0;
  let timedAnswers = 0;
  const fillerTotals = new Map<FillerWord, number>();
  transcripts.forEach((entry, i) => {
    if (entry.role !== 'interviewee') return;
    const words = tokenize(entry.transcript).length;
    if (words === 0) return;
    wordsSpoken += words;
    answers += 1;
    if (entry.input === 'typed') {
      // Typed text has no pace and no filler words to count.
      typedWords += words;
      typedAnswers += 1;
      return;
    }
    for (const [word, count] of countFillers(entry.transcript)) fillerTotals.set(word, (fillerTotals.get(word) ?? 0) + count);
    // `at` is stamped when a line completes, so an answer took (at most) the time since the
    // previous line completed. That includes thinking pauses, which is fair for a spoken answer.
    const previous = transcripts[i - 1];
    if (entry.at !== undefined && previous?.at !== undefined && entry.at > previous.at) {
      answerMs += entry.at - previous.at;
      timedAnswers += 1;
    }
  });

  const spokenAnswers = answers - typedAnswers;
  const spokenWords = wordsSpoken - typedWords;
  let basis: DeliveryFigures['basis'] = null;
  let minutes: number | null = null;
  // Timings count only if most answers have them; otherwise the rate would be inflated.
  if (timedAnswers > 0 && timedAnswers * 2 >= spokenAnswers && answerMs >= 1000) {
    basis = 'answer-time';
    minutes = answerMs / 60_000;
  } else if (durationSeconds > 0 && spokenAnswers > 0 && typedAnswers === 0) {
    // The session's length says nothing about the spoken answers when some were typed.
    basis = 'session';
    minutes = durationSeconds / 60;
  }
  const fillerCount = [...fillerTotals.values()].reduce((a, b) => a + b, 0);
  const fillers = FILLER_WORDS.filter((word) => fillerTotals.has(word))
    .map((word) => ({ word, count: fillerTotals.get(word) ?? 0 }))
    .sort((a, b) => b.count - a.count);
  return {
    wordsSpoken,
    answers,
    averageAnswerWords: answers === 0 ? 0 : Math.round(wordsSpoken / answers),
    typedAnswers,
    typedWords,
    basis,
    minutes: minutes === null ? null : Math.round(minutes * 10) / 10,
    wordsPerMinute: minutes === null ? null : Math.round(spokenWords / minutes),
    fillerCount,
    fillersPerMinute: minutes === null ? null : Math.round((fillerCount / minutes) * 10) / 10,
    fillers,
  };
}

const number = (n: number) => n.toLocaleString('en-US');

const answersText = (n: number) => count(n, 'answer');
const words = (n: number) => count(n, 'word', 'words', number);

/** The "## Delivery" section of a rating. */
export function formatDeliveryMarkdown(figures: DeliveryFigures): string {
  const lines = ['## Delivery', ''];
  if (figures.wordsSpoken === 0) {
    lines.push('- Words spoken: 0 (no spoken answers were recorded)');
    return lines.join('\n');
  }
  const spokenAnswers = figures.answers - figures.typedAnswers;
  const spokenWords = figures.wordsSpoken - figures.typedWords;
  const typedLine = `- Typed answers: ${words(figures.typedWords)} in ${answersText(figures.typedAnswers)} (about ${words(Math.round(figures.typedWords / Math.max(1, figures.typedAnswers)))} per answer)`;
  if (spokenAnswers === 0) {
    lines.push(typedLine, '- Speaking pace and filler words: not measured, because the answers were typed');
    return lines.join('\n');
  }
  lines.push(
    `- Words spoken: ${number(spokenWords)} in ${answersText(spokenAnswers)} (about ${words(Math.round(spokenWords / spokenAnswers))} per answer)`,
  );
  if (figures.basis === 'answer-time') {
    lines.push(`- Speaking pace: about ${words(figures.wordsPerMinute ?? 0)} per minute while answering (including pauses to think)`);
  } else if (figures.basis === 'session') {
    lines.push(
      `- Pace over the whole session: about ${number(figures.wordsPerMinute ?? 0)} of your words per minute (no per-answer timings, so this includes the interviewer's turns)`,
    );
  } else {
    lines.push('- Speaking pace: not available (the session had no timings)');
  }
  if (figures.fillerCount === 0) {
    lines.push('- Filler words: none heard');
  } else {
    const perMinute = figures.fillersPerMinute === null ? '' : ` (${figures.fillersPerMinute} per minute)`;
    const which = figures.fillers.map((f) => `"${f.word}" ${f.count}`).join(', ');
    lines.push(`- Filler words: ${figures.fillerCount}${perMinute}: ${which}`);
  }
  if (figures.typedAnswers > 0) lines.push(`${typedLine}, not counted in the pace or filler words`);
  return lines.join('\n');
}
