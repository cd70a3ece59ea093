/**
 * Judges one answer against its model answer's key points. Only statements earn key points (see
 * server/rater/evidence-match.ts); depth (length) and specifics (examples, numbers, named
 * tools) add to the score only in proportion to what was earned. Term lists and repetition are
 * not answers (at most 10); an answer that earns no key point gets at most 20. Pure and
 * deterministic.
 */
import type { RATING_VERDICTS } from '../../contract';
import { matchKeyPoints, type KeyPointSpec } from './evidence-match';
import type { ModelAnswer } from '../catalogue/model-answers';
import { splitStatements, type Statement } from './statements';
import { contentStems, countWords, stemSet } from './text-match';
import { closeness, negations, softWords, statementWords } from './semantic';
import { FEATURE_NAMES, pointFeatures, readAnswer, type PointFeatures, type ReadAnswer } from './point-features';
import { pointDecision, pointProbability } from './point-decision';
import { correctTypos, typoVocabulary } from './typos';
import type { SentenceMeaning } from './sentence-meaning';

export type Verdict = (typeof RATING_VERDICTS)[number];

export interface NearMiss {
  point: string;
  /** The candidate's statement that came closest. */
  said: string;
  closeness: number;
}

export interface Contradiction {
  point: string;
  /** The candidate's statement that gets the point wrong. */
  said: string;
}

export interface AnswerJudgement {
  verdict: Verdict;
  /** 0-100. */
  score: number;
  words: number;
  covered: string[];
  /** The candidate's statement that earned each covered point (same order as `covered`). */
  evidence: string[];
  /** How close each evidence statement came to its point (1: its words said; less: said in other words). */
  closeness: number[];
  /** Key points not earned, contradicted ones included. */
  missed: string[];
  /** Missed points a statement came close to by meaning (at least NEAR_MISS), with that statement. */
  nearMisses: NearMiss[];
  contradicted: Contradiction[];
  /** Count of concrete signals: examples, numbers, code-like names, own experience. */
  specifics: number;
}

/** Words for a complete spoken answer; longer earns no more. */
const FULL_DEPTH_WORDS = 120;
export const NONSENSE_MAX_SCORE = 10;
export const OFF_TOPIC_MAX_SCORE = 20;
/** An answer that earns no key point stays a thin answer, whatever part of the points it said. */
export const NO_KEY_POINT_MAX_SCORE = 39;
/**
 * Off topic: an answer of at least OFF_TOPIC_MIN_WORDS words that shares (almost) no word with the
 * question's topic and comes no closer than OFF_TOPIC_MAX_CLOSENESS to any point by meaning.
 */
const OFF_TOPIC_MIN_WORDS = 12;
const OFF_TOPIC_MAX_OVERLAP = 0.25;
const OFF_TOPIC_MAX_CLOSENESS = 0.35;
const SPECIFIC_PATTERNS = [
  /\bfor (?:example|instance)\b|\be\.?g\.?\b|\bsuch as\b/gi,
  /\b\d+(?:[.,]\d+)?\s*(?:%|percent|ms|milliseconds|seconds|minutes|hours|days|weeks|users|requests|rows|lines)?\b/gi,
  /\b[a-z]+[A-Z][A-Za-z]*\b|\b\w+\(\)|\b\w+\.\w+\b/g,
  /\b(?:i|we) (?:built|used|had|wrote|fixed|found|measured|added|changed|led|decided|chose|ran|shipped|introduced|moved)\b|\bin my (?:last|previous|current) (?:job|role|team|project)\b|\bat my\b/gi,
];

function countSpecifics(text: string): number {
  return SPECIFIC_PATTERNS.reduce((sum, pattern) => sum + (text.match(pattern)?.length ?? 0), 0);
}

export function keyPointSpecs(model: ModelAnswer | undefined): KeyPointSpec[] {
  if (!model) return [];
  return model.keyPoints.map((text, i) => ({ text, accepted: model.accepted[i] ?? [], contradictions: model.contradictions[i] ?? [] }));
}

/** The turns with their typos of the question set's words corrected (server/rater/typos.ts). */
function corrected(turns: readonly string[], model: ModelAnswer | undefined, question: string | undefined): string[] {
  const vocabulary = typoVocabulary([question ?? '', model?.answer ?? '', ...(model?.keyPoints ?? []), ...(model?.accepted.flat() ?? [])]);
  return turns.map((t) => correctTypos(t, vocabulary));
}

/** Statements of each turn; a turn that is mostly the same sentence over and over counts as repetition. */
function readTurns(turns: readonly string[]): { statements: Statement[]; repeated: number; total: number } {
  const statements: Statement[] = [];
  let repeated = 0;
  let total = 0;
  const read = new Map<string, Statement[]>();
  for (const turn of turns) {
    const own = splitStatements(turn, read);
    const seen = new Set<string>();
    for (const s of own) {
      const key = s.tokens.map((t) => t.word).join(' ');
      if (seen.has(key)) repeated += 1;
      seen.add(key);
    }
    total += own.length;
    statements.push(...own);
  }
  return { statements, repeated, total };
}

function isNonsense(statements: readonly Statement[], repeated: number, total: number): boolean {
  const words = statements.reduce((n, s) => n + s.tokens.length, 0);
  const saladWords = statements.filter((s) => s.salad).reduce((n, s) => n + s.tokens.length, 0);
  return saladWords * 2 >= words || (total >= 3 && repeated * 2 > total);
}

/** Share of the answer's distinct content words that belong to the question's topic. */
function topicOverlap(statements: readonly Statement[], topic: ReadonlySet<string>): number {
  const stems = new Set<string>();
  // Concept tags (~name) are no words of the answer.
  for (const s of statements) {
    for (const stem of s.stems) if (!stem.startsWith('~')) stems.add(stem);
    for (const w of statementWords(s)) stems.add(w.stem);
  }
  if (stems.size === 0) return 0;
  let shared = 0;
  for (const stem of stems) if (topic.has(stem)) shared += 1;
  return shared / stems.size;
}

function topicStems(model: ModelAnswer | undefined, question: string | undefined): Set<string> {
  const parts = [question ?? '', model?.answer ?? '', ...(model?.keyPoints ?? []), ...(model?.accepted.flat() ?? [])];
  // The soft alignment's content words: "while" and "once" are the topic of a question about do ... while.
  return new Set([...contentStems(parts.join(' ')), ...softWords(parts.join(' ')).map((w) => w.stem)]);
}

/** A key point earned through meaning: the statement that came closest, and how close (0-1). */
interface SoftCredit {
  statement: Statement;
  closeness: number;
}

/** The statement that comes closest to each point by meaning (server/rater/semantic.ts), if any says anything of it. */
function closestStatements(points: readonly string[], answer: ReadAnswer, table: readonly number[][]): Array<SoftCredit | null> {
  return points.map((point, p) => {
    const negative = NEGATIVE_POINT.test(point) ? 1 : 0;
    let best: SoftCredit | null = null;
    answer.usable.forEach((statement, i) => {
      // A statement that denies what the point affirms (or the other way round) does not state it.
      if (negations(statement) % 2 !== negative) return;
      const c = table[p]![i]!;
      if (c > (best?.closeness ?? 0)) best = { statement, closeness: c };
    });
    return best;
  });
}

const NEGATIVE_POINT = /\b(?:not|no|never|cannot|without|neither|nor|\w+n't)\b/i;
/** A missed point whose closest statement came this close is named with it in the feedback. */
export const NEAR_MISS = 0.4;

/**
 * A point the matcher did not credit earns the share of it the answer states, by the learned
 * estimate of how likely it states it (server/rater/point-decision.ts), measured from what an
 * answer saying nothing of it gets and full at LEARNED_FULL: (p - p(nothing)) / (LEARNED_FULL -
 * p(nothing)), continuously, instead of a small fixed part (docs/decisions/025-score-follows-what-was-said.md).
 * LEARNED_FULL was chosen on the tuning half of the Beetle answers; a steeper ramp, or one on
 * closeness by meaning alone, lifts off-topic and keyword-salad answers of the labelled sets over their caps.
 * This share never credits a point: measured on human answers (bench/results.md), crediting points
 * by word vectors raised no agreement and let wrong answers through (antonyms sit close in the
 * vectors), so a credit still needs the point's words.
 */
const LEARNED_FULL = 0.85;
/**
 * A point whose closest statement turns it round (negated where the point is not, or saying an
 * opposite of its word) earns this part of that share: a matcher-contradicted point still
 * subtracts a whole share; this one may be a right answer put the other way round ("not open").
 */
const TURNED_ROUND_SHARE = 0.5;

/**
 * By the sentence model: a point is credited from this cosine between it and a statement (not
 * turned round); below it, the statement earns a share of the point rising from MEANING_NOTHING.
 * An answer none of whose statements comes OFF_TOPIC_MAX_MEANING close to a point may be off topic.
 */
export const MEANING_CREDIT = 0.8;
const MEANING_NOTHING = 0.35;
const OFF_TOPIC_MAX_MEANING = 0.3;

function meaningShare(c: number): number {
  return Math.max(0, Math.min(1, (c - MEANING_NOTHING) / (MEANING_CREDIT - MEANING_NOTHING))) * 0.5;
}

function learnedShare(p: number, nothing: number, turnedRound: boolean): number {
  return Math.max(0, Math.min(1, (p - nothing) / (LEARNED_FULL - nothing))) * (turnedRound ? TURNED_ROUND_SHARE : 1);
}

/**
 * The word matcher's verdict on each point, each point's closeness to each usable statement and
 * its features (same order as the key points); the answer's words are read once for all points.
 */
function readPoints(statements: readonly Statement[], specs: readonly KeyPointSpec[], question: string | undefined) {
  const matches = matchKeyPoints(statements, specs, question);
  const echo = question === undefined ? undefined : stemSet(question);
  const answer = readAnswer(statements);
  const table = matches.map((m) => {
    const words = softWords(m.point, echo);
    return { words, closenessTo: answer.said.map((said) => closeness(words, said)) };
  });
  const features = matches.map((m, i) =>
    pointFeatures(m.point, table[i]!.words, answer, table[i]!.closenessTo, echo, m.status === 'covered'),
  );
  return {
    matches,
    features,
    answer,
    table: table.map((t) => t.closenessTo),
  };
}

/** Each key point's features against the answer (what the learned decision weighs; bench/rater/fit-point-decision.ts fits on them). */
export function answerPointFeatures(turns: readonly string[], model: ModelAnswer | undefined, question?: string): PointFeatures[] {
  return readPoints(readTurns(corrected(turns, model, question)).statements, keyPointSpecs(model), question).features;
}

/**
 * The texts whose meaning judgeAnswer asks about for this answer: the key points and the usable
 * statements (as read after typo correction). Embed them (sentence-meaning.ts) and pass the lookup.
 */
export function answerTextsToEmbed(turns: readonly string[], model: ModelAnswer | undefined, question?: string): string[] {
  if (!model || countWords(turns.join(' ')) === 0) return [];
  const statements = readTurns(corrected(turns, model, question)).statements;
  return [...model.keyPoints, ...readAnswer(statements).usable.map((s) => s.text)];
}

/** The statement closest to each point by the sentence model, and how close (cosine); null when none was embedded. */
function meaningClosest(points: readonly string[], answer: ReadAnswer, meaning: SentenceMeaning): Array<SoftCredit | null> {
  return points.map((point) => {
    let best: SoftCredit | null = null;
    for (const statement of answer.usable) {
      const c = meaning.closeness(point, statement.text);
      if (c !== undefined && c > (best?.closeness ?? -Infinity)) best = { statement, closeness: c };
    }
    return best;
  });
}

/** Whether a statement denies what the point affirms, or the other way round. */
function turnedRound(point: string, statement: Statement): boolean {
  return negations(statement) % 2 !== (NEGATIVE_POINT.test(point) ? 1 : 0);
}

/**
 * `question`: the question asked; its own words said back earn no key point. `meaning`: the
 * sentence model's closeness of the key points and the statements (answerTextsToEmbed); without
 * it the words alone decide (RATER_MODEL=off).
 */
export function judgeAnswer(
  turns: readonly string[],
  model: ModelAnswer | undefined,
  question?: string,
  meaning?: SentenceMeaning,
): AnswerJudgement {
  const text = turns.join(' ').replace(/\s+/g, ' ').trim();
  const words = countWords(text);
  const specs = keyPointSpecs(model);
  const keyPoints = specs.map((s) => s.text);
  if (words === 0) {
    return {
      verdict: 'Not answered',
      score: 0,
      words: 0,
      covered: [],
      evidence: [],
      closeness: [],
      missed: keyPoints,
      nearMisses: [],
      contradicted: [],
      specifics: 0,
    };
  }
  const { statements, repeated, total } = readTurns(corrected(turns, model, question));
  const { matches, features, answer, table } = readPoints(statements, specs, question);
  const decision = pointDecision();
  const nothing = pointProbability(
    decision.weights.map(() => 0),
    decision,
  );
  const soft = closestStatements(keyPoints, answer, table);
  const bySentence = meaning ? meaningClosest(keyPoints, answer, meaning) : keyPoints.map(() => null);
  const contradicted = matches.filter((m) => m.status === 'contradicted').map((m) => ({ point: m.point, said: m.evidence }));
  // Each point's share: 1 when its words (or an accepted phrasing) are said; by meaning, as close
  // as the closest statement came; nothing when contradicted.
  const covered: Array<{ point: string; evidence: string; closeness: number }> = [];
  const nearMisses: NearMiss[] = [];
  let earned = 0;
  matches.forEach((m, i) => {
    const near = soft[i] ?? null;
    const sentence = bySentence[i] ?? null;
    const f = features[i]!;
    const p = pointProbability(f.values, decision);
    if (m.status === 'covered') {
      // How close the evidence came: 1 when every word of the point is in it, less when some are said in other words or left out.
      const evidence = statements.find((st) => st.text === m.evidence);
      const c = evidence
        ? closeness(softWords(m.point, question === undefined ? undefined : stemSet(question)), statementWords(evidence))
        : 1;
      covered.push({
        point: m.point,
        evidence: m.evidence,
        closeness: Math.max(c, near?.statement === evidence ? (near?.closeness ?? 0) : 0),
      });
      earned += 1;
    } else if (m.status === 'missed' && sentence && sentence.closeness >= MEANING_CREDIT && !turnedRound(m.point, sentence.statement)) {
      // The sentence model reads the point in a statement in other words; that statement is the evidence.
      covered.push({ point: m.point, evidence: sentence.statement.text, closeness: sentence.closeness });
      earned += 1;
    } else if (m.status === 'missed' && f.closest && p >= decision.creditFrom) {
      // The learned decision credits what the words alone missed; the closest statement is the evidence.
      covered.push({ point: m.point, evidence: f.closest.text, closeness: f.closeness });
      earned += 1;
    } else if (m.status === 'missed') {
      earned += Math.max(
        learnedShare(p, nothing, f.values[FEATURE_NAMES.indexOf('flip')] === 1),
        sentence && !turnedRound(m.point, sentence.statement) ? meaningShare(sentence.closeness) : 0,
      );
      const closest = sentence ?? near;
      if (closest && closest.closeness >= NEAR_MISS && !turnedRound(m.point, closest.statement))
        nearMisses.push({ point: m.point, said: quote(closest.statement.text), closeness: closest.closeness });
    }
  });
  const n = Math.max(1, specs.length);
  const net = Math.max(0, (earned - contradicted.length) / n);
  const usefulText = statements
    .filter((s) => !s.salad && !s.question)
    .map((s) => s.text)
    .join(' ');
  const specifics = countSpecifics(usefulText);
  const depth = Math.min(1, countWords(usefulText) / FULL_DEPTH_WORDS);
  // How much of each point was stated makes the score; length and examples add only in
  // proportion to the points credited, so a long answer on something else scores nothing for its
  // length, and one that only came near the points gets nothing for its length either.
  const credited = Math.max(0, (covered.length - contradicted.length) / n);
  const raw = 0.7 * net + (0.2 * depth + 0.1 * Math.min(1, specifics / 3)) * Math.min(1, 2 * credited);
  let score = Math.max(1, Math.round(Math.min(1, raw) * 100));
  let verdict: Verdict;
  if (isNonsense(statements, repeated, total)) {
    verdict = 'Not a real answer';
    score = Math.min(score, NONSENSE_MAX_SCORE);
  } else if (covered.length === 0) {
    // Off topic only when the answer shares nothing with the question and its key points, by word or by meaning.
    // A short answer with other words may still say the point ("they are connected"): it is thin, not off topic.
    const offTopic =
      words >= OFF_TOPIC_MIN_WORDS &&
      topicOverlap(statements, topicStems(model, question)) < OFF_TOPIC_MAX_OVERLAP &&
      soft.every((c) => (c?.closeness ?? 0) < OFF_TOPIC_MAX_CLOSENESS) &&
      bySentence.every((c) => (c?.closeness ?? 0) < OFF_TOPIC_MAX_MEANING);
    // An answer that earns no point keeps what it said of them, below "Partly answered"; off topic, at most 20.
    score = Math.min(score, offTopic ? OFF_TOPIC_MAX_SCORE : NO_KEY_POINT_MAX_SCORE);
    verdict = offTopic ? 'Off topic' : 'Thin answer';
  } else {
    verdict = score >= 70 ? 'Answered well' : score >= 40 ? 'Partly answered' : 'Thin answer';
  }
  return {
    verdict,
    score,
    words,
    covered: covered.map((m) => m.point),
    evidence: covered.map((m) => quote(m.evidence)),
    closeness: covered.map((m) => m.closeness),
    missed: matches.filter((m) => !covered.some((c) => c.point === m.point)).map((m) => m.point),
    nearMisses,
    contradicted: contradicted.map((c) => ({ point: c.point, said: quote(c.said) })),
    specifics,
  };
}

/** The candidate's statement as evidence: Markdown-significant characters out, kept short. */
const QUOTE_WORDS = 40;
export function quote(statement: string): string {
  const clean = statement
    .replace(/[`*_[\]<>#|\\"]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const words = clean.split(' ');
  return words.length > QUOTE_WORDS ? `${words.slice(0, QUOTE_WORDS).join(' ')} …` : clean;
}
