/**
 * How a turn-taking transport's call failed (browser speech, speech pipeline). A reconnectable
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
