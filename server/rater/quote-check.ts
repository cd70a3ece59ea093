/**
 * Checks that a quote really is the candidate's words: normalised (case, punctuation, spacing)
 * and fuzzy, because a model copying a speech transcript drops or changes a small word now and
 * then. A quote passes when some stretch of the candidate's words of about its length holds
 * nearly all of the quote's words.
 */

/** Share of the quote's words that must be found in one stretch of the transcript. */
const MIN_SHARE = 0.85;
/** A quote shorter than this proves nothing ("yes", "I think so"). */
const MIN_WORDS = 3;

export function normaliseWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

export function quoteIsInTranscript(quote: string, spokenWords: readonly string[]): boolean {
  const words = normaliseWords(quote);
  if (words.length < MIN_WORDS) return false;
  const needed = Math.ceil(words.length * MIN_SHARE);
  const wanted = new Map<string, number>();
  for (const w of words) wanted.set(w, (wanted.get(w) ?? 0) + 1);
  // Slide a window a little longer than the quote (room for dropped words) over the transcript.
  const span = Math.ceil(words.length * 1.2);
  const inWindow = new Map<string, number>();
  let found = 0;
  const add = (w: string, delta: 1 | -1) => {
    const want = wanted.get(w);
    if (want === undefined) return;
    const before = inWindow.get(w) ?? 0;
    const after = before + delta;
    inWindow.set(w, after);
    found += Math.min(after, want) - Math.min(before, want);
  };
  for (let i = 0; i < spokenWords.length; i++) {
    add(spokenWords[i]!, 1);
    if (i >= span) add(spokenWords[i - span]!, -1);
    if (found >= needed) return true;
  }
  return false;
}
