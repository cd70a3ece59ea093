/**
 * What the server-side interviewer instructions and the browser's OpenAI transport must agree on:
 * the name of the tool the interviewer calls to end the interview, and the instruction the
 * browser sends for the closing remark once it did (docs/openai-realtime-mode.md).
 */
export const CLOSE_SESSION_TOOL_NAME = 'close_session';

/** What to say once close_session was called: a brief closing remark given the reason. */
export function closingRemarkInstructions(reason: string): string {
  return `The interview is ending (${reason}). Give a brief, warm closing remark in one or two sentences: thank the candidate and tell them their written feedback is being prepared. Do not ask any further questions.`;
}
