/**
 * Meaning, not spelling: how close one statement of an answer comes to a key point, by an
 * idf-weighted soft alignment of the key point's words to the statement's (each key-point word
 * finds its closest word in the statement: the same stem counts fully, a word the vectors put near
 * counts by how near, a typo of the word counts nearly fully). Rare words weigh more: a word's
 * weight is the log of its frequency rank in the vectors' vocabulary (a general English corpus),
 * so no corpus of the operator's set is needed.
 */
import { OPAQUE_STEM, stem, tokenize } from './text-match';
import type { Statement } from './statements';
import { cosine, rowOf, vocabularySize } from './word-vectors';
import { dataLines, wordSet } from './word-lists';

export interface SoftWord {
  word: string;
  stem: string;
  row: number;
  weight: number;
}

/** Cosine below this says nothing; the credit rises linearly from here to 1 at FULL_COSINE. */
export const FLOOR_COSINE = 0.45;
export const FULL_COSINE = 0.85;
/** Most a word met only through the vectors can count (a near word is not the word). */
export const NEAR_CAP = 0.8;

function weightOf(row: number): number {
  const rank = row === -1 ? vocabularySize() : row;
  return Math.log(rank + 50);
}

const SOFT_CACHE = new Map<string, SoftWord>();

export function softWord(word: string): SoftWord {
  let w = SOFT_CACHE.get(word);
  if (!w) {
    const row = rowOf(word);
    w = { word, stem: stem(word), row, weight: weightOf(row) };
    if (SOFT_CACHE.size > 50_000) SOFT_CACHE.clear();
    SOFT_CACHE.set(word, w);
  }
  return w;
}

/**
 * Words too common to say anything by themselves: articles, pronouns, auxiliaries, prepositions
 * and conjunctions. Fewer than the matcher's stop words: "once", "always", "before", "same" and
 * "while" carry a point's meaning ("runs at least once").
 */
export const FUNCTION_WORDS = wordSet('semantic.functionWords');

/** Content words of a text (stop words and overlong tokens out), each once. */
export function softWords(text: string, echo?: ReadonlySet<string>): SoftWord[] {
  const seen = new Set<string>();
  const out: SoftWord[] = [];
  for (const token of tokenize(text)) {
    if (FUNCTION_WORDS.has(token) || isNegationWord(token)) continue;
    const w = softWord(token);
    if (w.stem === OPAQUE_STEM || seen.has(w.stem)) continue;
    seen.add(w.stem);
    out.push(echo?.has(w.stem) ? { ...w, weight: w.weight * ECHO_WEIGHT } : w);
  }
  return out;
}

/** A key-point word the question already said weighs this share: saying it back is weak evidence. */
export const ECHO_WEIGHT = 0.5;

/** One edit apart (a typo): "seperated" for "separated". Only for words of 5 letters or more. */
function oneEditApart(a: string, b: string): boolean {
  if (a.length < 5 || b.length < 5 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length)
    return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Similarities of word pairs by their rows: an interview says its vocabulary again and again. */
const PAIR_CACHE = new Map<number, number>();

export function wordSimilarity(a: SoftWord, b: SoftWord): number {
  if (a.stem === b.stem) return 1;
  if (oneEditApart(a.word, b.word)) return 0.9;
  if (a.row === -1 || b.row === -1) return 0;
  const key = a.row < b.row ? a.row * 100_000 + b.row : b.row * 100_000 + a.row;
  let sim = PAIR_CACHE.get(key);
  if (sim === undefined) {
    const c = cosine(a.row, b.row);
    sim = c <= FLOOR_COSINE ? 0 : Math.min(NEAR_CAP, (c - FLOOR_COSINE) / (FULL_COSINE - FLOOR_COSINE));
    if (PAIR_CACHE.size >= 500_000) PAIR_CACHE.clear();
    PAIR_CACHE.set(key, sim);
  }
  return sim;
}

/** How close a statement's words come to a key point's (0-1), and which statement words aligned. */
export function closeness(point: readonly SoftWord[], said: readonly SoftWord[]): number {
  let total = 0;
  let got = 0;
  for (const p of point) {
    total += p.weight;
    let best = 0;
    for (const s of said) {
      const sim = wordSimilarity(p, s);
      if (sim > best) best = sim;
      if (best === 1) break;
    }
    got += p.weight * best;
  }
  return total === 0 ? 0 : got / total;
}

/** A statement's content words for soft alignment (its stems as said, stop words out). */
export function statementWords(statement: Statement): SoftWord[] {
  const seen = new Set<string>();
  const out: SoftWord[] = [];
  for (const t of statement.tokens) {
    if (t.negation || FUNCTION_WORDS.has(t.word) || t.stem === OPAQUE_STEM || seen.has(t.word)) continue;
    seen.add(t.word);
    out.push(softWord(t.word));
  }
  return out;
}

const NEGATION_WORDS = wordSet('semantic.negationWords');
const isNegationWord = (word: string) => NEGATION_WORDS.has(word) || word.endsWith("n't");

/** Negation words said in the statement outside a clause that admits not knowing. */
export function negations(statement: Statement): number {
  return statement.tokens.filter((t) => t.negation && !statement.ignorance.has(t.clause)).length;
}

let antonyms: Map<string, string[]> | undefined;

/** Words (and their stems) that say the opposite of `word` (server/rater/lists/antonyms.txt). */
export function antonymsOf(word: string): readonly string[] {
  if (!antonyms) {
    antonyms = new Map();
    for (const line of dataLines('antonyms.txt')) {
      const [left = '', right = ''] = line.split('|').map((s) => s.trim());
      const opposites = right
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const key of [left, stem(left)]) {
        const list = antonyms.get(key) ?? [];
        for (const o of opposites) list.push(o, stem(o));
        antonyms.set(key, [...new Set(list)]);
      }
    }
  }
  return antonyms.get(word) ?? antonyms.get(stem(word)) ?? [];
}
