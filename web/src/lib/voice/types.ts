/**
 * The voice-transport seam. The session controller (one owner of the session state) talks only to
 * this interface; three transports implement it (OpenAI over WebRTC, browser speech and the speech
 * pipeline: create-transport.ts picks one by the token), and unit tests drive the controller with a
 * scripted one. The two turn-taking transports share their core (turn-taking.ts).
 */
import type { TokenResponse } from '../../../../contract';
import type { TurnPauses } from '../../../../domain/answer-ending';

export type TransportEvent =
  /** The interviewer finished a line (shown as a card, kept in the transcript). */
  | { type: 'interviewer'; text: string; at: number }
  /** The candidate finished an answer. */
  | { type: 'candidate'; text: string; at: number }
  /** Words the recogniser has heard so far in the current answer (browser speech only). */
  | { type: 'interim'; text: string }
  | { type: 'speaking'; speaking: boolean }
  /** Something the candidate must know plainly, e.g. "This browser cannot recognise speech...". */
  | { type: 'notice'; text: string }
  /**
   * The interviewer ended the interview (close_session, honoured once). The transport has already
   * asked for / started the closing remark and stopped the microphone; the controller ends the
   * session CLOSE_DELAY_MS later, or when the remark has been heard to its end if that is later.
   */
  | { type: 'close-requested'; reason: string }
  /**
   * The turn-taking transports: the interviewer's line was spoken to its end, or stopped by the
   * candidate (shown where no voice plays). A resume does not say it again (heard-again.ts).
   */
  | { type: 'heard'; text: string }
  /** The candidate talked over the interviewer's line `text`, whose voice stopped about `cutAt` characters in. */
  | { type: 'cut-off'; text: string; cutAt: number }
  /** The closing remark has been played out to its end (OpenAI: its audio buffer stopped). */
  | { type: 'closing-remark-done' }
  /**
   * The connection failed or dropped, or the provider sent an error; this transport is done.
   * `reconnectable`: only the connection dropped, so the interview may go on in a new one.
   */
  | {
      type: 'failed';
      message: string;
      reconnectable?: boolean;
      /** Browser speech: the answer that was sent but got no reply; the continuation sends it again. */
      pendingAnswer?: string;
      /** The pending answer was typed (it is stored as typed when the continuation sends it). */
      pendingTyped?: boolean;
    };

export type TransportListener = (event: TransportEvent) => void;

export interface VoiceTransport {
  /**
   * Opens the session (microphone, connection). Resolves when the session is active (the data
   * channel is open / the interviewer's first turn is on its way); rejects when it cannot start.
   * `startedAt` is the performance.now() reference for the `at` of every transcript event.
   */
  start(token: TokenResponse, listener: TransportListener, startedAt: number, options?: StartOptions): Promise<void>;
  /** True when the candidate can type answers (browser speech); the screen then shows a text box with Send. */
  readonly acceptsTypedAnswers: boolean;
  /** Typed answer; only called when acceptsTypedAnswers. */
  sendText(text: string): void;
  /**
   * The candidate says the spoken answer in progress is over (the Done button, the Enter key): it
   * is sent now rather than after the pause (the turn-taking transports; nothing otherwise).
   */
  endAnswer?(): void;
  /** Closes everything (connection, microphone, speech). Safe to call twice. */
  close(): void;
}

/** How a session starts in this transport. */
export interface StartOptions {
  /**
   * This start continues a session whose connection dropped (after POST /interview/sessions/{id}/resume):
   * the transcript so far is on the server; `pendingAnswer` is an answer that got no reply.
   */
  resumed?: {
    pendingAnswer?: string;
    pendingTyped?: boolean;
    /** The interviewer's last line the candidate heard to its end; the continuation does not say it again. */
    heard?: string;
  };
}

export interface TransportContext {
  /** The logged-in candidate (x-user-email for calls the transport makes). */
  userEmail: string;
  /** The pauses that end a spoken answer, by how it sounds (domain/answer-ending.ts). */
  turnPauses: TurnPauses;
}
