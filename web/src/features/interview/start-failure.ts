/**
 * What the candidate reads near the start button when a start fails (besides the console log),
 * and the error the token call throws with the server's own sentence.
 */
export const OUT_OF_SESSIONS_TEXT = 'You have no interview sessions left.';
export const TOKEN_FAILED_TEXT = 'The session could not be started. Please try again.';

/** The token call failed; `sentence` is what the candidate is shown (the server's, when it gave one). */
export class StartFailedError extends Error {
  constructor(
    message: string,
    readonly sentence: string,
  ) {
    super(message);
    this.name = 'StartFailedError';
  }
}

/** After a session was minted: the voice connection (SDP, first turn, microphone) failed. */
export function connectionFailedText(creditReturned: boolean): string {
  return creditReturned
    ? 'The voice connection could not be started. Your session credit was returned. Please try again.'
    : 'The voice connection could not be started. Please try again.';
}
