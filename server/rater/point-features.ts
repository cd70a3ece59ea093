/**
 * What one answer says of one key point, as a few numbers that hold for any subject: how much of
 * the point's words (by meaning and exactly) the answer says, how much of the answer is about the
 * point rather than the question or something else, whether it negates or reverses what the point
 * says, how long it is, and whether it is a real answer at all. The learned decision
 * (server/rater/point-decision.ts) weighs them; nothing here knows a subject's vocabulary.
 */
import type { Statement } from './statements';
import { antonymsOf, negations, statementWords, wordSimilarity, type SoftWord } from './semantic';

/** The features, in the order the fitted weights use (server/rater/weights/point-decision.json). */
export const FEATURE_NAMES = [
  /** The word matcher credits the point (1) or not (0): its words said together in one statement. */
  'matched',
  /** How close the closest statement comes to the point by meaning (idf-weighted soft alignment, 0-1). */
  'closeness',
  /** Share of the point's words (by weight) that statement says exactly (same stem). */
  'exact',
  /** Share of that statement's words (by weight) that come close to a word of the point: how much of it is about the point. */
  'onPoint',
  /** Share of that statement's words (by weight) that only repeat the question. */
  'echoOnly',
  /** That statement turns the point round: negated where the point is not (or the other way), or saying an opposite of its word. */
  'flip',
  /** Nothing said but an admission of not knowing. */
  'ignorance',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

/**
 * The sign each feature's weight must have (1: it may only raise the probability, -1: only lower
 * it): saying more of the point never counts against an answer, and a turned-round or empty one
 * never counts for it. The fit leaves out a feature whose weight comes out the other way.
 */
export const FEATURE_SIGNS: Record<FeatureName, 1 | -1> = {
  matched: 1,
  closeness: 1,
  exact: 1,
  onPoint: 1,
  echoOnly: -1,
  flip: -1,
  ignorance: -1,
};
export interface PointFeatures {
  values: number[];
  /** The statement that came closest to the point by meaning (null when none is usable). */
  closest: Statement | null;
  /** How close it came (0-1). */
  closeness: number;
}

/** Statements that can say something: not questions, not lists of terms, not admissions of not knowing. */
export function usableStatements(statements: readonly Statement[]): Statement[] {
  return statements.filter((s) => !s.question && !s.salad && s.ignorance.size === 0);
}

const NEGATIVE_POINT = /\b(?:not|no|never|cannot|without|nor|neither|\w+n't)\b/i;

/** What the judge has read once for all points: the usable statements, their words, each point's closeness to each. */
export interface ReadAnswer {
  statements: readonly Statement[];
  usable: readonly Statement[];
  said: readonly SoftWord[][];
}

/** The usable statements of an answer and their words for soft alignment. */
export function readAnswer(statements: readonly Statement[]): ReadAnswer {
  const usable = usableStatements(statements);
  return { statements, usable, said: usable.map(statementWords) };
}

/**
 * The point's features against the answer. `words`: the point's soft words (question words
 * weighing half); `closenessTo`: its closeness to each usable statement (same order); `matched`:
 * the word matcher's verdict (server/rater/evidence-match.ts); `echo`: the question's stems.
 */
export function pointFeatures(
  point: string,
  words: readonly SoftWord[],
  answer: ReadAnswer,
  closenessTo: readonly number[],
  echo: ReadonlySet<string> | undefined,
  matched: boolean,
): PointFeatures {
  const { statements, usable, said } = answer;
  const pointNegative = NEGATIVE_POINT.test(point) ? 1 : 0;
  // The statement that comes closest to the point by meaning speaks for the answer (the evidence rule).
  let best = 0;
  let bestAt = -1;
  closenessTo.forEach((c, i) => {
    if (c > best) {
      best = c;
      bestAt = i;
    }
  });
  const bestWords = said[bestAt] ?? [];
  const closest = usable[bestAt] ?? null;
  const seen = new Set(bestWords.map((w) => w.stem));
  const saidWords = new Set(bestWords.map((w) => w.word));
  // Exactly said: the point's words whose stem the statement says, by weight.
  let total = 0;
  let exact = 0;
  for (const w of words) {
    total += w.weight;
    if (seen.has(w.stem)) exact += w.weight;
  }
  // How much of the statement is about the point: each of its words by how close it comes to a
  // word of the point. Words that only repeat the question are counted apart.
  let statementWeight = 0;
  let onPoint = 0;
  let echoOnly = 0;
  for (const a of bestWords) {
    statementWeight += a.weight;
    let sim = 0;
    for (const p of words) {
      const x = wordSimilarity(a, p);
      if (x > sim) sim = x;
      if (sim === 1) break;
    }
    onPoint += a.weight * sim;
    if (sim < 0.5 && echo?.has(a.stem)) echoOnly += a.weight;
  }
  const negMismatch = closest && negations(closest) % 2 !== pointNegative ? 1 : 0;
  // An opposite of a point word said where the point word is not ("different" for "same").
  let antonym = 0;
  for (const p of words) {
    if (seen.has(p.stem)) continue;
    if (antonymsOf(p.word).some((x) => saidWords.has(x) || seen.has(x))) antonym = 1;
  }
  const ignorance = statements.some((s) => s.ignorance.size > 0) && usable.length === 0 ? 1 : 0;
  const values = [
    matched ? 1 : 0,
    best,
    total === 0 ? 0 : exact / total,
    statementWeight === 0 ? 0 : onPoint / statementWeight,
    statementWeight === 0 ? 0 : echoOnly / statementWeight,
    (negMismatch + antonym) % 2,
    ignorance,
  ];
  return { values, closest, closeness: best };
}
