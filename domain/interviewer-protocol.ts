/**
 * What the server (which owns every OpenAI voice call) and the browser must agree on
 * (docs/openai-realtime-mode.md): the tool the interviewer calls to end the interview, how long the
 * ending takes, how the one closing remark is marked, the marker of an answer that could not be
 * transcribed, and which service errors end a call.
 */
export const CLOSE_SESSION_TOOL_NAME = 'close_session';

/**
 * docs/product-rules.md, Closing: the session ends this long after the closing remark is requested
 * (the browser's session controller in every voice mode; the server hangs an OpenAI call up)...
 */
export const CLOSE_DELAY_MS = 4000;
/** ...or once the remark has been heard to its end, if that is later, but never waited for longer than this beyond the delay. */
export const CLOSING_REMARK_WAIT_MS = 10_000;

/** The server asks for the closing remark with this response metadata; the browser recognises it. */
export const CLOSING_METADATA = { purpose: 'closing' } as const;

/** An answer the voice service could not transcribe keeps its place in the transcript as this. */
export const INAUDIBLE = '[inaudible]';

/** Leads the interviewer's first line after a dropped connection (docs/product-rules.md, Session lifecycle). */
export const WELCOME_BACK = 'Welcome back.';

/** Service error codes after which a call does not go on; every other error is survived and logged. */
export const FATAL_REALTIME_ERROR_CODES: ReadonlySet<string> = new Set([
  'session_expired',
  'beta_api_shape_disabled',
  'invalid_api_key',
  'insufficient_quota',
]);

/** What to say once close_session was called: a brief closing remark given the reason. */
export function closingRemarkInstructions(reason: string): string {
  return `The interview is ending (${reason}). Give a brief, warm closing remark in one or two sentences: thank the candidate and tell them their written feedback is being prepared. Do not ask any further questions.`;
}
