import { dataLines } from './word-lists';

/**
 * Concepts: words and spoken phrases that say the same thing in an interview answer, so a key
 * point and a plain-word paraphrase meet ("n squared" and "quadratic", "tidy up" and "clean-up",
 * "rarely changes" and "low-frequency"). A word may belong to several concepts; matching asks
 * whether a key point's word and the candidate's word share one (see server/rater/text-match.ts
 * and docs/question-sets.md, "How answers are judged").
 *
 * This is a general list for software interviews, not a list of answers: each line must hold for
 * any question it could touch. Per-question wordings belong in a question set's "Also accepted".
 * Still, every concept is only one requirement of a key point: the point's other words must be
 * said in the same statement too.
 *
 * The list is server/rater/lists/concepts.txt. Format: `concept: word, word, a phrase, ...`. Single words are compared by stem, so one form
 * covers its inflections; phrases (several words) are matched as word sequences in the answer.
 */

export interface Lexicon {
  /** Concept tags by word key (see `keyOf`). */
  words: Map<string, string[]>;
  /** Phrases by their first word key: the keys of the whole phrase and its concept. */
  phrases: Map<string, Array<{ keys: string[]; tag: string }>>;
}

/**
 * Builds the lexicon with the caller's notion of a word key (stem, or the word itself for a
 * stop word) and tokenizer, so phrases and words are compared exactly as the answer's words are.
 */
export function buildLexicon(keyOf: (word: string) => string, words: (text: string) => string[]): Lexicon {
  const lexicon: Lexicon = { words: new Map(), phrases: new Map() };
  for (const line of dataLines('concepts.txt')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const tag = `~${line.slice(0, colon).trim().replace(/\s+/g, '-')}`;
    for (const entry of line.slice(colon + 1).split(',')) {
      const keys = words(entry).map(keyOf);
      if (keys.length === 0) continue;
      if (keys.length === 1) {
        const tags = lexicon.words.get(keys[0]!) ?? [];
        if (!tags.includes(tag)) tags.push(tag);
        lexicon.words.set(keys[0]!, tags);
      } else {
        const list = lexicon.phrases.get(keys[0]!) ?? [];
        list.push({ keys, tag });
        lexicon.phrases.set(keys[0]!, list);
      }
    }
  }
  return lexicon;
}
