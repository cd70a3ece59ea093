/**
 * Interviewer lines go to speech synthesis, which reads Markdown marks aloud: code fences,
 * emphasis, headings and quote marks are dropped (from catalogue questions and model replies alike).
 */
export function speakable(text: string): string {
  return text
    .replace(/```[a-z]*\n?/gi, '')
    .replace(/[*_`#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
