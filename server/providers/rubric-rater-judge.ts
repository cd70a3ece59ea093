/**
 * Judges one answer against its model answer's key points. Only statements earn key points (see
 * server/catalogue/evidence-match.ts); depth (length) and specifics (examples, numbers, named
 * tools) add to the score only in proportion to what was earned. Term lists and repetition are
 * not answers (at most 10); an answer that earns no key point gets at most 20. Pure and
 * deterministic.
 */
import type { RATING_VERDICTS } from '../../contract';
import { matchKeyPoints, type KeyPointSpec } from '../catalogue/evidence-match';
import type { ModelAnswer } from '../catalogue/model-answers';
import { splitStatements, type Statement } from '../catalogue/statements';
import { contentStems, countWords } from '../catalogue/text-match';

export type Verdict = (typeof RATING_VERDICTS)[number];

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
  /** Key points not earned, contradicted ones included. */
  missed: string[];
  contradicted: Contradiction[];
  /** Count of concrete signals: examples, numbers, code-like names, own experience. */
  specifics: number;
}

/** Words for a complete spoken answer; longer earns no more. */
const FULL_DEPTH_WORDS = 120;
export const NONSENSE_MAX_SCORE = 10;
export const NO_KEY_POINT_MAX_SCORE = 20;
/** An answer this long that shares this little vocabulary with the question's topic is off topic. */
const OFF_TOPIC_MIN_WORDS = 12;
const OFF_TOPIC_MAX_OVERLAP = 0.25;
/** A missed point the answer came close to earns this share of its reach. */
const PARTIAL_WEIGHT = 0.3;

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
  for (const s of statements) for (const stem of s.stems) if (!stem.startsWith('~')) stems.add(stem);
  if (stems.size === 0) return 0;
  let shared = 0;
  for (const stem of stems) if (topic.has(stem)) shared += 1;
  return shared / stems.size;
}

function topicStems(model: ModelAnswer | undefined, question: string | undefined): Set<string> {
  const parts = [question ?? '', model?.answer ?? '', ...(model?.keyPoints ?? []), ...(model?.accepted.flat() ?? [])];
  return new Set(contentStems(parts.join(' ')));
}

/** `question`: the question asked; its own words said back earn no key point. */
export function judgeAnswer(turns: readonly string[], model: ModelAnswer | undefined, question?: string): AnswerJudgement {
  const text = turns.join(' ').replace(/\s+/g, ' ').trim();
  const words = countWords(text);
  const specs = keyPointSpecs(model);
  const keyPoints = specs.map((s) => s.text);
  if (words === 0) {
    return { verdict: 'Not answered', score: 0, words: 0, covered: [], evidence: [], missed: keyPoints, contradicted: [], specifics: 0 };
  }
  const { statements, repeated, total } = readTurns(turns);
  const matches = matchKeyPoints(statements, specs, question);
  const covered = matches.filter((m) => m.status === 'covered');
  const contradicted = matches.filter((m) => m.status === 'contradicted').map((m) => ({ point: m.point, said: m.evidence }));
  const n = Math.max(1, specs.length);
  const partial = matches.filter((m) => m.status === 'missed').reduce((sum, m) => sum + m.reach * PARTIAL_WEIGHT, 0);
  const net = Math.max(0, (covered.length + partial - contradicted.length) / n);
  const usefulText = statements.filter((s) => !s.salad && !s.question).map((s) => s.text).join(' ');
  const depth = Math.min(1, countWords(usefulText) / FULL_DEPTH_WORDS);
  const specifics = countSpecifics(usefulText);
  // Length and examples only count in proportion to what was earned: a long answer on something
  // else must not score well.
  const raw = 0.7 * net + (0.2 * depth + 0.1 * Math.min(1, specifics / 3)) * Math.min(1, 2 * net);
  let score = Math.max(1, Math.round(Math.min(1, raw) * 100));
  let verdict: Verdict;
  if (isNonsense(statements, repeated, total)) {
    verdict = 'Not a real answer';
    score = Math.min(score, NONSENSE_MAX_SCORE);
  } else if (covered.length === 0) {
    score = Math.min(score, NO_KEY_POINT_MAX_SCORE);
    const offTopic = words >= OFF_TOPIC_MIN_WORDS && topicOverlap(statements, topicStems(model, question)) < OFF_TOPIC_MAX_OVERLAP;
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
    missed: matches.filter((m) => m.status !== 'covered').map((m) => m.point),
    contradicted: contradicted.map((c) => ({ point: c.point, said: quote(c.said) })),
    specifics,
  };
}

/** The candidate's statement as evidence: Markdown-significant characters out, kept short. */
const QUOTE_WORDS = 40;
export function quote(statement: string): string {
  const clean = statement.replace(/[`*_[\]<>#|\\"]/g, '').replace(/\s+/g, ' ').trim();
  const words = clean.split(' ');
  return words.length > QUOTE_WORDS ? `${words.slice(0, QUOTE_WORDS).join(' ')} …` : clean;
}
