/**
 * How a transport's call to our server failed (a turn of browser speech or the speech pipeline, the
 * OpenAI transport's SDP offer). A reconnectable
 * failure (the call did not get through, the server failed) lets the same session go on after a
 * resume; a 4xx sentence is final (docs/product-rules.md, Session lifecycle, Reconnecting).
 */
import type { ApiResult } from '../http';

export const OFFLINE_MESSAGE = 'This device went offline.';
/** A turn that did not come back (no answer, a 5xx, a body that is not ours). */
export const TURN_FAILED_MESSAGE = 'The interviewer could not be reached. Please try again in a moment.';

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

/**
 * The turn a turn call answered, or the TurnFailedError that says how it failed. Answers are typed
 * by the contract (the server's serializer checked them); a body that is not even the right shape
 * means something between us and the server answered.
 */
export function turnOf<T>(result: ApiResult<unknown>, isTurn: (body: unknown) => body is T): T {
  if (result.ok && isTurn(result.data)) return result.data;
  if (!result.ok && result.kind === 'http' && result.status < 500 && result.serverError)
    throw new TurnFailedError(result.serverError, false);
  throw new TurnFailedError(TURN_FAILED_MESSAGE, true);
}
