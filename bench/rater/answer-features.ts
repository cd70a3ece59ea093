/**
 * What a whole answer says of one key point, compared as the organisers of SemEval-2013 Task 7
 * compared a student's answer with the reference answer (their lexical overlap baseline): how much
 * of the point's words the answer says (exactly and by meaning, rare words weighing more), how much
 * of the answer is the point's words rather than the question's or other words, and whether the
 * names it uses (single letters and numbers: "bulb A", "terminal 1", "option B", "step 2") are the
 * point's. Nothing here knows a subject's vocabulary.
 *
 * Measured, not shipped: bench/rater/compare-answer-features.ts adds these to the rater's own
 * point features (server/rater/point-features.ts) and fits a decision on them by leave-one-
 * question-out on the Beetle tuning half; they did not raise agreement (bench/results.md,
 * docs/decisions/024-credit-stays-with-the-words.md), so the product does not compute them.
 */
import type { Statement } from '../../server/rater/statements';
import { FUNCTION_WORDS, wordSimilarity, type SoftWord } from '../../server/rater/semantic';

/** Number words that name something when said after a noun ("terminal one"), as digits. */
const NUMBER_NAMES: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
};

const TOKEN = /[A-Za-z]+|\d+(?:\.\d+)?/g;

/**
 * Names a text uses: single letters ("A", "bulb c"; not "I", and "a" only where it cannot be the
 * article: before a function word, a comma or the end, or capitalised inside a sentence), and
 * numbers (digits, or a number word after a word that is not a function word: "terminal one").
 * Lower case; numbers as digits.
 */
export function namesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?;])\s+/)) {
    const tokens: Array<{ word: string; end: number }> = [];
    for (const m of sentence.matchAll(TOKEN)) tokens.push({ word: m[0], end: m.index + m[0].length });
    tokens.forEach((t, i) => {
      const lower = t.word.toLowerCase();
      const next = tokens[i + 1];
      const prev = tokens[i - 1];
      if (/^\d/.test(t.word)) {
        names.add(t.word);
        return;
      }
      if (Object.hasOwn(NUMBER_NAMES, lower)) {
        if (prev && !FUNCTION_WORDS.has(prev.word.toLowerCase()) && !/^\d/.test(prev.word)) names.add(NUMBER_NAMES[lower]!);
        return;
      }
      if (t.word.length !== 1 || lower === 'i') return;
      if (lower !== 'a') {
        names.add(lower);
        return;
      }
      // "a" the article is followed by the word it introduces; "a" the name by a function word, a comma or nothing.
      const pause = next === undefined || /^\s*[,)]/.test(sentence.slice(t.end, t.end + 2));
      if (pause || FUNCTION_WORDS.has(next.word.toLowerCase()) || (t.word === 'A' && i > 0)) names.add('a');
    });
  }
  return names;
}

export interface AnswerOverlap {
  /** Share of the point's words (by weight) the answer says exactly (same stem), anywhere. */
  coverExact: number;
  /** The same, a word said in other words counting by how close (idf-weighted soft alignment). */
  coverSoft: number;
  /** Share of the answer's words (by weight) that are the point's (same stem). */
  precisionExact: number;
  /** Share of the answer's words (by weight) that come close to a word of the point. */
  precisionSoft: number;
  /** Share of the answer's words (by weight) that are neither near the point nor the question's. */
  otherWords: number;
  /** Share of the point's names the answer does not say (0 when the point names nothing). */
  namesMissing: number;
  /** Names the answer says that neither the point nor the question says (0, 1 or 2 and more, halved). */
  namesForeign: number;
  /** Names the answer says that the point does not say but the question does (0, 1 or 2 and more, halved). */
  namesFromQuestion: number;
  /** The answer's content words, log scale (log(1 + n) / log(31), at most 1). */
  length: number;
}

const EMPTY: AnswerOverlap = {
  coverExact: 0,
  coverSoft: 0,
  precisionExact: 0,
  precisionSoft: 0,
  otherWords: 0,
  namesMissing: 0,
  namesForeign: 0,
  namesFromQuestion: 0,
  length: 0,
};

/**
 * The answer's usable statements (their soft words, `said`) against the point's soft words
 * (`point`, question words weighing half) and the question's stems (`echo`).
 */
export function answerOverlap(
  point: string,
  pointWords: readonly SoftWord[],
  statements: readonly Statement[],
  said: readonly SoftWord[][],
  question: string | undefined,
  echo: ReadonlySet<string> | undefined,
): AnswerOverlap {
  // The answer's words, each once.
  const byStem = new Map<string, SoftWord>();
  for (const words of said) for (const w of words) if (!byStem.has(w.stem)) byStem.set(w.stem, w);
  const answer = [...byStem.values()];
  if (answer.length === 0) return EMPTY;
  let total = 0;
  let exact = 0;
  let soft = 0;
  for (const p of pointWords) {
    total += p.weight;
    if (byStem.has(p.stem)) {
      exact += p.weight;
      soft += p.weight;
      continue;
    }
    let best = 0;
    for (const a of answer) {
      const s = wordSimilarity(p, a);
      if (s > best) best = s;
    }
    soft += p.weight * best;
  }
  const pointStems = new Set(pointWords.map((p) => p.stem));
  let answerWeight = 0;
  let onExact = 0;
  let onSoft = 0;
  let other = 0;
  for (const a of answer) {
    answerWeight += a.weight;
    if (pointStems.has(a.stem)) {
      onExact += a.weight;
      onSoft += a.weight;
      continue;
    }
    let best = 0;
    for (const p of pointWords) {
      const s = wordSimilarity(a, p);
      if (s > best) best = s;
    }
    onSoft += a.weight * best;
    if (best < 0.5 && !echo?.has(a.stem)) other += a.weight;
  }
  const pointNames = namesIn(point);
  const questionNames = question === undefined ? new Set<string>() : namesIn(question);
  const answerNames = namesIn(statements.map((s) => s.text).join(' '));
  let missing = 0;
  for (const n of pointNames) if (!answerNames.has(n)) missing += 1;
  let foreign = 0;
  let fromQuestion = 0;
  for (const n of answerNames) {
    if (pointNames.has(n)) continue;
    if (questionNames.has(n)) fromQuestion += 1;
    else foreign += 1;
  }
  return {
    coverExact: total === 0 ? 0 : exact / total,
    coverSoft: total === 0 ? 0 : soft / total,
    precisionExact: onExact / answerWeight,
    precisionSoft: onSoft / answerWeight,
    otherWords: other / answerWeight,
    namesMissing: pointNames.size === 0 ? 0 : missing / pointNames.size,
    namesForeign: Math.min(2, foreign) / 2,
    namesFromQuestion: Math.min(2, fromQuestion) / 2,
    length: Math.min(1, Math.log(1 + answer.length) / Math.log(31)),
  };
}

/** The features above, in this order (bench/rater/compare-answer-features.ts adds them to the rater's). */
export const ANSWER_FEATURE_NAMES = [
  'coverExact',
  'coverSoft',
  'precisionExact',
  'precisionSoft',
  'otherWords',
  'namesMissing',
  'namesForeign',
  'namesFromQuestion',
  'length',
] as const satisfies ReadonlyArray<keyof AnswerOverlap>;
