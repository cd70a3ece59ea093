/**
 * The core of the two turn-taking transports (browser speech, speech pipeline): the interviewer's
 * lines come from our server one turn at a time, each answer is sent after the one before it, and
 * the transport fails the same way in both. The core holds the session's listener and clock, the
 * session token, the queue of answers, the calls in flight (aborted when the device goes offline or
 * the transport closes), the words that got no reply yet, the notice line, and watches the page's
 * connectivity; a transport adds only how it hears the candidate and how it speaks.
 */
import type { BrowserSpeechToken, SpeechPipelineToken, TokenResponse } from '../../../../contract';
import type { ApiResult } from '../http';
import { browserConnectivity, type Connectivity } from './connectivity';
import { isReconnectable, OFFLINE_MESSAGE, TurnFailedError } from './turn-failure';
import type { TransportEvent, TransportListener } from './types';

/** A turn that did not come back (no answer, a 5xx, a body that is not ours). */
export const TURN_FAILED_MESSAGE = 'The interviewer could not be reached. Please try again in a moment.';

export interface TurnTakingOptions {
  now?: () => number;
  /** Online/offline and page visibility (the page's own by default). */
  connectivity?: Connectivity;
  /** The transport failed: stop hearing (and speaking, where the transport wants it). */
  silence(): void;
  /** The page is shown again and online, the session still taking answers. */
  onVisible?(): void;
}

export interface TurnTaking {
  /** The session token of the token the transport started with (a resumed session's new one). */
  sessionToken(): string;
  /** To the controller, unless the transport is closed. */
  emit(event: TransportEvent): void;
  /** Milliseconds since the session started (the `at` of transcript events). */
  at(): number;
  /** Neither closed nor ending: answers are still taken. */
  open(): boolean;
  closed(): boolean;
  /**
   * Opens the session: asks for the opening turn and then watches connectivity. Resolves with the
   * turn, or null when the transport was closed meanwhile; rejects when the opening call failed.
   */
  start<T>(token: TokenResponse, listener: TransportListener, startedAt: number, opening: () => Promise<T>): Promise<T | null>;
  /** One call of a turn, aborted if the transport closes or the device goes offline; see turnOf. */
  call<T>(send: (signal: AbortSignal) => Promise<ApiResult<unknown>>, isTurn: (body: unknown) => body is T): Promise<T>;
  /**
   * Queues an answer: `ask` runs once the answers before it have their turns, then `reply` handles
   * the turn; a failure fails the transport. `words`: what a continuation sends again if no turn
   * comes back (`typed`: the candidate typed them).
   */
  answer<T>(words: string | undefined, ask: () => Promise<T>, reply: (turn: T) => Promise<void>, typed?: boolean): void;
  /** Queues work after the answers already queued (the opening turn). */
  then(work: () => Promise<void>): void;
  /** A notice true for the rest of the session; the screen shows them in one line, each once. */
  notice(text: string): void;
  /** The latest apology after the lasting notices ('' clears it). */
  apologise(text: string): void;
  /** The interviewer ended the interview: no more answers are taken. */
  ending(): void;
  /** This transport is done (docs/product-rules.md, Session lifecycle, Reconnecting). */
  fail(message: string, reconnectable: boolean): void;
  /** Stops watching and aborts the calls in flight; false when it was already closed. */
  close(): boolean;
}

export function createTurnTaking(token: BrowserSpeechToken | SpeechPipelineToken, options: TurnTakingOptions): TurnTaking {
  const now = options.now ?? (() => performance.now());
  const connectivity = options.connectivity ?? browserConnectivity();

  let sessionToken = token.client_secret.value;
  let listener: TransportListener = () => undefined;
  let startedAt = 0;
  let started = false;
  let closed = false;
  /** The interviewer is ending the interview, or the transport failed. */
  let ending = false;
  let queue: Promise<void> = Promise.resolve();
  const inFlight = new Set<AbortController>();
  /** Words sent whose turn has not come back yet, and whether they were typed. */
  const pending: Array<{ words: string; typed: boolean }> = [];
  const lasting: string[] = [];
  let apology = '';
  let stopWatching: () => void = () => undefined;

  const emit = (event: TransportEvent): void => {
    if (!closed) listener(event);
  };
  const open = (): boolean => !closed && !ending;
  const abortCalls = (): void => {
    for (const controller of inFlight) controller.abort();
  };
  const showNotice = (): void => emit({ type: 'notice', text: [...lasting, apology].filter(Boolean).join(' ') });

  function fail(message: string, reconnectable: boolean): void {
    if (!open()) return;
    ending = true;
    options.silence();
    stopWatching();
    const pendingAnswer = pending.map((p) => p.words).join(' ');
    const pendingTyped = pending.length > 0 && pending.every((p) => p.typed);
    emit(
      reconnectable
        ? {
            type: 'failed',
            message,
            reconnectable: true,
            ...(pendingAnswer ? { pendingAnswer } : {}),
            ...(pendingTyped ? { pendingTyped } : {}),
          }
        : { type: 'failed', message },
    );
  }

  return {
    sessionToken: () => sessionToken,
    emit,
    at: () => Math.max(0, Math.round(now() - startedAt)),
    open,
    closed: () => closed,

    async start(startToken, onEvent, startedAtMs, opening) {
      if (started) throw new Error('This interview session has already started.');
      started = true;
      if (startToken.transport === token.transport) sessionToken = startToken.client_secret.value;
      listener = onEvent;
      startedAt = startedAtMs;
      const turn = await opening();
      if (closed) return null;
      stopWatching = connectivity.watch((change) => {
        if (change === 'offline' || (change === 'visible' && !connectivity.online())) {
          abortCalls();
          fail(OFFLINE_MESSAGE, true);
        } else if (change === 'visible' && open()) options.onVisible?.();
      });
      return turn;
    },

    async call(send, isTurn) {
      const controller = new AbortController();
      inFlight.add(controller);
      try {
        return turnOf(await send(controller.signal), isTurn);
      } finally {
        inFlight.delete(controller);
      }
    },

    answer(words, ask, reply, typed = false) {
      const entry = words ? { words, typed } : null;
      if (entry) pending.push(entry);
      queue = queue.then(async () => {
        if (!open()) return;
        try {
          const turn = await ask();
          if (entry) pending.splice(pending.indexOf(entry), 1);
          await reply(turn);
        } catch (error) {
          fail(error instanceof Error ? error.message : TURN_FAILED_MESSAGE, isReconnectable(error));
        }
      });
    },

    then(work) {
      queue = queue.then(work);
    },

    notice(text) {
      if (lasting.includes(text)) return;
      lasting.push(text);
      showNotice();
    },

    apologise(text) {
      if (!text && !apology) return;
      apology = text;
      showNotice();
    },

    ending() {
      ending = true;
    },

    fail,

    close() {
      if (closed) return false;
      closed = true;
      stopWatching();
      abortCalls();
      inFlight.clear();
      return true;
    },
  };
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
