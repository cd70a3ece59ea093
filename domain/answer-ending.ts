/**
 * Does a spoken answer sound finished? (docs/product-rules.md, End of a spoken answer.) The voice
 * modes end the candidate's turn after a pause whose length depends on what was said so far: a
 * short pause after an answer that sounds finished, a long one after a filler ("um"), a word that
 * leads on ("and", "because", "the") or a sentence cut off mid-way, and one in between when the
 * words cannot tell. Speech recognisers differ: some write punctuation (Whisper), some do not
 * (browsers' interim results, pocketsphinx), so the rule reads both.
 */

export type AnswerEnding = 'finished' | 'unsure' | 'unfinished';

/** How long a pause (ms) ends the turn, for each verdict (the TURN_PAUSE_* settings). */
export interface TurnPauses {
  /**
   * The speech pipeline's detector hands over the speech so far after a pause this long, to be
   * written down while the candidate is silent (at most finishedMs: the words are then known
   * before the shortest pause that can end the turn has passed).
   */
  pieceMs: number;
  finishedMs: number;
  unsureMs: number;
  unfinishedMs: number;
  /**
   * The speech pipeline: a sound over the interviewer's voice pauses it at once; when the sound
   * turns out not to be speech (too short: a cough, or a filler like "uh" the detector let go), the
   * voice stays paused this long more for the candidate to go on (a filler is often followed by a
   * pause), and speech in that time stops it for good. 0 plays on at once.
   */
  heldMs: number;
}

/** The defaults of the TURN_PAUSE_* settings, measured in bench/results.md (Speech-pipeline turns). */
export const DEFAULT_TURN_PAUSES: TurnPauses = { pieceMs: 200, finishedMs: 450, unsureMs: 1200, unfinishedMs: 2500, heldMs: 1500 };

/**
 * What the recogniser is known to write: `punctuates` once any of its transcripts held a sentence
 * mark (Whisper does; browsers' interim results and pocketsphinx do not). A recogniser that
 * punctuates and closed no sentence heard no sentence end, so its unpunctuated words are not taken
 * as a finished answer however on-topic they are.
 */
export type Recogniser = 'punctuates' | 'unknown';

/** Whether a transcript shows that its recogniser writes punctuation (a sentence mark before a space or the end). */
export const showsPunctuation = (text: string): boolean => /[.!?](\s|$)/.test(text);

/**
 * Words after which a speaker nearly always goes on: fillers, conjunctions, prepositions,
 * articles, relative and auxiliary words. Hesitation pauses fall mostly after such words, before
 * the content word that follows.
 */
const LEADING_ON = new Set(
  (
    'um umm uh uhm uhh er erm ah eh hmm mm mhm like so and but or nor because cause cos since although though unless ' +
    'whereas while whilst if then than that which who whom whose where when whether what how why ' +
    'the a an this these those my your our their his her its of to in on at for with by from about into onto over under ' +
    'between through during before after without within via per as is are was were be been being am ' +
    "can could will would shall should may might must do does did have has had i'm it's we're they're you're " +
    'not also just very more most really basically actually well i we you they he she let me means mean'
  ).split(' '),
);

/** Yes/no questions start with an auxiliary; "yes" or "no" answers them. */
const AUXILIARY_START = /^(do|does|did|is|are|was|were|can|could|will|would|should|have|has|had|may|might)\b/;

/** Words too common to show that an answer is about the question. */
const COMMON = new Set(
  (
    'what which when where why how who whom whose would could should does did have has had with your you about from ' +
    'that this these those there their they them then than into onto over under some give tell explain describe ' +
    'please thank thanks good great okay next question questions answer example difference between'
  ).split(' '),
);

/** The fewest words of an unpunctuated answer that can count as answering the question. */
export const MIN_ANSWER_WORDS = 4;

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];

/** A word's first five letters: "closures" and "closure", "remembers" and "remembering" meet. */
const stemOf = (word: string): string => word.slice(0, 5);

/** Content words of a text as stems (four letters or more, not a common word). */
function topicStems(text: string): Set<string> {
  return new Set(
    wordsOf(text)
      .filter((w) => w.length >= 4 && !COMMON.has(w))
      .map(stemOf),
  );
}

/** The question is the interviewer's last line; with several sentences, its last question. */
function lastQuestion(line: string): string {
  const sentences = line.match(/[^.!?]+[.!?]*/g) ?? [line];
  return sentences.filter((s) => s.includes('?')).at(-1) ?? line;
}

/** Whether the answer's words answer the question: a yes or no to a yes/no question, or enough words on its topic. */
function answersQuestion(words: string[], question: string): boolean {
  const asked = lastQuestion(question).trim().toLowerCase();
  if (AUXILIARY_START.test(asked) && (words[0] === 'yes' || words[0] === 'no')) return true;
  if (words.length < MIN_ANSWER_WORDS) return false;
  const topic = topicStems(asked);
  return words.some((w) => topic.has(stemOf(w)));
}

/**
 * The verdict on the answer heard so far, as the last words and the question tell it:
 * - `unfinished`: nothing yet, a trailing filler or word that leads on, or a sentence cut off
 *   ("...", a dash, a comma);
 * - `finished`: the last sentence is closed (., !, ?) or, from a recogniser not known to punctuate,
 *   the words answer the question;
 * - `unsure`: anything else.
 */
export function answerEnding(answer: string, question: string, recogniser: Recogniser = 'unknown'): AnswerEnding {
  const text = answer.trim();
  const words = wordsOf(text);
  const last = words.at(-1);
  if (last === undefined) return 'unfinished';
  if (/(\.\.\.|…|[-–—,;:])["')\]]*$/.test(text)) return 'unfinished';
  if (LEADING_ON.has(last)) return 'unfinished';
  if (/[.!?]["')\]]*$/.test(text)) return 'finished';
  if (recogniser === 'punctuates') return 'unsure';
  return answersQuestion(words, question) ? 'finished' : 'unsure';
}

/** The pause that ends the turn after this answer so far. */
export function endOfTurnPauseMs(answer: string, question: string, pauses: TurnPauses, recogniser: Recogniser = 'unknown'): number {
  const ending = answerEnding(answer, question, recogniser);
  return ending === 'finished' ? pauses.finishedMs : ending === 'unsure' ? pauses.unsureMs : pauses.unfinishedMs;
}
