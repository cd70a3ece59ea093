/**
 * Cuts an answer into statements (sentences; overlong unpunctuated speech into overlapping
 * windows) and marks what a statement cannot be evidence for: questions, admissions of not
 * knowing, and word lists. Key points are matched per statement, never across the whole answer,
 * so words scattered over an answer earn nothing. See docs/question-sets.md ("How answers are
 * judged").
 */
import { stem, STOP_WORDS } from './text-match';

export interface Token {
  /** Lower-case word. */
  word: string;
  /** Stem, or '' for a stop word. */
  stem: string;
  /** Clause number inside the statement (commas and contrast words start a new clause). */
  clause: number;
  /** A negation word ("not", "never", "don't", ...). */
  negation: boolean;
}

export interface Statement {
  /** The candidate's words as said (whitespace collapsed). */
  text: string;
  tokens: Token[];
  stems: Set<string>;
  /** Asked rather than stated ("is it block scoped?"). */
  question: boolean;
  /** Clause numbers that admit not knowing ("I don't know what hoisting is"). */
  ignorance: Set<number>;
  /** A list of terms or a repeated word rather than a sentence. */
  salad: boolean;
  /** Per token: its stem, or the word itself for a stop word (for word-sequence matching). */
  keys: string[];
}

const NEGATIONS = new Set([
  'not', 'no', 'never', 'nothing', 'none', 'neither', 'nor', 'cannot', 'without', 'dont', 'doesnt', 'isnt', 'arent', 'cant',
  'wont', 'wasnt', 'werent', 'didnt', 'shouldnt', 'couldnt', 'wouldnt', 'hasnt', 'havent',
]);
/** Words that open a new clause: a negation before them does not reach past them. */
const CLAUSE_WORDS = new Set(['but', 'whereas', 'while', 'although', 'though', 'however', 'because', 'so', 'unlike', 'instead']);
const IGNORANCE = /\b(?:(?:do ?n[o']?t|dont|do not) (?:really )?(?:know|remember|understand|recall)|not (?:really )?sure|no idea|(?:can ?not|can'?t|cannot) (?:remember|recall|say)|never heard|not familiar|forgot(?:ten)?|no clue|pass on this)\b/;
const QUESTION_START = /^(?:is it|isn'?t it|are they|does it|do you|could you|can you|what is|what are|what's|why is|how do|how does|is that)\b/i;

/** Statements longer than this (speech without punctuation) are read in overlapping windows. */
const WINDOW = 28;
const WINDOW_STEP = 14;
/** A statement this long with this few function words reads as a list of terms, not a sentence. */
const SALAD_MIN_WORDS = 12;
const SALAD_MAX_FUNCTION_SHARE = 0.15;

const WORD = /[A-Za-z0-9]+(?:'[A-Za-z]+)?/g;

const CLAUSE_MARKS = new Set([',', ';', ':', '(', '—', '–']);

function hasClauseMark(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (CLAUSE_MARKS.has(text[i]!)) return true;
  return false;
}

function isNegation(word: string): boolean {
  return NEGATIONS.has(word) || word.endsWith("n't");
}

function tokenizeStatement(text: string): Token[] {
  const tokens: Token[] = [];
  let clause = 0;
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    // "component's" is "component": the possessive says nothing about the point.
    const word = match[0].toLowerCase().replace(/'s$/, '');
    const index = match.index ?? 0;
    // A comma or semicolon between two words, or a contrast word, starts a new clause.
    if (CLAUSE_WORDS.has(word) || hasClauseMark(text, last, index)) clause += 1;
    last = index + match[0].length;
    const stop = STOP_WORDS.has(word) || isNegation(word);
    tokens.push({ word, stem: stop ? '' : stem(word), clause, negation: isNegation(word) });
  }
  return tokens;
}

/** Term lists ("var let const hoisting ...") and one word said over and over. */
function looksLikeSalad(tokens: readonly Token[]): boolean {
  if (tokens.length < SALAD_MIN_WORDS) return false;
  // Distinct function words: "this this this call apply bind" is no sentence for repeating "this".
  const functionWords = new Set(tokens.filter((t) => t.stem === '').map((t) => t.word)).size;
  if (functionWords / tokens.length < SALAD_MAX_FUNCTION_SHARE) return true;
  const counts = new Map<string, number>();
  for (const t of tokens) if (t.stem) counts.set(t.stem, (counts.get(t.stem) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  return top >= 4 && top / tokens.length > 0.3;
}

function ignoranceClauses(text: string, tokens: readonly Token[]): Set<number> {
  const clauses = new Set<number>();
  // Cheap test on the whole statement first: nearly every statement has no such admission.
  if (!IGNORANCE.test(text.toLowerCase())) return clauses;
  const byClause = new Map<number, string[]>();
  for (const t of tokens) {
    const words = byClause.get(t.clause);
    if (words) words.push(t.word);
    else byClause.set(t.clause, [t.word]);
  }
  for (const [clause, words] of byClause) if (IGNORANCE.test(words.join(' '))) clauses.add(clause);
  return clauses;
}

function makeStatement(text: string, tokens: Token[], question: boolean): Statement {
  return {
    text,
    tokens,
    stems: new Set(tokens.map((t) => t.stem).filter(Boolean)),
    question,
    ignorance: ignoranceClauses(text, tokens),
    keys: tokens.map((t) => t.stem || t.word),
    salad: looksLikeSalad(tokens),
  };
}

/** Sentences split at . ! ? ; and line breaks; a question mark or a question opening marks a question. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => /[a-z0-9]/i.test(s));
}

export function splitStatements(answer: string): Statement[] {
  const statements: Statement[] = [];
  for (const sentence of sentences(answer)) {
    const tokens = tokenizeStatement(sentence);
    const question = sentence.endsWith('?') || QUESTION_START.test(sentence);
    if (tokens.length <= WINDOW) {
      statements.push(makeStatement(sentence, tokens, question));
      continue;
    }
    // Unpunctuated speech: overlapping windows keep "together" meaningful.
    const words = sentence.split(' ');
    for (let start = 0; start < words.length; start += WINDOW_STEP) {
      const text = words.slice(start, start + WINDOW).join(' ');
      statements.push(makeStatement(text, tokenizeStatement(text), question));
      if (start + WINDOW >= words.length) break;
    }
  }
  return statements;
}
