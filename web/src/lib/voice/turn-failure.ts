/**
 * How a transport's call to our server failed (a turn of browser speech or the speech pipeline, the
 * OpenAI transport's SDP offer). A reconnectable
 * failure (the call did not get through, the server failed) lets the same session go on after a
 * resume; a 4xx sentence is final (docs/product-rules.md, Session lifecycle, Reconnecting).
 */
export const OFFLINE_MESSAGE = 'This device went offline.';

export class TurnFailedError extends Error {
  constructor(
    message: string,
    readonly reconnectable: boolean,
  ) {
    super(message);
    this.name = 'TurnFailedError';
  }
}

/** Whether a failed turn call may go on after a resume: not an explicit refusal of the server. */
export function isReconnectable(error: unknown): boolean {
  return !(error instanceof TurnFailedError) || error.reconnectable;
}
