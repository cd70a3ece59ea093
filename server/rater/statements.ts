/**
 * Cuts an answer into statements (sentences; overlong unpunctuated speech into overlapping
 * windows) and marks what a statement cannot be evidence for: questions, admissions of not
 * knowing, and word lists. Key points are matched per statement, never across the whole answer,
 * so words scattered over an answer earn nothing. See docs/question-sets.md ("How answers are
 * judged").
 */
import {
  conceptTags,
  isOverlong,
  joinUnderscores,
  straightenApostrophes,
  lexicon,
  normaliseWord,
  OPAQUE_STEM,
  rawKey,
  spokenCodes,
  stem,
  STOP_WORDS,
} from './text-match';
import { wordList, wordSet } from './word-lists';

export interface Token {
  /** Lower-case word. */
  word: string;
  /** Stem, or '' for a stop word. */
  stem: string;
  /** Clause number inside the statement (commas and contrast words start a new clause). */
  clause: number;
  /** A negation word ("not", "never", "don't", ...). */
  negation: boolean;
  /** Other stems the word stands for: concept tags (server/rater/lexicon.ts), the parts of a camelCase name. */
  alts: string[];
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

const NEGATIONS = wordSet('statements.negations');
/** Words that open a new clause: a negation before them does not reach past them. */
const CLAUSE_WORDS = wordSet('statements.clauseWords');
// "I don't know", not "we don't know what state we're in" (which states a point).
const IGNORANCE =
  /(?:^|\bi (?:really |just |honestly )?)(?:do ?n[o']?t|dont|do not) (?:really )?(?:know|remember|understand|recall)\b|\b(?:not (?:really )?sure|no idea|(?:can ?not|can'?t|cannot) (?:remember|recall|say)|never heard|not familiar|forgot(?:ten)?(?! to\b)|no clue|pass on this)\b/;
/** Openings that make a sentence a question without its question mark (word-sets.json, "statements.questionOpenings"). */
const QUESTION_START = new RegExp(`^(?:${wordList('statements.questionOpenings').join('|')})\\b`, 'i');

/** Statements longer than this (speech without punctuation) are read in overlapping windows. */
const WINDOW = 28;
const WINDOW_STEP = 14;
/** Statements made of whole clauses may be a little longer: a thought and its reason ("... so you ..."). */
const CLAUSE_WINDOW = 36;
/** Fewest words between the starts of two overlapping clause windows. */
const MIN_WINDOW_STEP = 6;
/** A statement this long with this few function words reads as a list of terms, not a sentence. */
const SALAD_MIN_WORDS = 12;
const SALAD_MAX_FUNCTION_SHARE = 0.15;
/** This many words without a single sentence glue word is a list of terms. */
const SALAD_MIN_GLUELESS = 8;
const GLUE_WORDS = wordSet('statements.glueWords');

const WORD = /[A-Za-z0-9]+(?:'[A-Za-z]+)?/g;

const CLAUSE_MARKS = new Set([',', ';', ':', '(', '—', '–']);

function hasClauseMark(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (CLAUSE_MARKS.has(text[i]!)) return true;
  return false;
}

function isNegation(word: string): boolean {
  return NEGATIONS.has(word) || word.endsWith("n't");
}

/** The words of a camelCase name ("setInterval" -> set, interval), for matching its parts. */
function camelParts(word: string): string[] {
  if (!/[a-z0-9][A-Z]/.test(word)) return [];
  const parts = word.split(/(?<=[a-z0-9])(?=[A-Z])/);
  return parts.length > 1 ? parts.map((p) => p.toLowerCase()) : [];
}

interface WordInfo {
  word: string;
  stem: string;
  negation: boolean;
  alts: readonly string[];
  /** Key for phrase matching (server/rater/text-match.ts rawKey). */
  key: string;
}

/** Word facts by the word as written: an interview repeats its vocabulary, and rating must stay fast. */
const WORD_INFO = new Map<string, WordInfo>();
const WORD_INFO_LIMIT = 50_000;

/** An overlong token (text-match.ts isOverlong): one opaque word, matching nothing, never cached. */
const OPAQUE_INFO: WordInfo = { word: OPAQUE_STEM, stem: OPAQUE_STEM, negation: false, alts: [], key: OPAQUE_STEM };

function wordInfo(written: string): WordInfo {
  if (isOverlong(written)) return OPAQUE_INFO;
  let info = WORD_INFO.get(written);
  if (info) return info;
  // "component's" is "component": the possessive says nothing about the point.
  const word = normaliseWord(written.replace(/'s$/i, ''));
  const negation = isNegation(word);
  const stop = STOP_WORDS.has(word) || negation;
  const alts = [...conceptTags(word), ...(negation ? ['~prevent'] : [])];
  for (const part of camelParts(written)) if (!STOP_WORDS.has(part)) alts.push(stem(part), ...conceptTags(part));
  info = { word, stem: stop ? '' : stem(word), negation, alts, key: rawKey(word) };
  if (WORD_INFO.size >= WORD_INFO_LIMIT) WORD_INFO.clear();
  WORD_INFO.set(written, info);
  return info;
}

function tokenizeStatement(text: string): Token[] {
  const tokens: Token[] = [];
  const keys: string[] = [];
  let clause = 0;
  let last = 0;
  // Status codes said digit by digit become one number first; the clause marks are then looked up
  // in the same text, so the positions agree.
  const said = spokenCodes(text);
  for (const match of said.matchAll(WORD)) {
    const info = wordInfo(match[0]);
    const index = match.index ?? 0;
    // A comma or semicolon between two words, or a contrast word, starts a new clause.
    if (CLAUSE_WORDS.has(info.word) || hasClauseMark(said, last, index)) clause += 1;
    last = index + match[0].length;
    // alts is shared between tokens of one word until a phrase adds to it (tagPhrases copies).
    tokens.push({ word: info.word, stem: info.stem, clause, negation: info.negation, alts: info.alts as string[] });
    keys.push(info.key);
  }
  tagPhrases(tokens, keys);
  unsayCorrections(tokens);
  return tokens;
}

/** Spoken phrases of the lexicon ("n squared", "tidy up"): each word of one gets the phrase's concept. */
function tagPhrases(tokens: Token[], keys: readonly string[]): void {
  const { phrases } = lexicon();
  for (let i = 0; i < tokens.length; i++) {
    const candidates = phrases.get(keys[i]!);
    if (!candidates) continue;
    for (const { keys: phrase, tag } of candidates) {
      const gap = phrase.every((k, j) => keys[i + j] === k) ? 0 : objectGap(phrase, keys, i);
      if (gap === -1 || i + phrase.length + gap > tokens.length) continue;
      // The phrase is one word's worth: its first word carries the concept, so one phrase fills
      // one requirement of a point.
      const first = tokens[i]!;
      if (!first.alts.includes(tag)) first.alts = [...first.alts, tag];
      // The phrase says it ("doesn't change" is "stable"): its own negation denies nothing.
      for (let j = 0; j < phrase.length + gap; j++) tokens[i + j]!.negation = false;
    }
  }
}

/** After "no", these make it a self-correction ("block scoped no wait function scoped"), not a denial. */
const CORRECTION_WORDS = wordSet('statements.correctionWords');
/** After "not", these make it an addition ("not just faster but cheaper"), not a denial. */
const ADDITION_WORDS = wordSet('statements.additionWords');

function unsayCorrections(tokens: Token[]): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const next = tokens[i + 1]!.word;
    if ((tokens[i]!.word === 'no' && CORRECTION_WORDS.has(next)) || (tokens[i]!.word === 'not' && ADDITION_WORDS.has(next)))
      tokens[i]!.negation = false;
  }
}

/** Particles of phrasal verbs ("take off", "tear down", "work out"). */
const PARTICLES = new Set(wordList('statements.particles').map(rawKey));
/** What may sit between a phrasal verb and its particle: the object as a pronoun or a short noun phrase ("take them off", "tears the connection down"). */
const OBJECT_WORDS = new Set(wordList('statements.objectWords').map(rawKey));

/**
 * "take them off", "tears that down": a two-word phrase of a verb and a particle, said with its
 * object between (one pronoun, or an article or possessive and one word). The number of words
 * between, or -1 when the phrase is not said so.
 */
function objectGap(phrase: readonly string[], keys: readonly string[], i: number): number {
  if (phrase.length !== 2 || !PARTICLES.has(phrase[1]!)) return -1;
  for (const gap of [1, 2]) {
    if (keys[i + 1 + gap] !== phrase[1]) continue;
    const between = keys.slice(i + 1, i + 1 + gap);
    if (gap === 1 ? OBJECT_WORDS.has(between[0]!) : OBJECT_WORDS.has(between[0]!) && !PARTICLES.has(between[1]!)) return gap;
  }
  return -1;
}

/** Term lists ("var let const hoisting ...") and one word said over and over. */
function looksLikeSalad(tokens: readonly Token[]): boolean {
  // A run of terms without one word that glues a sentence together ("deadline priorities scope
  // stakeholders quality updates must-haves delivered on time").
  if (tokens.length >= SALAD_MIN_GLUELESS && !tokens.some((t) => GLUE_WORDS.has(t.word) || t.word.endsWith("n't"))) return true;
  if (tokens.length < SALAD_MIN_WORDS) return false;
  // Distinct function words: "this this this call apply bind" is no sentence for repeating "this".
  const functionWords = new Set(tokens.filter((t) => t.stem === '').map((t) => t.word)).size;
  if (functionWords / tokens.length < SALAD_MAX_FUNCTION_SHARE) return true;
  const counts = new Map<string, number>();
  for (const t of tokens) if (t.stem) counts.set(t.stem, (counts.get(t.stem) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  return top >= 4 && top / tokens.length > 0.3;
}

const CONDITION_WORDS = wordList('statements.conditionWords');

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
  for (const [clause, words] of byClause) {
    const said = words.join(' ');
    const at = said.search(IGNORANCE);
    // "if it's a bug and I don't know what state the process is in": a condition, not an admission.
    if (at !== -1 && !CONDITION_WORDS.some((w) => said.slice(0, at).split(' ').includes(w))) clauses.add(clause);
  }
  return clauses;
}

function stemsOf(tokens: readonly Token[]): Set<string> {
  const stems = new Set<string>();
  for (const t of tokens) {
    if (t.stem) stems.add(t.stem);
    for (const a of t.alts) stems.add(a);
  }
  return stems;
}

function makeStatement(text: string, tokens: Token[], question: boolean): Statement {
  return {
    text,
    tokens,
    stems: stemsOf(tokens),
    question,
    ignorance: ignoranceClauses(text, tokens),
    keys: tokens.map((t) => t.stem || t.word),
    salad: looksLikeSalad(tokens),
  };
}

/**
 * Sentences split at . ! ? ; and line breaks; a question mark or a question opening marks a
 * question. An ellipsis before a lower-case word goes on ("a do ... while loop").
 */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?;])(?<!\.\.\.|…)\s+|(?<=\.\.\.|…)\s+(?![a-z])|\n+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => /[a-z0-9]/i.test(s));
}

/** Words that start a new thought in speech ("... the page freezes so you break it up ..."). */
const SPOKEN_BREAKS = wordSet('statements.spokenBreaks');
/** After "and", these start a new clause ("and we cut the reporting part"). */
const AFTER_AND = wordSet('statements.afterAnd');

const isWordChar = (c: string) => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === "'";

/** The word without its punctuation around it (a loop, not a regular expression: linear on any input). */
function bare(word: string): string {
  const w = word.toLowerCase();
  let from = 0;
  let to = w.length;
  while (from < to && !isWordChar(w[from]!)) from++;
  while (to > from && !isWordChar(w[to - 1]!)) to--;
  return w.slice(from, to);
}

/** Most words a run of text without spaces ("client-side", "e.g.") counts as one spoken word. */
const MAX_JOINED_WORDS = 4;

/**
 * A sentence's spoken words: split at spaces, and a run of more words joined without spaces
 * ("a.b.c.d.e…", 100 KB of it) cut into its words, so no statement holds more than its window's
 * worth of words and matching stays linear in the answer's length.
 */
function spokenWords(sentence: string): string[] {
  const out: string[] = [];
  for (const piece of sentence.split(' ')) {
    const starts = [...piece.matchAll(WORD)].map((m) => m.index);
    if (starts.length <= MAX_JOINED_WORDS) {
      out.push(piece);
      continue;
    }
    for (let k = 0; k < starts.length; k++)
      out.push(piece.slice(k === 0 ? 0 : starts[k], k + 1 < starts.length ? starts[k + 1] : piece.length));
  }
  return out;
}

/** Clauses of a long sentence: cut at commas and the like, and before spoken breaks. */
function clauses(words: readonly string[]): string[][] {
  const out: string[][] = [[]];
  words.forEach((word, i) => {
    const w = bare(word);
    const prev = i > 0 ? words[i - 1]! : '';
    const cut = i > 0 && (/[,;:—–]$/.test(prev) || SPOKEN_BREAKS.has(w) || (w === 'and' && AFTER_AND.has(bare(words[i + 1] ?? ''))));
    if (cut && out[out.length - 1]!.length > 0) out.push([]);
    out[out.length - 1]!.push(word);
  });
  return out;
}

/**
 * Overlapping statements of whole clauses, each at most CLAUSE_WINDOW words: one starting at every
 * clause (skipping those a previous one already holds whole). A clause longer than WINDOW is read
 * in word windows.
 */
function clauseWindows(words: readonly string[]): string[] {
  const parts = clauses(words).flatMap((c) => (c.length <= CLAUSE_WINDOW ? [c] : wordWindows(c)));
  const out: string[] = [];
  let lastEnd = -1;
  let lastStart = -Infinity;
  let at = 0;
  for (let start = 0; start < parts.length; at += parts[start]!.length, start++) {
    let end = start;
    let size = parts[start]!.length;
    while (end + 1 < parts.length && size + parts[end + 1]!.length <= CLAUSE_WINDOW) size += parts[++end]!.length;
    if (end <= lastEnd) continue;
    // Many short clauses ("and it, and it, …"): a window starts at most every MIN_WINDOW_STEP
    // words (unless the last one left this clause out), so each word is read a bounded number of times.
    if (start <= lastEnd && at - lastStart < MIN_WINDOW_STEP) continue;
    out.push(
      parts
        .slice(start, end + 1)
        .flat()
        .join(' '),
    );
    lastEnd = end;
    lastStart = at;
  }
  return out;
}

function wordWindows(words: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let start = 0; start < words.length; start += WINDOW_STEP) {
    out.push(words.slice(start, start + WINDOW));
    if (start + WINDOW >= words.length) break;
  }
  return out;
}

/**
 * The words of a phrase as a statement's `keys` hold them (stems; small words, negations and
 * number words as the answer's words are read), so an "Also accepted" or "Contradicted by" phrase
 * written "that's on me", "zero incidents" or "pg_stat_statements" meets the same words said.
 */
export function phraseKeys(text: string): Array<{ word: string; key: string }> {
  return tokenizeStatement(joinUnderscores(straightenApostrophes(text))).map((t) => ({ word: t.word, key: t.stem || t.word }));
}

/**
 * `seen`: sentences already read for this answer, with their statements. A sentence said again
 * gives the same statement objects (judged once; repetition is still counted by the caller), so
 * an answer of one sentence over and over costs no more than its distinct sentences.
 */
export function splitStatements(answer: string, seen: Map<string, Statement[]> = new Map()): Statement[] {
  const statements: Statement[] = [];
  for (const sentence of sentences(joinUnderscores(straightenApostrophes(answer)))) {
    const known = seen.get(sentence);
    if (known) {
      statements.push(...known);
      continue;
    }
    const own = readSentence(sentence);
    seen.set(sentence, own);
    statements.push(...own);
  }
  return statements;
}

/** Whether the text has more than `n` words as tokenizeStatement counts them (stops counting there). */
function moreWordsThan(text: string, n: number): boolean {
  let k = 0;
  for (const _ of spokenCodes(text).matchAll(WORD)) if (++k > n) return true;
  return false;
}

function readSentence(sentence: string): Statement[] {
  const question = sentence.endsWith('?') || QUESTION_START.test(sentence);
  if (!moreWordsThan(sentence, WINDOW)) return [makeStatement(sentence, tokenizeStatement(sentence), question)];
  // Long speech, often unpunctuated: statements of whole clauses, overlapping, so "together"
  // keeps its meaning and no statement starts or ends mid-thought.
  return clauseWindows(spokenWords(sentence)).map((text) => makeStatement(text, tokenizeStatement(text), question));
}
