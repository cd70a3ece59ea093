/**
 * Judges one answer against its model answer's key points: coverage of key terms, depth (length)
 * and specifics (examples, numbers, named tools). Pure and deterministic.
 */
import { contentStems, countWords, keyPointCoverage } from '../catalogue/text-match';

export type Verdict = 'Answered well' | 'Partly answered' | 'Thin answer' | 'Not answered';

export interface AnswerJudgement {
  verdict: Verdict;
  /** 0-100. */
  score: number;
  words: number;
  covered: string[];
  missed: string[];
  /** A short quote of the candidate's own words (no quotation marks), empty when not answered. */
  quote: string;
  /** Count of concrete signals: examples, numbers, code-like names, own experience. */
  specifics: number;
}

/** Words for a complete spoken answer; longer earns no more. */
const FULL_DEPTH_WORDS = 120;
const QUOTE_WORDS = 18;
/** The quote comes from the first sentences only; a very long answer need not be searched whole. */
const QUOTE_SENTENCES = 60;

const SPECIFIC_PATTERNS = [
  /\bfor (?:example|instance)\b|\be\.?g\.?\b|\bsuch as\b/gi,
  /\b\d+(?:[.,]\d+)?\s*(?:%|percent|ms|milliseconds|seconds|minutes|hours|days|weeks|users|requests|rows|lines)?\b/gi,
  /\b[a-z]+[A-Z][A-Za-z]*\b|\b\w+\(\)|\b\w+\.\w+\b/g,
  /\b(?:i|we) (?:built|used|had|wrote|fixed|found|measured|added|changed|led|decided|chose|ran|shipped|introduced|moved)\b|\bin my (?:last|previous|current) (?:job|role|team|project)\b|\bat my\b/gi,
];

function countSpecifics(text: string): number {
  return SPECIFIC_PATTERNS.reduce((sum, pattern) => sum + (text.match(pattern)?.length ?? 0), 0);
}

/** `question`: the question asked; its own words said back earn no key point. */
export function judgeAnswer(turns: readonly string[], keyPoints: readonly string[], question?: string): AnswerJudgement {
  const text = turns.join(' ').replace(/\s+/g, ' ').trim();
  const words = countWords(text);
  if (words === 0) {
    return { verdict: 'Not answered', score: 0, words: 0, covered: [], missed: [...keyPoints], quote: '', specifics: 0 };
  }
  // Stem each sentence once: the sentences give the quote, their union the whole answer.
  const sentences = text.split(/(?<=[.!?])\s+/).filter((sentence) => /[a-z0-9]/i.test(sentence));
  const sentenceStems = sentences.map((sentence) => new Set(contentStems(sentence)));
  const stems = new Set<string>();
  for (const set of sentenceStems) for (const stem of set) stems.add(stem);
  const coverage = keyPointCoverage(stems, keyPoints, question);
  const specifics = countSpecifics(text);
  const depth = Math.min(1, words / FULL_DEPTH_WORDS);
  const specificity = Math.min(1, specifics / 3);
  // Length and examples only count in proportion to relevance: a long answer on something
  // else must not score well.
  const relevance = Math.min(1, 0.3 + coverage.partialRatio);
  const raw = 0.6 * coverage.partialRatio + (0.25 * depth + 0.15 * specificity) * relevance;
  // Any answer earns at least 1, so an attempt always ranks above silence.
  const score = Math.max(1, Math.round(Math.min(1, raw) * 100));
  const verdict: Verdict = score >= 70 ? 'Answered well' : score >= 40 ? 'Partly answered' : 'Thin answer';
  return { verdict, score, words, covered: coverage.covered, missed: coverage.missed, quote: pickQuote(sentences, sentenceStems, keyPoints, text, question), specifics };
}

/** The sentence that touches the most key points, trimmed to a short quote. */
function pickQuote(
  sentences: readonly string[],
  sentenceStems: readonly Set<string>[],
  keyPoints: readonly string[],
  text: string,
  question: string | undefined,
): string {
  let best = sentences[0] ?? text;
  let bestHits = -1;
  const searched = Math.min(sentences.length, QUOTE_SENTENCES);
  for (let i = 0; i < searched; i++) {
    const hits = keyPointCoverage(sentenceStems[i]!, keyPoints, question).covered.length;
    if (hits > bestHits) {
      best = sentences[i]!;
      bestHits = hits;
    }
  }
  // Markdown-significant characters out: the quote is the candidate's words, not markup.
  const clean = best.replace(/[`*_[\]<>#|\\]/g, '').replace(/\s+/g, ' ').trim();
  const words = clean.split(' ');
  return words.length > QUOTE_WORDS ? `${words.slice(0, QUOTE_WORDS).join(' ')} …` : clean;
}
