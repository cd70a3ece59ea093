/**
 * Typed answers carry typos ("seperate", "diffrent", "circut", "ppath") and run-together words
 * ("differentclosed"), which the word matcher cannot meet: it needs the point's stems. Before an
 * answer is judged, a word that is no English word (it has no word vector, server/rater/vectors/)
 * is read as the word of the question set it is one edit from (a letter added, dropped, changed
 * or two neighbours swapped), when exactly one such word is there; and as two of those words
 * when it is exactly two of them run together. The question set's words are its question, model
 * answer, key points and phrasings, and the other sides of the opposite properties they name
 * (server/rater/lists/opposites.txt: "same" brings "different" and "separate"). Only those words
 * are candidates, so nothing of any subject is built in, and a real word is never changed; nor is
 * a name of code ("setTimeout", "os.cpus()", "pg_stat", "HTTP"): only plain words are read.
 */
import { oppositeNamings } from './contrasts';
import { rowOf } from './word-vectors';

const WORD = /[A-Za-z]+/g;
/** A token as written, names of code included ("setTimeout", "os.cpus()", "pg_stat"); only plain words are corrected. */
const TOKEN = /[A-Za-z0-9_$]+(?:\.[A-Za-z0-9_$]+)*(?:\(\))?/g;
const PLAIN = /^[A-Z]?[a-z]+$/;
/** Shortest word read as a typo of another (shorter words are too often other words). */
const MIN_TYPO = 4;
/** Shortest part of a run-together word. */
const MIN_PART = 3;

/** One edit apart: a letter added, dropped or changed, or two neighbours swapped. */
export function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length)
    return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The set's words a typo may stand for, by length, and the corrections already made. */
export interface TypoVocabulary {
  words: Set<string>;
  byLength: Map<number, string[]>;
  memo: Map<string, string | null>;
}

const VOCABULARIES = new Map<string, TypoVocabulary>();
/** Question sets' vocabularies kept, and corrections kept per vocabulary: at most about 200,000 short entries in all. */
const VOCABULARY_CACHE_LIMIT = 100;
const MEMO_LIMIT = 2_000;

/** The set's words (lower case, at least MIN_PART letters) and the opposite namings they bring; cached by the texts. */
export function typoVocabulary(texts: readonly string[]): TypoVocabulary {
  const key = texts.join('\n');
  const cached = VOCABULARIES.get(key);
  if (cached) return cached;
  const words = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(WORD)) if (m[0].length >= MIN_PART) words.add(m[0].toLowerCase());
  for (const w of oppositeNamings(words)) words.add(w);
  const byLength = new Map<number, string[]>();
  for (const w of words) byLength.set(w.length, [...(byLength.get(w.length) ?? []), w]);
  const vocabulary = { words, byLength, memo: new Map<string, string | null>() };
  if (VOCABULARIES.size >= VOCABULARY_CACHE_LIMIT) VOCABULARIES.clear();
  VOCABULARIES.set(key, vocabulary);
  return vocabulary;
}

function correction(lower: string, vocabulary: TypoVocabulary): string | null {
  const { words, byLength } = vocabulary;
  if (words.has(lower) || rowOf(lower) !== -1) return null;
  if (lower.length >= MIN_TYPO) {
    let found: string | null = null;
    for (const length of [lower.length - 1, lower.length, lower.length + 1]) {
      for (const v of byLength.get(length) ?? []) {
        if (v.length < MIN_TYPO || !oneEdit(lower, v)) continue;
        if (found !== null) return null;
        found = v;
      }
    }
    if (found !== null) return found;
  }
  for (let i = MIN_PART; i <= lower.length - MIN_PART; i++) {
    const a = lower.slice(0, i);
    const b = lower.slice(i);
    if (words.has(a) && words.has(b)) return `${a} ${b}`;
  }
  return null;
}

/** `text` with its typos of the set's words corrected (see above); other words as they were. */
export function correctTypos(text: string, vocabulary: TypoVocabulary): string {
  if (vocabulary.words.size === 0) return text;
  const { memo } = vocabulary;
  return text.replace(TOKEN, (word) => {
    if (!PLAIN.test(word)) return word;
    const lower = word.toLowerCase();
    let fixed = memo.get(lower);
    if (fixed === undefined) {
      fixed = correction(lower, vocabulary);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(lower, fixed);
    }
    return fixed ?? word;
  });
}
