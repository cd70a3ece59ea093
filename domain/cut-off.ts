/**
 * docs/product-rules.md, Session lifecycle: where the candidate cut the interviewer off (barge-in).
 * `cutAt` is about how many characters of the line had been said when its voice stopped (the
 * speech pipeline: the share of its audio played; browser speech: the last word boundary); the
 * line is split after the word in progress there, so the mark never falls inside a word.
 */
export function cutOffParts(text: string, cutAt: number): { said: string; rest: string } {
  const at = Math.max(0, Math.min(text.length, Math.round(cutAt)));
  const wordEnd = text.slice(at).search(/\s/);
  const split = wordEnd === -1 ? text.length : at + wordEnd;
  return { said: text.slice(0, split).trimEnd(), rest: text.slice(split).trimStart() };
}
