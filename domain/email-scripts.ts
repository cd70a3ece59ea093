/**
 * Look-alike emails (docs/product-rules.md, Login and identity): an address whose local part or a
 * domain label mixes writing systems ("vіctim" with a Cyrillic і) is flagged to the operator in
 * Manage Emails. Each part is judged alone, so a Cyrillic name at a Latin domain is not flagged.
 */

/** Scripts told apart; Han, Hiragana and Katakana are one (Japanese writes with all three). */
const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Japanese', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
];
const LETTER = /\p{L}/u;

function scriptOf(character: string): string | null {
  if (!LETTER.test(character)) return null;
  for (const [name, pattern] of SCRIPTS) if (pattern.test(character)) return name;
  return 'Other';
}

function mixesScripts(part: string): boolean {
  const seen = new Set<string>();
  for (const character of part) {
    const script = scriptOf(character);
    if (script !== null) seen.add(script);
  }
  return seen.size > 1;
}

/** True when the local part or one label of the domain mixes writing systems. */
export function isMixedScriptEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  const parts = [email.slice(0, at), ...email.slice(at + 1).split('.')];
  return parts.some(mixesScripts);
}
