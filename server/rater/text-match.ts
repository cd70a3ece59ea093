import { buildLexicon, type Lexicon } from './lexicon';
import { MAX_WORD_LENGTH, porterStem } from './porter-stem';
import { wordMap, wordSet } from './word-lists';

/**
 * Light, deterministic text matching for judging spoken answers against key points: tokens,
 * crude stemming (so "scoped"/"scope", "normalise"/"normalization" meet), a few synonyms, and
 * stop-word removal. Deliberately simple and fast: a whole interview must rate in milliseconds.
 */

export const STOP_WORDS = wordSet('text.stopWords');

/** Words that mean the same thing for our purposes, mapped to one spelling before stemming. */
const SYNONYMS: Record<string, string> = wordMap('text.synonyms');

/**
 * Irregular past forms Porter cannot meet with their verb ("kept" is not "keep", "wrote" not
 * "write"). Only verbs whose base form is no stop word: "made", "went", "knew" stay what they are.
 */
const IRREGULAR: Record<string, string> = wordMap('text.irregularVerbs');

/** A word's base form before stemming: an irregular past is its verb. */
const baseForm = (word: string): string => (Object.hasOwn(IRREGULAR, word) ? IRREGULAR[word]! : word);

const STEM_CACHE = new Map<string, string>();
const STEM_CACHE_LIMIT = 50_000;

/**
 * The stem of a token longer than any word (MAX_WORD_LENGTH): one opaque token that matches no
 * key point and no concept. It is neither stemmed nor cached, so a transcript of long garbage
 * tokens costs time linear in its length and fills no cache.
 */
export const OPAQUE_STEM = '~opaque';
export const isOverlong = (word: string): boolean => word.length > MAX_WORD_LENGTH;

/** A crude suffix stripper; good enough to make inflections of one word meet. Memoised: vocabularies are small. */
export function stem(word: string): string {
  if (isOverlong(word)) return OPAQUE_STEM;
  const cached = STEM_CACHE.get(word);
  if (cached !== undefined) return cached;
  const result = stemUncached(word);
  if (STEM_CACHE.size >= STEM_CACHE_LIMIT) STEM_CACHE.clear();
  STEM_CACHE.set(word, result);
  return result;
}

/**
 * Porter leaves adverbs alone ("lazily", "quickly"); meet them with their adjective. Not after
 * l or p ("fully", "apply"), and not when little is left ("early").
 */
export function unAdverb(word: string): string {
  if (word.length < 6 || !word.endsWith('ly')) return word;
  if (word.endsWith('ily')) return `${word.slice(0, -3)}y`;
  return /[b-df-hj-km-oq-tv-z]ly$|[^aeiou]ely$/.test(word) ? word.slice(0, -2) : word;
}

function stemUncached(word: string): string {
  // hasOwn: "constructor" is a word, not Object.prototype.constructor.
  const w = Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word]! : baseForm(word);
  if (w.length <= 3) return w;
  // British and American spellings: normalise/normalize, optimisation/optimization, serialisable,
  // analyse/analyze, behaviour/behavior.
  return porterStem(
    unAdverb(w)
      .replace(/is(e|ed|es|ing|ation|ations|able|er|ers)$/, 'iz$1')
      .replace(/ys(e|ed|es|ing)$/, 'yz$1')
      .replace(/our$/, 'or'),
  );
}

/** Spoken numbers as digits, so "two pointers" meets "2 pointers". */
const NUMBER_WORDS = new Map(Object.entries(wordMap('text.numberWords')));

const DIGIT_WORDS: Record<string, string> = wordMap('text.digitWords');
const SPOKEN_CODE =
  /\b(one|two|three|four|five)[\s-]+(zero|oh|one|two|three|four|five|six|seven|eight|nine)[\s-]+(zero|one|two|three|four|five|six|seven|eight|nine)\b/gi;

/**
 * Status codes said digit by digit ("four two nine", "four oh four") as the number they are. A
 * run of three digit words opening with 1-5 is rarely anything else in an interview answer.
 */
export function spokenCodes(text: string): string {
  if (!/\b(?:one|two|three|four|five)[\s-]/i.test(text)) return text;
  return text.replace(
    SPOKEN_CODE,
    (_m, a: string, b: string, c: string) =>
      `${DIGIT_WORDS[a.toLowerCase()]!}${DIGIT_WORDS[b.toLowerCase()]!}${DIGIT_WORDS[c.toLowerCase()]!}`,
  );
}

/** One spoken word as the matcher reads it: lower case, number words as digits. */
export function normaliseWord(word: string): string {
  const w = word.toLowerCase();
  return NUMBER_WORDS.get(w) ?? w;
}

/** `pg_stat_statements` is one name: underscores inside a word join it (the catalogue drops them too). */
export function joinUnderscores(text: string): string {
  return text.includes('_') ? text.replace(/(?<=[A-Za-z0-9])_+(?=[A-Za-z0-9])/g, '') : text;
}

/**
 * Apostrophes as typed: curly ones (’ ‘ from phones and word processors) and a straight double
 * quote or backtick standing for one inside a contraction ("don"t", "battery"s", "it`s") become
 * the plain apostrophe, so "don’t" is one negation and not the words "don" and "t".
 */
export function straightenApostrophes(text: string): string {
  if (!/[’‘`"]/.test(text)) return text;
  return text.replace(/(?<=[A-Za-z])[’‘`](?=[A-Za-z])/g, "'").replace(/(?<=[A-Za-z])["`](?=(?:t|s|re|m|ll|ve|d)\b)/gi, "'");
}

/** Lower-case word tokens, keeping inner apostrophes, dots and plus signs off. */
export function tokenize(text: string): string[] {
  const words =
    joinUnderscores(straightenApostrophes(text))
      .toLowerCase()
      .match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];
  for (let i = 0; i < words.length; i++) words[i] = NUMBER_WORDS.get(words[i]!) ?? words[i]!;
  return words;
}

const RAW_CACHE = new Map<string, string>();

/**
 * A word's key for the concept lexicon: its stem without the synonym table (so "bug" can mean a
 * programmer error without every "error" meaning a bug), or the word itself for a stop word.
 */
export function rawKey(word: string): string {
  if (isOverlong(word)) return OPAQUE_STEM;
  if (STOP_WORDS.has(word)) return word;
  let key = RAW_CACHE.get(word);
  if (key === undefined) {
    const base = baseForm(word);
    key =
      base.length <= 3
        ? base
        : porterStem(
            unAdverb(base)
              .replace(/is(e|ed|es|ing|ation|ations)$/, 'iz$1')
              .replace(/our$/, 'or'),
          );
    if (RAW_CACHE.size >= STEM_CACHE_LIMIT) RAW_CACHE.clear();
    RAW_CACHE.set(word, key);
  }
  return key;
}

let LEXICON: Lexicon | undefined;
export function lexicon(): Lexicon {
  LEXICON ??= buildLexicon(rawKey, tokenize);
  return LEXICON;
}

const NO_TAGS: readonly string[] = [];
const DIGITS = /^\d+$/;
const HTTP_STATUS = /^[1-5]\d\d$/;

/** Concept tags of one (normalised) word: its lexicon concepts; a number is a measurement, 1xx-5xx a status code. */
/** The lexicon's spoken phrases among words (already normalised): concept, first word, length. */
export function phrasesIn(words: readonly string[]): Array<{ tag: string; from: number; length: number }> {
  const { phrases } = lexicon();
  const keys = words.map(rawKey);
  const found: Array<{ tag: string; from: number; length: number }> = [];
  for (let i = 0; i < keys.length; i++) {
    for (const { keys: phrase, tag } of phrases.get(keys[i]!) ?? []) {
      if (i + phrase.length <= keys.length && phrase.every((k, j) => keys[i + j] === k))
        found.push({ tag, from: i, length: phrase.length });
    }
  }
  return found;
}

export function conceptTags(word: string): readonly string[] {
  if (isOverlong(word)) return NO_TAGS;
  const tags = lexicon().words.get(rawKey(word)) ?? NO_TAGS;
  if (!DIGITS.test(word)) return tags;
  return [...tags, '~measure', ...(HTTP_STATUS.test(word) ? ['~status'] : [])];
}

/** Stems of the words that carry meaning (stop words removed), in order, with repeats. */
export function contentStems(text: string): string[] {
  const stems: string[] = [];
  for (const token of tokenize(text)) {
    // An overlong token is no word: it names nothing a key point or a question could share.
    if (STOP_WORDS.has(token) || isOverlong(token)) continue;
    const stemmed = stem(token);
    if (stemmed.length > 1 || /\d/.test(stemmed)) stems.push(stemmed);
  }
  return stems;
}

export function stemSet(text: string): Set<string> {
  return new Set(contentStems(text));
}

const KEY_POINT_CACHE = new Map<string, string[]>();

/** Distinct stems of a key point; cached because every answer of every rating checks the same points. */
function keyPointStems(keyPoint: string): string[] {
  let stems = KEY_POINT_CACHE.get(keyPoint);
  if (!stems) {
    stems = [...new Set(contentStems(keyPoint))];
    if (KEY_POINT_CACHE.size >= STEM_CACHE_LIMIT) KEY_POINT_CACHE.clear();
    KEY_POINT_CACHE.set(keyPoint, stems);
  }
  return stems;
}

/**
 * How far an answer gets towards a key point: 1 when covered (at least half of the point's
 * meaningful words, and at least one, appear in the answer: key points are short phrases, so half
 * is a fair bar for a candidate who explains the idea in their own words), else the share reached.
 *
 * `echo`: the stems of the question. Saying the question's own words back is no evidence of
 * knowing the point ("prefer const, then let" is not covered by an answer that only names const
 * and let, which the question already named), so they do not count unless the point has no
 * other words.
 */
export function keyPointReach(answerStems: ReadonlySet<string>, keyPoint: string, echo?: ReadonlySet<string>): number {
  const allStems = keyPointStems(keyPoint);
  const ownStems = echo ? allStems.filter((s) => !echo.has(s)) : allStems;
  const pointStems = ownStems.length > 0 ? ownStems : allStems;
  if (pointStems.length === 0) return 0;
  const hits = pointStems.filter((s) => answerStems.has(s)).length;
  return Math.min(1, hits / Math.max(1, Math.ceil(pointStems.length * 0.5)));
}

export interface KeyPointCoverage {
  covered: string[];
  missed: string[];
  /** covered / all, 0 when there are no key points. */
  ratio: number;
  /** Like ratio, but a missed point that was half-reached earns half of its reach. */
  partialRatio: number;
}

/** `question`: the question asked, whose own words are no evidence (see keyPointReach). */
export function keyPointCoverage(answer: string | ReadonlySet<string>, keyPoints: readonly string[], question?: string): KeyPointCoverage {
  const stems = typeof answer === 'string' ? stemSet(answer) : answer;
  const echo = question === undefined ? undefined : stemSet(question);
  const covered: string[] = [];
  const missed: string[] = [];
  let reach = 0;
  for (const point of keyPoints) {
    const r = keyPointReach(stems, point, echo);
    if (r >= 1) {
      covered.push(point);
      reach += 1;
    } else {
      missed.push(point);
      reach += r / 2;
    }
  }
  const n = keyPoints.length;
  return { covered, missed, ratio: n === 0 ? 0 : covered.length / n, partialRatio: n === 0 ? 0 : reach / n };
}

export function countWords(text: string): number {
  return text.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g)?.length ?? 0;
}
