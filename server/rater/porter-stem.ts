/**
 * The Porter stemming algorithm (M. F. Porter, 1980), written out here (iteratively, for words up to MAX_WORD_LENGTH letters) so the rater needs no
 * dependency: it brings a word's derived forms together ("isolation"/"isolated" -> "isol",
 * "atomicity"/"atomic" -> "atom", "consistency"/"consistent" -> "consist"), which the rater's
 * paraphrase matching relies on (see docs/question-sets.md, "How answers are judged").
 */

const isVowelLetter = (c: string | undefined): boolean => c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';

/**
 * Whether the letter at `i` is a consonant in Porter's sense: a, e, i, o, u are vowels; "y" is a
 * consonant at the start or after a vowel, else a vowel ("toy": consonant, "syzygy": vowels). In a
 * run of "y"s they alternate from the first, so one look back over the run decides, without
 * recursion (which once went one call deep per "y").
 */
function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c !== 'y') return !isVowelLetter(c);
  let first = i;
  while (first > 0 && w[first - 1] === 'y') first--;
  const firstIsConsonant = first === 0 || isVowelLetter(w[first - 1]);
  return (i - first) % 2 === 0 ? firstIsConsonant : !firstIsConsonant;
}

/** m: the number of vowel-consonant sequences in the stem (Porter's "measure"). */
function measure(stem: string): number {
  let n = 0;
  let i = 0;
  const len = stem.length;
  while (i < len && isConsonant(stem, i)) i++;
  while (i < len) {
    while (i < len && !isConsonant(stem, i)) i++;
    if (i >= len) break;
    while (i < len && isConsonant(stem, i)) i++;
    n++;
  }
  return n;
}

const hasVowel = (stem: string): boolean => {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
};

const endsDoubleConsonant = (w: string): boolean => w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1);

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y ("hop", not "snow"). */
const endsCvc = (w: string): boolean => {
  const n = w.length;
  if (n < 3) return false;
  const last = w[n - 1]!;
  return isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && last !== 'w' && last !== 'x' && last !== 'y';
};

function replaceSuffix(w: string, rules: ReadonlyArray<readonly [string, string]>, minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length);
      return measure(stem) > minMeasure ? stem + replacement : w;
    }
  }
  return w;
}

function step1ab(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);

  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
    return w;
  }
  let stripped: string | null = null;
  if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) stripped = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) stripped = w.slice(0, -3);
  if (stripped === null) return w;
  w = stripped;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) return w.slice(0, -1);
  if (measure(w) === 1 && endsCvc(w)) return `${w}e`;
  return w;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['abli', 'able'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
];
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

function longestMatch(w: string, rules: ReadonlyArray<readonly [string, string]>): ReadonlyArray<readonly [string, string]> {
  // Porter's rules are tried by the longest suffix that matches, not in list order.
  let best: readonly [string, string] | undefined;
  for (const rule of rules) if (w.endsWith(rule[0]) && (!best || rule[0].length > best[0].length)) best = rule;
  return best ? [best] : [];
}

function step4(w: string): string {
  let best = '';
  for (const s of STEP4) if (w.endsWith(s) && s.length > best.length) best = s;
  if (!best) return w;
  const stem = w.slice(0, -best.length);
  if (measure(stem) <= 1) return w;
  if (best === 'ion' && !/[st]$/.test(stem)) return w;
  return stem;
}

function step5(w: string): string {
  let out = w;
  if (out.endsWith('e')) {
    const stem = out.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) out = stem;
  }
  if (measure(out) > 1 && endsDoubleConsonant(out) && out.endsWith('l')) out = out.slice(0, -1);
  return out;
}

/**
 * Longest word the stemmer (and the matcher) reads as a word. No English word comes near it; a
 * longer token is garbage or an attack, left as it is (server/rater/text-match.ts makes it one
 * opaque token that matches nothing), so no input costs more than linear time in its length.
 */
export const MAX_WORD_LENGTH = 40;

export function porterStem(word: string): string {
  if (word.length <= 2 || word.length > MAX_WORD_LENGTH || !/^[a-z]+$/.test(word)) return word;
  let w = step1ab(word);
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, longestMatch(w, STEP2), 0);
  w = replaceSuffix(w, longestMatch(w, STEP3), 0);
  w = step4(w);
  return step5(w);
}
